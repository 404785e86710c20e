package dev.asa.server.store;

import dev.asa.ledger.Transfer;
import dev.asa.server.store.escrow.OutboxMessage;
import dev.asa.server.store.idempotency.IdempotencyRow;
import dev.asa.server.store.shadow.SealRow;
import dev.asa.server.store.timers.TimerRow;
import dev.asa.server.store.verification.DeliverableRow;
import dev.asa.server.store.verification.JobRow;
import dev.asa.server.store.verification.TaskRow;
import dev.asa.server.store.verification.VerificationRow;
import java.time.Instant;
import java.util.Objects;

/**
 * A side write that rides in the same transaction as an agreement change (or on its own via {@link
 * Writes#apply}). A closed set, so {@link Writes} can hand each kind to the store that owns its
 * table, which applies it with a fixed, prepared statement.
 */
public sealed interface Write
    permits Write.PutDeliverable,
        Write.EraseDeliverableContent,
        Write.PutVerification,
        Write.PutIdempotency,
        Write.LinkToParent,
        Write.SetTimer,
        Write.ClearTimers,
        Write.PostTransfer,
        Write.Enqueue,
        Write.PutAuthorization,
        Write.PutJob,
        Write.FinishJob,
        Write.PutSeal,
        Write.SetSealValidation,
        Write.RevealSeal,
        Write.LogSealRead,
        Write.PutTask,
        Write.EndTask,
        Write.WithdrawTasks,
        Write.PutOutcome,
        Write.RecordCanary,
        Write.RecordCalibration,
        Write.RecordAssessment {

  /**
   * A graded canary in the evaluator's record, committed with the settlement that graded it: a
   * crash can no longer leave a canary settled but missing from the record (which stranded an
   * evaluator whose canaries were used up). Nothing for a key no evaluator holds.
   */
  record RecordCanary(String evaluatorKey, dev.asa.integrity.CanaryCheck check, Instant at)
      implements Write {
    public RecordCanary {
      Objects.requireNonNull(evaluatorKey, "evaluatorKey");
      Objects.requireNonNull(check, "check");
      Objects.requireNonNull(at, "at");
    }
  }

  /**
   * Calibration samples in the evaluator's record, committed with the settlement they came from.
   */
  record RecordCalibration(String evaluatorKey, dev.asa.integrity.Calibration more, Instant at)
      implements Write {
    public RecordCalibration {
      Objects.requireNonNull(evaluatorKey, "evaluatorKey");
      Objects.requireNonNull(more, "more");
      Objects.requireNonNull(at, "at");
    }
  }

  /**
   * One delivery of a provider assessed by these evaluators (a panel, or one), committed with the
   * recorded result: what rotation counts.
   */
  record RecordAssessment(java.util.List<String> evaluatorKeys, String providerKey, Instant at)
      implements Write {
    public RecordAssessment {
      evaluatorKeys = java.util.List.copyOf(evaluatorKeys);
      Objects.requireNonNull(providerKey, "providerKey");
      Objects.requireNonNull(at, "at");
      if (evaluatorKeys.isEmpty()) {
        throw new IllegalArgumentException("an assessment has at least one evaluator");
      }
    }
  }

  /** Records what an ended agreement says about one party, for reputation (once per role). */
  record PutOutcome(dev.asa.reputation.Outcome outcome) implements Write {
    public PutOutcome {
      Objects.requireNonNull(outcome, "outcome");
    }
  }

  /** Puts a new task in an evaluator's work queue. */
  record PutTask(TaskRow row) implements Write {
    public PutTask {
      Objects.requireNonNull(row, "row");
      if (row.status() != TaskRow.Status.OPEN) {
        throw new IllegalArgumentException("a task is put open");
      }
    }
  }

  /**
   * Ends an open or answered task, erasing what it showed and the answer it held; refused
   * (DuplicateKeyException) for a task already ended, so a task ends once.
   */
  record EndTask(String taskId, TaskRow.Status status, String outcome, Instant at)
      implements Write {
    public EndTask {
      Objects.requireNonNull(taskId, "taskId");
      Objects.requireNonNull(at, "at");
      if (!status.isEnd()) {
        throw new IllegalArgumentException("a task ends settled, expired, voided or withdrawn");
      }
    }
  }

  /**
   * Ends, as withdrawn, every task of an agreement that has not ended yet (those of deliveries
   * before {@code beforeDelivery} only, when it is given), erasing what each showed and the answer
   * it held. Tasks that ended already keep how they ended: this runs after the writes that settle
   * the ones that count, and takes whatever they left.
   *
   * @param beforeDelivery the delivery in force, whose tasks stay; null to withdraw them all
   * @param outcome why, for the record and for an evaluator that answers late
   */
  record WithdrawTasks(String agreementId, Integer beforeDelivery, String outcome, Instant at)
      implements Write {
    public WithdrawTasks {
      Objects.requireNonNull(agreementId, "agreementId");
      Objects.requireNonNull(outcome, "outcome");
      Objects.requireNonNull(at, "at");
    }
  }

  /**
   * Inserts a seal; its id, and its agreement when it has one, must be new (one seal per
   * agreement).
   */
  record PutSeal(SealRow row) implements Write {
    public PutSeal {
      Objects.requireNonNull(row, "row");
    }
  }

  /** Replaces the server's validation state of a seal. */
  record SetSealValidation(String sealId, String validation) implements Write {
    public SetSealValidation {
      Objects.requireNonNull(sealId, "sealId");
      Objects.requireNonNull(validation, "validation");
    }
  }

  /** Marks a seal's criteria revealed (once: a later reveal keeps the first time). */
  record RevealSeal(String sealId, Instant at) implements Write {
    public RevealSeal {
      Objects.requireNonNull(sealId, "sealId");
      Objects.requireNonNull(at, "at");
    }
  }

  /** Logs a read of a seal's criteria by a caller through a route. */
  record LogSealRead(String sealId, String caller, String route, Instant at) implements Write {
    public LogSealRead {
      Objects.requireNonNull(sealId, "sealId");
      Objects.requireNonNull(caller, "caller");
      Objects.requireNonNull(route, "route");
      Objects.requireNonNull(at, "at");
    }
  }

  /** Inserts a verification job; its id and request key must be new. */
  record PutJob(JobRow row) implements Write {
    public PutJob {
      Objects.requireNonNull(row, "row");
    }
  }

  /**
   * Marks a queued or running job completed or failed and erases the content it held; refused
   * (DuplicateKeyException) for a job already finished, so a job finishes once.
   */
  record FinishJob(String jobId, JobRow.Status status, String error, Instant at) implements Write {
    public FinishJob {
      Objects.requireNonNull(jobId, "jobId");
      Objects.requireNonNull(at, "at");
      if (!status.isFinal()) {
        throw new IllegalArgumentException("a job finishes as completed or failed, not " + status);
      }
    }
  }

  /** Inserts a deliverable; the (agreement, attempt) pair must be new. */
  record PutDeliverable(DeliverableRow row) implements Write {
    public PutDeliverable {
      Objects.requireNonNull(row, "row");
    }
  }

  /** Sets content to NULL on every attempt of the agreement; hashes and sizes stay. */
  record EraseDeliverableContent(String agreementId) implements Write {
    public EraseDeliverableContent {
      Objects.requireNonNull(agreementId, "agreementId");
    }
  }

  /** Inserts a verification; its id must be new. */
  record PutVerification(VerificationRow row) implements Write {
    public PutVerification {
      Objects.requireNonNull(row, "row");
    }
  }

  /** Inserts an idempotency record; a taken (scope, key) means another request won the race. */
  record PutIdempotency(IdempotencyRow row) implements Write {
    public PutIdempotency {
      Objects.requireNonNull(row, "row");
    }
  }

  /** Records that {@code childId} is sub-contracted from {@code parentId}; both must exist. */
  record LinkToParent(String parentId, String childId) implements Write {
    public LinkToParent {
      Objects.requireNonNull(parentId, "parentId");
      Objects.requireNonNull(childId, "childId");
    }
  }

  /** Sets (or moves, when it exists) a durable timer; it fires once after its due time. */
  record SetTimer(TimerRow row) implements Write {
    public SetTimer {
      Objects.requireNonNull(row, "row");
    }
  }

  /** Removes an agreement's live timers (its dead ones stay): the agreement has ended. */
  record ClearTimers(String agreementId) implements Write {
    public ClearTimers {
      Objects.requireNonNull(agreementId, "agreementId");
    }
  }

  /**
   * Records a ledger transfer (two balanced entries); a second transfer of the same kind for the
   * same agreement is refused.
   */
  record PostTransfer(Transfer transfer) implements Write {
    public PostTransfer {
      Objects.requireNonNull(transfer, "transfer");
    }
  }

  /** Queues a message for the outbox; it is sent after the transaction commits. */
  record Enqueue(OutboxMessage message) implements Write {
    public Enqueue {
      Objects.requireNonNull(message, "message");
    }
  }

  /**
   * Keeps a payment authorization captured at funding (one per agreement), out of the readable
   * document.
   */
  record PutAuthorization(String agreementId, String binding, String body, Instant at)
      implements Write {
    public PutAuthorization {
      Objects.requireNonNull(agreementId, "agreementId");
      Objects.requireNonNull(binding, "binding");
      Objects.requireNonNull(body, "body");
      Objects.requireNonNull(at, "at");
    }
  }
}
