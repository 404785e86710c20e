package dev.asa.client;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.time.Instant;
import java.util.Objects;

/**
 * The server's acknowledgement of an answered task ({@code POST /evaluator/tasks/{task_id}/result},
 * 202). It acknowledges only: the verdict goes on the agreement once every task of the delivery is
 * answered.
 *
 * @param taskId the task answered
 * @param status {@code received}
 * @param receivedAt when the server received the answer
 * @param json the whole answer, a copy
 */
public record TaskReceipt(String taskId, String status, Instant receivedAt, ObjectNode json) {

  private static final String WHAT = "a task's acknowledgement";

  /** Checks that nothing is null and keeps a private copy of the JSON. */
  public TaskReceipt {
    Objects.requireNonNull(taskId, "taskId");
    Objects.requireNonNull(status, "status");
    Objects.requireNonNull(receivedAt, "receivedAt");
    json = Objects.requireNonNull(json, "json").deepCopy();
  }

  /**
   * Reads an acknowledgement.
   *
   * @param answer the body of {@code POST /evaluator/tasks/{task_id}/result}
   * @return the view
   * @throws IllegalArgumentException if a member named above is missing or of the wrong kind; the
   *     message names it
   */
  public static TaskReceipt from(JsonNode answer) {
    ObjectNode o = Members.object(answer, WHAT);
    return new TaskReceipt(
        Members.text(o, "task_id", WHAT),
        Members.text(o, "status", WHAT),
        Members.instant(o, "received_at", WHAT),
        o);
  }

  /**
   * The whole answer, a copy: change it freely.
   *
   * @return the answer as received
   */
  @Override
  public ObjectNode json() {
    return json.deepCopy();
  }
}
