package dev.asa.cli.mcp;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.asa.client.AsaApiException;
import dev.asa.client.AsaClient;
import dev.asa.client.EvaluatorScores;
import dev.asa.json.Json;
import java.time.Duration;
import java.util.Map;
import java.util.function.Consumer;

/**
 * The tools that judge: an evaluator's scores for an agreement, the pool evaluator's work queue,
 * and the server's standalone verification of any content.
 */
final class JudgeTools {

  /** The longest a verification job is followed, as {@code asa verify} follows it. */
  static final Duration JOB_TIMEOUT = Duration.ofMinutes(15);

  private final Caller caller;

  JudgeTools(Caller caller) {
    this.caller = caller;
  }

  Map<String, ToolHandler> handlers() {
    return Map.of(
        "submit_evaluation", (args, progress) -> submitEvaluation(args),
        "evaluator_tasks", (args, progress) -> caller.client().evaluatorTasks(),
        "submit_task_result", (args, progress) -> submitTaskResult(args),
        "verify_deliverable", this::verifyDeliverable);
  }

  private ObjectNode submitEvaluation(Arguments args) {
    String id = args.id("agreement_id");
    ObjectNode answer;
    try {
      answer = caller.client().verify(id, scores(args).toJson());
    } catch (AsaApiException e) {
      if (e.status() == 409 && e.detail().contains("work queue")) {
        throw new Refusal(
            e,
            "With these tools: evaluator_tasks lists the task, submit_task_result answers it with"
                + " the same scores.");
      }
      throw e;
    }
    JsonNode verification = answer.path("verification");
    ObjectNode out =
        Json.object().put("agreement_id", id).put("state", answer.path("state").asText());
    out.set("determination", verification.path("determination"));
    out.set("composite", verification.path("composite"));
    out.set("verification", verification);
    return out;
  }

  private ObjectNode submitTaskResult(Arguments args) {
    return caller.client().answerTask(args.id("task_id"), scores(args).toJson());
  }

  /** The scores as the SDK builds them, which refuses a score out of range or given twice. */
  private static EvaluatorScores scores(Arguments args) {
    EvaluatorScores.Builder scores = EvaluatorScores.builder();
    try {
      for (JsonNode score : args.array("scores")) {
        if (!score.path("score").isNumber()) {
          throw new ToolError(
              "Each score needs a number from 0 to 100 in \"score\" (100 or 0 for a boolean"
                  + " dimension).");
        }
        scores.score(
            text(score, "dimension"), score.path("score").doubleValue(), text(score, "evidence"));
      }
      args.object("checks")
          .ifPresent(checks ->
              checks.properties().forEach(c -> scores.check(c.getKey(), c.getValue().asBoolean())));
      args.number("confidence").ifPresent(scores::confidence);
      args.optionalText("model").ifPresent(scores::model);
      return scores.build();
    } catch (IllegalArgumentException | IllegalStateException e) {
      throw new ToolError(e.getMessage());
    }
  }

  private static String text(JsonNode score, String member) {
    JsonNode value = score.path(member);
    if (!value.isTextual() || value.asText().isBlank()) {
      throw new ToolError("Each score needs \"" + member + "\" as text.");
    }
    return value.asText();
  }

  /**
   * {@code POST /verifications}, as {@code asa verify --server} sends it; a semantic verification
   * is a job, followed to its end with its stages reported as progress.
   */
  private ObjectNode verifyDeliverable(Arguments args, Progress progress) {
    ObjectNode request = Json.object();
    request
        .putObject("deliverable")
        .put("content", args.text("content"))
        .put("format", args.optionalText("format").orElse("markdown"))
        .put("type", args.optionalText("type").orElse("general"));
    ObjectNode original = request.putObject("original_request");
    original.put("description", args.text("request"));
    args.object("tests").ifPresent(tests -> original.set("tests", tests));
    request
        .putObject("verification_config")
        .put("depth", args.optionalText("depth").orElse("semantic"));
    AsaClient client = caller.client();
    ObjectNode answer = client.requestVerification(request);
    if (!AsaClient.isPending(answer)) {
      return answer;
    }
    String id = answer.path("verification_id").asText();
    JobProgress report = new JobProgress(id, progress);
    report.accept(answer);
    return client.awaitVerification(id, JOB_TIMEOUT, report);
  }

  /**
   * A job's stages as progress. The SDK polls ten times a second; the host hears of each new stage,
   * and of a long one every few seconds, so that it knows the call is alive.
   */
  private static final class JobProgress implements Consumer<JsonNode> {
    private static final long QUIET_NANOS = Duration.ofSeconds(5).toNanos();

    private final String id;
    private final Progress progress;
    private String lastStage = "";
    private long lastAt;

    JobProgress(String id, Progress progress) {
      this.id = id;
      this.progress = progress;
    }

    @Override
    public void accept(JsonNode job) {
      String stage = stage(job);
      long now = System.nanoTime();
      if (!stage.equals(lastStage) || now - lastAt > QUIET_NANOS) {
        lastStage = stage;
        lastAt = now;
        progress.report(stage);
      }
    }

    /** {@code verification ver-1: semantic, 2 of 5}. */
    private String stage(JsonNode job) {
      JsonNode p = job.path("progress");
      String stage = p.path("stage").asText(job.path("status").asText());
      return "verification "
          + id
          + ": "
          + stage
          + (p.path("total").asInt() > 0
              ? ", " + p.path("done").asInt() + " of " + p.path("total").asInt()
              : "");
    }
  }
}
