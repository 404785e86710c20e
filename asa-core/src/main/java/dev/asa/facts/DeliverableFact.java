package dev.asa.facts;

import com.fasterxml.jackson.annotation.JsonInclude;
import java.time.Instant;
import java.util.Objects;

/**
 * The latest delivery: its digest (the content itself is erased after verification or at the end).
 *
 * @param format null when neither the delivery nor the terms name one
 * @param contentUrl null for inline content
 * @param hardeningRedelivery the one re-delivery of a Shadow Scoring hardening cycle (stored only
 *     when true)
 */
public record DeliverableFact(
    Instant deliveredAt,
    String contentHash,
    long sizeBytes,
    String format,
    String contentUrl,
    @JsonInclude(JsonInclude.Include.NON_DEFAULT) boolean hardeningRedelivery)
    implements TypedFact {

  public DeliverableFact {
    Objects.requireNonNull(deliveredAt, "deliveredAt");
    Objects.requireNonNull(contentHash, "contentHash");
  }
}
