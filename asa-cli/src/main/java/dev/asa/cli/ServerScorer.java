package dev.asa.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.asa.client.AsaApiException;
import dev.asa.client.AsaClient;
import dev.asa.evaluators.EvaluationException;
import dev.asa.evaluators.judgeeval.Answer;
import dev.asa.evaluators.judgeeval.AnswerScorer;
import dev.asa.evaluators.judgeeval.Scored;
import dev.asa.json.Json;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;

/**
 * Scores an answer through a running server, from outside: a signed {@code POST /verifications} at
 * semantic depth, followed until its job ends. The figure then describes the judge that server
 * runs, with its own configuration, model and judge, which is what decides its payments.
 *
 * <p>A server that answers 429 (its per-key rate limit) is waited for and asked again; any other
 * refusal stops the run, naming the answer, since every later answer would be refused the same way.
 */
final class ServerScorer implements AnswerScorer {

  /** How long one answer's job may take before the run gives up. */
  static final Duration TIMEOUT = Duration.ofMinutes(15);

  /** Rate-limited calls retried before giving up, one second apart. */
  static final int RATE_LIMIT_RETRIES = 60;

  private final AsaClient client;
  private final List<String> evaluatorTypes;
  private final Set<String> evaluatorsSeen = ConcurrentHashMap.newKeySet();

  /**
   * @param client signed with the caller's key
   * @param evaluatorTypes one entry a run, null for the server's default type; empty for one run of
   *     the default (as {@code verification_config.evaluators})
   */
  ServerScorer(AsaClient client, List<String> evaluatorTypes) {
    this.client = client;
    this.evaluatorTypes = Collections.unmodifiableList(new ArrayList<>(evaluatorTypes));
  }

  /**
   * The evaluators the server reported running, as "type (model)", sorted; the server's default
   * when no result named one.
   */
  List<String> evaluatorsSeen() {
    List<String> seen = new ArrayList<>(evaluatorsSeen);
    seen.sort(null);
    return seen.isEmpty() ? List.of("the server's default evaluator") : seen;
  }

  @Override
  public Scored score(Answer answer) throws EvaluationException {
    ObjectNode body = Json.object();
    ObjectNode deliverable =
        body.putObject("deliverable").put("content", answer.content()).put("type", answer.type());
    if (answer.format() != null) {
      deliverable.put("format", answer.format());
    }
    body.putObject("original_request").put("description", answer.request());
    ObjectNode config = body.putObject("verification_config").put("depth", "semantic");
    if (!evaluatorTypes.isEmpty()) {
      if (evaluatorTypes.stream().allMatch(Objects::nonNull)) {
        ArrayNode types = config.putArray("evaluators");
        evaluatorTypes.forEach(types::add);
      } else {
        config.put("evaluators", evaluatorTypes.size()); // a count of the server's default type
      }
    }
    JsonNode result = call(() -> client.requestVerification(body));
    if (AsaClient.isPending(result)) {
      String id = result.path("verification_id").asText();
      result = call(() -> client.awaitVerification(id, TIMEOUT, job -> {}));
    }
    return scored(result);
  }

  private Scored scored(JsonNode result) throws EvaluationException {
    JsonNode composite = result.path("composite").path("score");
    if (!composite.isNumber()) {
      throw new EvaluationException(
          EvaluationException.Reason.UNUSABLE_OUTPUT,
          "the server's result has no composite score: " + abridged(result.toString()));
    }
    Map<String, Double> dimensions = new LinkedHashMap<>();
    for (JsonNode d : result.path("dimensions")) {
      if (d.path("score").isNumber()) {
        dimensions.put(d.path("name").asText(), d.path("score").asDouble());
      }
    }
    JsonNode evaluator = result.path("evaluator");
    if (evaluator.hasNonNull("type")) {
      String model = evaluator.path("model").asText("");
      evaluatorsSeen.add(
          evaluator.path("type").asText() + (model.isEmpty() ? "" : " (" + model + ")"));
    }
    return new Scored(composite.asDouble(), dimensions);
  }

  /**
   * A call to the server, waited out while it is rate-limited; its refusal as the reason to stop.
   */
  private static JsonNode call(Supplier<ObjectNode> request) throws EvaluationException {
    for (int attempt = 0; ; attempt++) {
      try {
        return request.get();
      } catch (AsaApiException e) {
        if (e.status() == 429 && attempt < RATE_LIMIT_RETRIES) {
          pause();
          continue;
        }
        throw new EvaluationException(
            e.status() == 0
                ? EvaluationException.Reason.UNAVAILABLE
                : EvaluationException.Reason.INVALID_TASK,
            "the server refused it: " + e.getMessage(),
            e);
      }
    }
  }

  private static void pause() throws EvaluationException {
    try {
      Thread.sleep(1000);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new EvaluationException(
          EvaluationException.Reason.UNAVAILABLE, "interrupted while rate-limited", e);
    }
  }

  private static String abridged(String s) {
    return s.length() <= 200 ? s : s.substring(0, 200) + "...";
  }
}
