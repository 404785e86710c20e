package dev.asa.agreement;

import java.util.List;
import java.util.Objects;

/**
 * How much of the payment a composite score releases: by tiers, or continuously ({@code score / 100
 * * amount}, the cliff-free mode recommended for repeated work).
 *
 * <p>In tiers mode the agreement may also blunt cliff optimisation (whitepaper 8.2) with {@code
 * thresholdNoise} and {@code dynamicTiers}; both are off unless asked for, and {@link #tiers} are
 * always the boundaries as written in the agreement, before either moves them.
 */
public record GraduatedRelease(
    boolean enabled,
    Mode mode,
    List<Tier> tiers,
    ThresholdNoiseTerms thresholdNoise,
    DynamicTiersTerms dynamicTiers) {

  public static final GraduatedRelease DISABLED =
      new GraduatedRelease(false, Mode.TIERS, List.of());

  public GraduatedRelease {
    Objects.requireNonNull(mode, "mode");
    Objects.requireNonNull(thresholdNoise, "thresholdNoise");
    Objects.requireNonNull(dynamicTiers, "dynamicTiers");
    tiers = List.copyOf(tiers);
  }

  /** Without either cliff-optimisation mitigation. */
  public GraduatedRelease(boolean enabled, Mode mode, List<Tier> tiers) {
    this(enabled, mode, tiers, ThresholdNoiseTerms.DISABLED, DynamicTiersTerms.DISABLED);
  }

  public enum Mode {
    TIERS,
    CONTINUOUS;

    public static Mode fromWire(String name) {
      return Wire.parse(Mode.class, name, "graduated_release mode");
    }
  }
}
