package dev.asa.server.store.verification;

import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Locale;
import java.util.Objects;

/**
 * A verification the server's engine runs in the background.
 *
 * @param id also the id of the verification result it produces
 * @param requestKey what makes a replayed request find this job (agreement and deliverable digest,
 *     or the caller and the request's digest)
 * @param agreementId null for a standalone verification
 * @param caller the key id of who asked (the only one besides the agreement's parties who may read
 *     it)
 * @param request the verification request as JSON text, without the deliverable's content
 * @param content the deliverable's content, null once the job has finished (or for an agreement's
 *     deliverable, which stays in the deliverables table until verified)
 * @param deadlineAt when the evaluation is given up (evaluator_timeout_seconds after it was queued)
 */
public record JobRow(
    String id,
    String requestKey,
    String agreementId,
    String deliverableHash,
    String caller,
    String request,
    String content,
    Status status,
    String stage,
    int doneSteps,
    int totalSteps,
    String error,
    Instant createdAt,
    Instant updatedAt,
    Instant deadlineAt) {

  public enum Status {
    QUEUED,
    RUNNING,
    COMPLETED,
    FAILED;

    public String wireName() {
      return name().toLowerCase(Locale.ROOT);
    }

    public boolean isFinal() {
      return this == COMPLETED || this == FAILED;
    }

    static Status fromColumn(String value) {
      return valueOf(value.toUpperCase(Locale.ROOT));
    }
  }

  public JobRow {
    Objects.requireNonNull(id, "id");
    Objects.requireNonNull(requestKey, "requestKey");
    Objects.requireNonNull(deliverableHash, "deliverableHash");
    Objects.requireNonNull(caller, "caller");
    Objects.requireNonNull(request, "request");
    Objects.requireNonNull(status, "status");
    createdAt = Objects.requireNonNull(createdAt, "createdAt").truncatedTo(ChronoUnit.MILLIS);
    updatedAt = Objects.requireNonNull(updatedAt, "updatedAt").truncatedTo(ChronoUnit.MILLIS);
    deadlineAt = Objects.requireNonNull(deadlineAt, "deadlineAt").truncatedTo(ChronoUnit.MILLIS);
  }

  /**
   * This job as finishing it leaves it: the outcome, every step done, the content erased. A job
   * that runs while its caller waits is inserted so, in one write, instead of queued and then
   * finished.
   */
  public JobRow finished(Status outcome, String reason, Instant at) {
    if (!outcome.isFinal()) {
      throw new IllegalArgumentException("a job finishes completed or failed, not " + outcome);
    }
    return new JobRow(
        id,
        requestKey,
        agreementId,
        deliverableHash,
        caller,
        request,
        null,
        outcome,
        finalStage(outcome),
        totalSteps,
        totalSteps,
        reason,
        createdAt,
        at,
        deadlineAt);
  }

  /** The stage a finished job shows. */
  static String finalStage(Status outcome) {
    return outcome == Status.COMPLETED ? "done" : "failed";
  }
}
