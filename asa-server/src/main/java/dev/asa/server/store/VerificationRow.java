package dev.asa.server.store;

import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Objects;

/**
 * The outcome of one verification run.
 *
 * @param agreementId null for a standalone verification (no agreement involved)
 * @param result JSON text
 */
public record VerificationRow(
    String id, String agreementId, String deliverableHash, String result, Instant createdAt) {

  public VerificationRow {
    Objects.requireNonNull(id, "id");
    Objects.requireNonNull(result, "result");
    createdAt = Objects.requireNonNull(createdAt, "createdAt").truncatedTo(ChronoUnit.MILLIS);
  }
}
