package dev.asa.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import dev.asa.client.AsaClient;
import dev.asa.evaluators.EvaluationException;
import dev.asa.evaluators.judgeeval.Answer;
import dev.asa.evaluators.judgeeval.Scored;
import dev.asa.json.Json;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * {@link ServerScorer} against a scripted server: what it asks for, a job followed to its result, a
 * rate limit waited out, and a refusal that stops the run with the server's reason. (The real
 * server is {@code JudgeEvalServerTest}'s.)
 */
class ServerScorerTest {

  private static final String RESULT =
      """
      {"verification_id": "v1", "evaluator": {"type": "embedding", "model": "m"},
       "composite": {"score": 81.5},
       "dimensions": [{"name": "relevance", "score": 90}, {"name": "accuracy", "score": null}]}
      """;

  private HttpServer http;

  /** One scripted answer of the server. */
  private record Reply(int status, String body) {}

  private final Queue<Reply> replies = new ConcurrentLinkedQueue<>();
  private final List<String> requests = new ArrayList<>();

  /** Answers each call with the next scripted status and body. */
  private AsaClient scripted() throws IOException {
    http = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
    http.createContext(
        "/",
        exchange -> {
          synchronized (requests) {
            requests.add(
                exchange.getRequestMethod()
                    + " "
                    + exchange.getRequestURI().getPath()
                    + " "
                    + new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8));
          }
          reply(exchange, replies.remove());
        });
    http.start();
    return AsaClient.connect(URI.create("http://127.0.0.1:" + http.getAddress().getPort()));
  }

  private void script(int status, String body) {
    replies.add(new Reply(status, body));
  }

  private static void reply(HttpExchange exchange, Reply reply) throws IOException {
    int status = reply.status();
    byte[] bytes = reply.body().getBytes(StandardCharsets.UTF_8);
    exchange
        .getResponseHeaders()
        .add("Content-Type", status >= 400 ? "application/problem+json" : "application/json");
    exchange.sendResponseHeaders(status, bytes.length);
    exchange.getResponseBody().write(bytes);
    exchange.close();
  }

  @AfterEach
  void stop() {
    if (http != null) {
      http.stop(0);
    }
  }

  @Test
  void asksForASemanticVerificationAndFollowsItsJobToTheComposite() throws Exception {
    AsaClient client = scripted();
    script(202, "{\"verification_id\": \"v1\", \"status\": \"queued\"}");
    script(200, "{\"verification_id\": \"v1\", \"status\": \"running\"}");
    script(200, RESULT);
    ServerScorer scorer = new ServerScorer(client, List.of("embedding", "embedding"));

    Scored scored = scorer.score(new Answer("Explain X.", "X is ...", "general", "markdown"));

    assertThat(scored.composite()).isEqualTo(81.5);
    assertThat(scored.dimensions()).isEqualTo(Map.of("relevance", 90.0));
    assertThat(scorer.evaluatorsSeen()).containsExactly("embedding (m)");
    assertThat(requests).hasSize(3);
    JsonNode asked = Json.parse(requests.get(0).substring(requests.get(0).indexOf('{')));
    assertThat(requests.get(0)).startsWith("POST /verifications ");
    assertThat(asked.path("deliverable").path("content").asText()).isEqualTo("X is ...");
    assertThat(asked.path("deliverable").path("format").asText()).isEqualTo("markdown");
    assertThat(asked.path("original_request").path("description").asText()).isEqualTo("Explain X.");
    assertThat(asked.path("verification_config").path("depth").asText()).isEqualTo("semantic");
    assertThat(asked.path("verification_config").path("evaluators").toString())
        .isEqualTo("[\"embedding\",\"embedding\"]");
    assertThat(requests.get(1)).startsWith("GET /verifications/v1");
  }

  @Test
  void aRateLimitIsWaitedOutAndACountOfDefaultRunsIsSentAsACount() throws Exception {
    AsaClient client = scripted();
    script(429, "{\"type\": \"https://asa.dev/problems/rate-limited\", \"status\": 429}");
    script(200, RESULT);
    ServerScorer scorer = new ServerScorer(client, java.util.Arrays.asList(null, null, null));

    assertThat(scorer.score(new Answer("Explain X.", "X is ...", "general", null)).composite())
        .isEqualTo(81.5);
    assertThat(requests).hasSize(2);
    JsonNode asked = Json.parse(requests.get(1).substring(requests.get(1).indexOf('{')));
    assertThat(asked.path("verification_config").path("evaluators").asInt()).isEqualTo(3);
    assertThat(asked.path("deliverable").has("format")).isFalse();
  }

  @Test
  void aRefusalOrAResultWithoutACompositeStopsWithTheReason() throws Exception {
    AsaClient client = scripted();
    script(
        422,
        "{\"type\": \"https://asa.dev/problems/invalid-document\", \"status\": 422,"
            + " \"detail\": \"verification_config/evaluators/0: there is no 'judgee' evaluator\"}");
    script(200, "{\"verification_id\": \"v2\", \"composite\": {}}");
    ServerScorer scorer = new ServerScorer(client, List.of("judgee"));
    Answer answer = new Answer("Explain X.", "X is ...", "general", null);

    assertThatThrownBy(() -> scorer.score(answer))
        .isInstanceOf(EvaluationException.class)
        .hasMessageContaining("the server refused it")
        .hasMessageContaining("there is no 'judgee' evaluator");
    assertThatThrownBy(() -> scorer.score(answer))
        .isInstanceOf(EvaluationException.class)
        .hasMessageContaining("the server's result has no composite score");
  }
}
