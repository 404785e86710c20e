package dev.asa.agreement;

import java.math.BigDecimal;
import java.util.Objects;

/**
 * Dynamic tiers (whitepaper 8.2, third cliff-optimisation mitigation): a {@code
 * composite_score_gte} boundary moves up for a provider whose recent scores cluster just above it,
 * so that aiming for the cliff stops paying. Off unless the agreement asks for it.
 *
 * @param window how many of the provider's most recent composite scores are looked at, 3 to 100
 * @param bandPoints width of the band {@code [B, B + bandPoints)} just above a boundary B, above 0
 *     and at most 20
 * @param minShare the share of the looked-at scores in the band that moves the boundary, above 0
 *     and at most 1
 * @param shiftPoints how far a boundary moves up, above 0 and at most 20
 */
public record DynamicTiersTerms(
    boolean enabled,
    int window,
    BigDecimal bandPoints,
    BigDecimal minShare,
    BigDecimal shiftPoints) {

  public static final int DEFAULT_WINDOW = 10;
  public static final BigDecimal DEFAULT_BAND_POINTS = BigDecimal.valueOf(3);
  public static final BigDecimal DEFAULT_MIN_SHARE = new BigDecimal("0.5");
  public static final BigDecimal DEFAULT_SHIFT_POINTS = BigDecimal.valueOf(3);

  /** Fewer scores than this say nothing about a habit, so {@link #window} cannot be smaller. */
  public static final int MIN_WINDOW = 3;

  public static final int MAX_WINDOW = 100;

  /** Upper limit of {@code bandPoints} and {@code shiftPoints}: a fifth of the score scale. */
  public static final int MAX_POINTS = 20;

  public static final DynamicTiersTerms DISABLED =
      new DynamicTiersTerms(
          false, DEFAULT_WINDOW, DEFAULT_BAND_POINTS, DEFAULT_MIN_SHARE, DEFAULT_SHIFT_POINTS);

  public DynamicTiersTerms {
    Objects.requireNonNull(bandPoints, "bandPoints");
    Objects.requireNonNull(minShare, "minShare");
    Objects.requireNonNull(shiftPoints, "shiftPoints");
    if (window < MIN_WINDOW || window > MAX_WINDOW) {
      throw new IllegalArgumentException(
          "dynamic_tiers window must be "
              + MIN_WINDOW
              + " to "
              + MAX_WINDOW
              + " scores, got "
              + window);
    }
    requireIn("band_points", bandPoints, BigDecimal.valueOf(MAX_POINTS));
    requireIn("min_share", minShare, BigDecimal.ONE);
    requireIn("shift_points", shiftPoints, BigDecimal.valueOf(MAX_POINTS));
  }

  /** Enabled, with the whitepaper's defaults. */
  public static DynamicTiersTerms defaults() {
    return new DynamicTiersTerms(
        true, DEFAULT_WINDOW, DEFAULT_BAND_POINTS, DEFAULT_MIN_SHARE, DEFAULT_SHIFT_POINTS);
  }

  /** How far a boundary can move up under these terms. */
  public BigDecimal reach() {
    return enabled ? shiftPoints : BigDecimal.ZERO;
  }

  private static void requireIn(String name, BigDecimal value, BigDecimal max) {
    if (value.signum() <= 0 || value.compareTo(max) > 0) {
      throw new IllegalArgumentException(
          "dynamic_tiers "
              + name
              + " must be above 0 and at most "
              + max.toPlainString()
              + ", got "
              + value.toPlainString());
    }
  }
}
