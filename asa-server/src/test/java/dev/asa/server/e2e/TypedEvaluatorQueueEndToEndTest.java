package dev.asa.server.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.asa.client.AsaApiException;
import dev.asa.client.AsaClient;
import dev.asa.client.EvaluatorQueue;
import dev.asa.client.EvaluatorScores;
import dev.asa.client.EvaluatorTask;
import dev.asa.json.Json;
import dev.asa.server.AsaServer;
import dev.asa.server.config.ServerConfig;
import dev.asa.testing.Fixtures;
import java.net.URI;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The SDK's typed work queue against the real server: a newly registered evaluator reads its
 * qualification canary as an {@link EvaluatorTask} and answers it with {@link EvaluatorScores}.
 */
class TypedEvaluatorQueueEndToEndTest {
  @TempDir Path dataDir;

  @Test
  void aNewEvaluatorReadsItsQualificationCanaryAndAnswersIt() {
    try (AsaServer server =
        AsaServer.start(
            ServerConfig.defaults()
                .withPort(0)
                .withDataDir(dataDir)
                .withOperatorKey(Fixtures.key("operator").publicKey()))) {
      AsaClient anonymous = AsaClient.connect(URI.create(server.url("127.0.0.1")));
      ObjectNode canary = Json.object();
      canary.put("id", "general-bad-01");
      canary.put("service_type", "general");
      canary.putObject("request").put("description", "Explain how TLS certificates are checked");
      canary
          .putObject("deliverable")
          .put("content", "# Certificates\n\nBrowsers check certificates.\n")
          .put("format", "markdown");
      canary.set(
          "criteria",
          dev.asa.template.Templates.get("general")
              .orElseThrow()
              .defaults()
              .get("quality_criteria"));
      canary.putObject("known_scores").put("accuracy", 20).put("completeness", 10);
      canary.put("tolerance", 15);
      anonymous
          .withKey(Fixtures.key("operator"))
          .loadCanaries(Json.mapper().createArrayNode().add(canary));
      AsaClient judge = anonymous.withKey(Fixtures.key("eval-1"));
      judge.registerEvaluator(
          AsaClient.evaluatorRegistration("api_key", "judge-7", "Judge Seven", List.of("general")));
      EvaluatorQueue queue = judge.evaluatorQueue();

      List<EvaluatorTask> tasks = queue.tasks();

      assertThat(tasks).hasSize(1);
      EvaluatorTask task = tasks.get(0);
      assertThat(task.serviceType()).isEqualTo("general");
      assertThat(task.description()).isEqualTo("Explain how TLS certificates are checked");
      assertThat(task.content()).hasValue("# Certificates\n\nBrowsers check certificates.\n");
      assertThat(task.format()).hasValue("markdown");
      assertThat(task.dimensions())
          .containsExactly("accuracy", "completeness", "relevance", "timeliness");
      assertThat(task.deadline()).isAfter(Instant.now());

      EvaluatorScores.Builder scores = EvaluatorScores.builder();
      for (String dimension : task.dimensions()) {
        scores.score(dimension, dimension.equals("timeliness") ? 100 : 15, "names no step");
      }
      Instant received = queue.answer(task.taskId(), scores.build());

      assertThat(received).isBeforeOrEqualTo(Instant.now());
      // Answered, it leaves the queue (the next qualification canary, if any, is another task).
      assertThat(queue.tasks()).extracting(EvaluatorTask::taskId).doesNotContain(task.taskId());
      assertThatThrownBy(() -> queue.answer(task.taskId(), scores.build()))
          .isInstanceOfSatisfying(
              AsaApiException.class, e -> assertThat(e.status()).isIn(404, 409));
    }
  }
}
