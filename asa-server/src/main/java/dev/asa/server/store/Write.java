package dev.asa.server.store;

import java.util.Objects;

/**
 * A side write that rides in the same transaction as an agreement change (or on its own via
 * {@link AgreementStore#apply}). A closed set, so the store can apply each kind with a fixed,
 * prepared statement.
 */
public sealed interface Write
    permits Write.PutDeliverable,
        Write.EraseDeliverableContent,
        Write.PutVerification,
        Write.PutIdempotency,
        Write.LinkToParent,
        Write.SetTimer {

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
}
