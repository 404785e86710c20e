package dev.asa.server.store.verification;

import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Objects;

/**
 * A delivered piece of work. The content is kept only until it has been verified (then erased with
 * {@code Write.EraseDeliverableContent}); the hash stays forever as evidence.
 *
 * @param attempt 1, or 2 for a re-delivery
 * @param contentUrl nullable
 * @param format nullable
 * @param content nullable: erased after verification
 */
public record DeliverableRow(
    String agreementId,
    int attempt,
    String contentHash,
    String contentUrl,
    String format,
    String content,
    long sizeBytes,
    Instant deliveredAt) {

  public DeliverableRow {
    Objects.requireNonNull(agreementId, "agreementId");
    Objects.requireNonNull(contentHash, "contentHash");
    deliveredAt = Objects.requireNonNull(deliveredAt, "deliveredAt").truncatedTo(ChronoUnit.MILLIS);
  }
}
