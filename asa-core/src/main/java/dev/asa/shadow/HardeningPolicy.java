package dev.asa.shadow;

import java.math.BigDecimal;
import java.util.Objects;

/**
 * When the provider gets a fix cycle: only when the reported score is strictly above {@code
 * threshold} (NOTES.md: reaching it is not exceeding it), and at most {@code maxCycles} times.
 * {@code maxCycles} 0 turns hardening off (SS-50).
 */
public record HardeningPolicy(int maxCycles, BigDecimal threshold) {

  /** Without a scale: one cycle above 15%, the seed's configuration defaults. */
  public static final HardeningPolicy DEFAULT = new HardeningPolicy(1, Scale.HARDENING_THRESHOLD);

  public HardeningPolicy {
    if (maxCycles < 0) {
      throw new IllegalArgumentException("maxCycles must be 0 (off) or more, not " + maxCycles);
    }
    Objects.requireNonNull(threshold, "threshold");
    if (threshold.signum() < 0 || threshold.compareTo(BigDecimal.valueOf(100)) > 0) {
      throw new IllegalArgumentException("threshold must be from 0 to 100, not " + threshold);
    }
  }

  public boolean enabled() {
    return maxCycles > 0;
  }

  /**
   * Whether a score calls for hardening (the cycle count is the caller's, see {@link
   * HardeningCycle}).
   */
  public boolean triggeredBy(ShadowScore score) {
    return enabled() && score.exceeds(threshold);
  }
}
