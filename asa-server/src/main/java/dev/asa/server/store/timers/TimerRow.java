package dev.asa.server.store.timers;

import java.time.Instant;
import java.util.Objects;

/**
 * A durable timer: when {@code dueAt} passes, the server acts on {@code agreementId} according to
 * {@code kind}. The id is {@code <agreement id>:<kind>}, so setting a timer again moves it (and
 * forgets its failures).
 *
 * @param attempts how many times its action has failed (a retried timer's {@code dueAt} is its next
 *     attempt)
 * @param lastError the last failure, or null
 */
public record TimerRow(
    String id, String agreementId, String kind, Instant dueAt, int attempts, String lastError) {
  public TimerRow {
    Objects.requireNonNull(id, "id");
    Objects.requireNonNull(agreementId, "agreementId");
    Objects.requireNonNull(kind, "kind");
    Objects.requireNonNull(dueAt, "dueAt");
    dueAt = Instant.ofEpochMilli(dueAt.toEpochMilli());
  }

  /** A timer that has not failed yet. */
  public TimerRow(String id, String agreementId, String kind, Instant dueAt) {
    this(id, agreementId, kind, dueAt, 0, null);
  }

  public static TimerRow of(String agreementId, String kind, Instant dueAt) {
    return new TimerRow(agreementId + ":" + kind, agreementId, kind, dueAt);
  }
}
