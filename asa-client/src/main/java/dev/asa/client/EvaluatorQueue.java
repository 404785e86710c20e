package dev.asa.client;

import java.time.Instant;
import java.util.List;
import java.util.Objects;

/**
 * An evaluator's work queue with typed answers, acting with the key of the {@link AsaClient} it
 * came from ({@link AsaClient#evaluatorQueue()}): the tasks assigned to that key, and its answers.
 *
 * <pre>{@code
 * EvaluatorQueue queue = AsaClient.connect(server, evaluatorKey).evaluatorQueue();
 * for (EvaluatorTask task : queue.tasks()) {
 *   queue.answer(task.taskId(), scoresFor(task));
 * }
 * }</pre>
 *
 * <p>Every method throws {@link AsaApiException} when the server refuses the request or cannot be
 * reached (status 0), and when its answer is not what the route answers.
 */
public final class EvaluatorQueue {

  private final AsaClient asa;

  EvaluatorQueue(AsaClient asa) {
    this.asa = asa;
  }

  /**
   * The open tasks of this key ({@code GET /evaluator/tasks}), soonest due first, at most 50. A
   * registered evaluator short of the qualification bar finds its next qualification canary here.
   *
   * @return the tasks; empty when there are none
   * @throws AsaApiException 401 when the request is not signed
   */
  public List<EvaluatorTask> tasks() {
    var answer = asa.evaluatorTasks();
    try {
      return EvaluatorTask.listFrom(answer);
    } catch (IllegalArgumentException e) {
      throw AsaApiException.unusable("GET /evaluator/tasks", answer, e);
    }
  }

  /**
   * Answers one task ({@code POST /evaluator/tasks/{task_id}/result}) with a score for every
   * dimension it lists. The answer is only acknowledged: the verdict goes on the agreement once the
   * evaluator's tasks of that delivery are all answered.
   *
   * @param taskId the task's {@link EvaluatorTask#taskId()}
   * @param scores a score for each of the task's {@link EvaluatorTask#dimensions()}
   * @return when the server received the answer
   * @throws AsaApiException 422 naming the pointer of a score that does not fit the task, 404 for a
   *     task not in this key's queue, 409 for a second answer or one after the deadline
   */
  public Instant answer(String taskId, EvaluatorScores scores) {
    var ack = asa.answerTask(taskId, Objects.requireNonNull(scores, "scores").toJson());
    try {
      return TaskReceipt.from(ack).receivedAt();
    } catch (IllegalArgumentException e) {
      throw AsaApiException.unusable("POST /evaluator/tasks/" + taskId + "/result", ack, e);
    }
  }
}
