package dev.asa.negotiation;

import java.math.BigDecimal;

/**
 * The per-server knobs of the negotiation rules (whitepaper section 7.3), with its defaults in
 * {@link #DEFAULTS}.
 *
 * @param maxRounds most messages in one negotiation; the message that would exceed it ends the
 *     negotiation with the agreement REJECTED
 * @param maxShift largest relative move of a numeric term in one round (0.25 = 25% of its current
 *     value)
 * @param priceBandLow price below {@code priceBandLow x median} is flagged
 * @param priceBandHigh price above {@code priceBandHigh x median} is flagged
 * @param timeoutSeconds a negotiation with no message for this long is stalled (REJECTED)
 * @param minClosedForMedian closed agreements of a service type needed before their median counts
 */
public record NegotiationPolicy(
    int maxRounds,
    BigDecimal maxShift,
    BigDecimal priceBandLow,
    BigDecimal priceBandHigh,
    long timeoutSeconds,
    int minClosedForMedian) {

  public static final NegotiationPolicy DEFAULTS =
      new NegotiationPolicy(
          5, new BigDecimal("0.25"), new BigDecimal("0.5"), new BigDecimal("3.0"), 3600, 5);

  public NegotiationPolicy {
    if (maxRounds < 1) {
      throw new IllegalArgumentException("maxRounds must be at least 1");
    }
    if (maxShift == null || maxShift.signum() < 0) {
      throw new IllegalArgumentException("maxShift must be >= 0");
    }
    if (priceBandLow == null
        || priceBandHigh == null
        || priceBandLow.signum() < 0
        || priceBandLow.compareTo(priceBandHigh) > 0) {
      throw new IllegalArgumentException("need 0 <= priceBandLow <= priceBandHigh");
    }
    if (timeoutSeconds < 1) {
      throw new IllegalArgumentException("timeoutSeconds must be at least 1");
    }
    if (minClosedForMedian < 1) {
      throw new IllegalArgumentException("minClosedForMedian must be at least 1");
    }
  }
}
