package dev.asa.server.store;

import java.time.Instant;
import java.util.Objects;

/**
 * A durable timer: when {@code dueAt} passes, the server acts on {@code agreementId} according to
 * {@code kind}. The id is {@code <agreement id>:<kind>}, so setting a timer again moves it.
 */
public record TimerRow(String id, String agreementId, String kind, Instant dueAt) {
  public TimerRow {
    Objects.requireNonNull(id, "id");
    Objects.requireNonNull(agreementId, "agreementId");
    Objects.requireNonNull(kind, "kind");
    Objects.requireNonNull(dueAt, "dueAt");
    dueAt = Instant.ofEpochMilli(dueAt.toEpochMilli());
  }

  public static TimerRow of(String agreementId, String kind, Instant dueAt) {
    return new TimerRow(agreementId + ":" + kind, agreementId, kind, dueAt);
  }
}
