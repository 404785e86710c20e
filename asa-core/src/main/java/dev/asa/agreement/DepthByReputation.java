package dev.asa.agreement;

import java.math.BigDecimal;
import java.util.Objects;
import java.util.Optional;

/**
 * {@code verification.depth_by_reputation}: verification depth that scales with the provider's
 * reputation (whitepaper 3.5: "high-reputation providers may receive lightweight structural
 * verification; unknown providers receive full semantic evaluation"). The rule reads one figure of
 * the provider's reputation as this server combines it (its own aggregates and those of issuers it
 * trusts, weighted by sample size):
 *
 * <pre>{@code
 * "depth_by_reputation": {
 *   "signal": "asa:verification_pass_rate", "at_least": 95, "min_sample": 20,
 *   "then": "structural", "otherwise": "semantic"
 * }
 * }</pre>
 *
 * gives {@code then} when the figure is at least {@code at_least} over at least {@code min_sample}
 * observations, and {@code otherwise} in every other case, a provider with no record included. The
 * values are on ARP's scale (a rate of 95% is 95).
 *
 * @param then the depth a provider whose figure clears the bar gets
 * @param otherwise the depth everyone else gets
 */
public record DepthByReputation(
    String signal, BigDecimal atLeast, long minSample, String then, String otherwise) {

  public DepthByReputation {
    Objects.requireNonNull(signal, "signal");
    Objects.requireNonNull(atLeast, "atLeast");
    Objects.requireNonNull(then, "then");
    Objects.requireNonNull(otherwise, "otherwise");
    if (minSample < 1) {
      throw new IllegalArgumentException("min_sample is at least 1");
    }
    if (then.equals(otherwise)) {
      throw new IllegalArgumentException("then and otherwise name the same depth: no rule at all");
    }
  }

  /** The depth chosen, and why, in words for the result's evidence. */
  public record Choice(String depth, boolean cleared, String because) {}

  /**
   * @param value the provider's combined figure, if any source has it
   * @param sample how many observations it rests on (0 without a figure)
   */
  public Choice choose(Optional<BigDecimal> value, long sample) {
    if (value.isEmpty()) {
      return new Choice(otherwise, false, "the provider has no " + signal + " here");
    }
    if (sample < minSample) {
      return new Choice(
          otherwise,
          false,
          signal
              + " rests on "
              + sample
              + " observation(s), fewer than the "
              + minSample
              + " required");
    }
    boolean cleared = value.get().compareTo(atLeast) >= 0;
    return new Choice(
        cleared ? then : otherwise,
        cleared,
        signal
            + " is "
            + value.get().stripTrailingZeros().toPlainString()
            + " over "
            + sample
            + (cleared ? ", at least " : ", below ")
            + atLeast.stripTrailingZeros().toPlainString());
  }
}
