package dev.asa.server.store.agreements;

import dev.asa.lifecycle.State;
import java.math.BigDecimal;
import java.time.Instant;

/**
 * What a listing or a count of agreements narrows to. Each member narrows when it is set and not at
 * all when it is null; the bounds are exclusive for instants ({@code createdAfter < created_at <
 * createdBefore}) and inclusive for amounts ({@code minAmount <= amount <= maxAmount}, compared as
 * numbers). An agreement without payment terms has no amount and no currency, so an amount or
 * currency bound leaves it out.
 */
public record AgreementFilter(
    State state,
    String serviceType,
    Instant createdAfter,
    Instant createdBefore,
    BigDecimal minAmount,
    BigDecimal maxAmount,
    String currency) {

  /** Narrows nothing. */
  public static final AgreementFilter NONE =
      new AgreementFilter(null, null, null, null, null, null, null);

  /** The same filter for every state (counts by state ignore the state). */
  public AgreementFilter anyState() {
    return new AgreementFilter(
        null, serviceType, createdAfter, createdBefore, minAmount, maxAmount, currency);
  }
}
