package dev.asa.agreement;

import java.math.BigDecimal;
import java.util.Objects;

/**
 * Per-agreement noise on tier boundaries (whitepaper 8.2, second cliff-optimisation mitigation):
 * every boundary moves by a secret offset in {@code [-maxPoints, +maxPoints]}, so a provider cannot
 * aim just above a cliff it cannot see. Off unless the agreement asks for it.
 *
 * @param maxPoints the largest offset in composite points; above 0, at most {@value #LIMIT}, in
 *     steps of 0.01 because offsets are drawn with that granularity
 */
public record ThresholdNoiseTerms(boolean enabled, BigDecimal maxPoints) {

  /** The whitepaper's +-3 points. */
  public static final BigDecimal DEFAULT_MAX_POINTS = BigDecimal.valueOf(3);

  /** Beyond this the noise would blur the tiers themselves, not just their edges. */
  public static final int LIMIT = 10;

  public static final ThresholdNoiseTerms DISABLED =
      new ThresholdNoiseTerms(false, DEFAULT_MAX_POINTS);

  public ThresholdNoiseTerms {
    Objects.requireNonNull(maxPoints, "maxPoints");
    if (maxPoints.signum() <= 0 || maxPoints.compareTo(BigDecimal.valueOf(LIMIT)) > 0) {
      throw new IllegalArgumentException(
          "threshold_noise max_points must be above 0 and at most "
              + LIMIT
              + ", got "
              + maxPoints.toPlainString());
    }
    if (maxPoints.stripTrailingZeros().scale() > 2) {
      throw new IllegalArgumentException(
          "threshold_noise max_points is in steps of 0.01 (offsets have two decimals), got "
              + maxPoints.toPlainString());
    }
  }

  /** Enabled, with the given bound. */
  public static ThresholdNoiseTerms of(BigDecimal maxPoints) {
    return new ThresholdNoiseTerms(true, maxPoints);
  }

  /** How far a boundary can move up; the same distance it can move down. */
  public BigDecimal reach() {
    return enabled ? maxPoints : BigDecimal.ZERO;
  }
}
