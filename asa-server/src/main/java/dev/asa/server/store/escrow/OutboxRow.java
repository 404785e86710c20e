package dev.asa.server.store.escrow;

import java.time.Instant;
import java.util.Objects;

/** An outbox message with its delivery state, as shown in {@code GET /agreements/{id}/escrow}. */
public record OutboxRow(
    OutboxMessage message,
    Status status,
    int attempts,
    Instant nextAttemptAt,
    String lastError,
    String response,
    Instant deliveredAt) {

  public OutboxRow {
    Objects.requireNonNull(message, "message");
    Objects.requireNonNull(status, "status");
    Objects.requireNonNull(nextAttemptAt, "nextAttemptAt");
  }

  public enum Status {
    PENDING,
    DELIVERED,
    /** The other side said it can never succeed. */
    FAILED,
    /** Retried too many times without an answer; never attempted again (a dead letter). */
    DEAD
  }
}
