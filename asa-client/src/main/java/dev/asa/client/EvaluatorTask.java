package dev.asa.client;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.time.Instant;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * One task of an evaluator's work queue ({@code GET /evaluator/tasks}): what was asked, what was
 * delivered, and the dimensions to score. Real work and canaries look exactly alike; answer each
 * the same way, with {@link EvaluatorQueue#answer}. The criteria and the request's constraints are
 * in {@link #json()}.
 *
 * @param taskId the task's id
 * @param serviceType e.g. {@code general}
 * @param description what the client asked for
 * @param content the deliverable, when it was delivered inline
 * @param contentUrl where the deliverable is, when it was delivered by reference
 * @param contentHash {@code sha256:...} the deliverable's bytes must hash to, when it was delivered
 *     by reference
 * @param format the deliverable's format, e.g. {@code markdown}, when stated
 * @param dimensions every dimension to score, {@code timeliness} included
 * @param deadline when the answer is due; a late answer is refused
 * @param createdAt when the task was queued
 * @param json the whole task, a copy
 */
public record EvaluatorTask(
    String taskId,
    String serviceType,
    String description,
    Optional<String> content,
    Optional<String> contentUrl,
    Optional<String> contentHash,
    Optional<String> format,
    List<String> dimensions,
    Instant deadline,
    Instant createdAt,
    ObjectNode json) {

  private static final String WHAT = "an evaluator task";

  /** Checks that nothing is null and keeps private copies. */
  public EvaluatorTask {
    Objects.requireNonNull(taskId, "taskId");
    Objects.requireNonNull(serviceType, "serviceType");
    Objects.requireNonNull(description, "description");
    Objects.requireNonNull(content, "content");
    Objects.requireNonNull(contentUrl, "contentUrl");
    Objects.requireNonNull(contentHash, "contentHash");
    Objects.requireNonNull(format, "format");
    dimensions = List.copyOf(dimensions);
    Objects.requireNonNull(deadline, "deadline");
    Objects.requireNonNull(createdAt, "createdAt");
    json = Objects.requireNonNull(json, "json").deepCopy();
  }

  /**
   * Reads one task.
   *
   * @param task one entry of the {@code tasks} of {@code GET /evaluator/tasks}
   * @return the view
   * @throws IllegalArgumentException if a member named above is missing or of the wrong kind; the
   *     message names it
   */
  public static EvaluatorTask from(JsonNode task) {
    ObjectNode o = Members.object(task, WHAT);
    ObjectNode request = Members.child(o, "request", WHAT);
    ObjectNode deliverable = Members.child(o, "deliverable", WHAT);
    return new EvaluatorTask(
        Members.text(o, "task_id", WHAT),
        Members.text(o, "service_type", WHAT),
        Members.text(request, "description", WHAT + "'s request"),
        Members.optionalText(deliverable, "content"),
        Members.optionalText(deliverable, "content_url"),
        Members.optionalText(deliverable, "content_hash"),
        Members.optionalText(deliverable, "format"),
        Members.texts(o, "dimensions", WHAT),
        Members.instant(o, "deadline", WHAT),
        Members.instant(o, "created_at", WHAT),
        o);
  }

  /**
   * Reads a whole queue.
   *
   * @param answer the body of {@code GET /evaluator/tasks}: {@code {"tasks": [...]}}
   * @return its tasks, soonest due first
   * @throws IllegalArgumentException if the answer has no {@code tasks} array or a task lacks a
   *     member
   */
  public static List<EvaluatorTask> listFrom(JsonNode answer) {
    ObjectNode o = Members.object(answer, "an evaluator's queue");
    return Members.requiredObjects(o, "tasks", "an evaluator's queue").stream()
        .map(EvaluatorTask::from)
        .toList();
  }

  /**
   * The whole task, a copy: change it freely.
   *
   * @return the task as received
   */
  @Override
  public ObjectNode json() {
    return json.deepCopy();
  }
}
