package dev.asa.shadow;

import java.math.BigDecimal;
import java.util.Arrays;
import java.util.stream.Collectors;

/**
 * The seed's scale presets (shadow-scoring.md, Scale-Specific Behavior).
 *
 * <p>The criteria count of a preset is a <em>maximum</em>, as the seed's configuration says ({@code
 * sealed_criteria_count: 10 # max; per-scale: SS-50=6, SS-100=8, SS-250=10}): a small task may not
 * have eight meaningful criteria, and padding it with filler would only dilute the score. The
 * preset bounds the sealer's effort and the provider's exposure to hidden demands, not a quota.
 */
public enum Scale {
  SS_50("SS-50", 6, 0),
  SS_100("SS-100", 8, 1),
  SS_250("SS-250", 10, 1);

  /** The hardening threshold of every preset: hardening starts strictly above 15%. */
  public static final BigDecimal HARDENING_THRESHOLD = BigDecimal.valueOf(15);

  private final String wire;
  private final int criteriaCount;
  private final int maxCycles;

  Scale(String wire, int criteriaCount, int maxCycles) {
    this.wire = wire;
    this.criteriaCount = criteriaCount;
    this.maxCycles = maxCycles;
  }

  public String wire() {
    return wire;
  }

  /** The most criteria a seal of this scale may hold. */
  public int criteriaCount() {
    return criteriaCount;
  }

  public boolean hardeningEnabled() {
    return maxCycles > 0;
  }

  /** Fix cycles the provider gets when the score is above the threshold; 0 for SS-50. */
  public int maxCycles() {
    return maxCycles;
  }

  public HardeningPolicy hardening() {
    return new HardeningPolicy(maxCycles, HARDENING_THRESHOLD);
  }

  /** The scale of this wire name ({@code SS-100}), or throws naming the known ones. */
  public static Scale fromWire(String text) {
    for (Scale s : values()) {
      if (s.wire.equals(text)) {
        return s;
      }
    }
    throw new IllegalArgumentException(
        "'" + text + "' is not a scale; expected one of " + allWire());
  }

  static String allWire() {
    return Arrays.stream(values()).map(Scale::wire).collect(Collectors.joining(", "));
  }
}
