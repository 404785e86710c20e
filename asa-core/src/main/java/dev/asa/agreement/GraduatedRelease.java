package dev.asa.agreement;

import java.util.List;
import java.util.Objects;

/**
 * How much of the payment a composite score releases: by tiers, or continuously
 * ({@code score / 100 * amount}, the cliff-free mode recommended for repeated work).
 */
public record GraduatedRelease(boolean enabled, Mode mode, List<Tier> tiers) {

  public static final GraduatedRelease DISABLED = new GraduatedRelease(false, Mode.TIERS, List.of());

  public GraduatedRelease {
    Objects.requireNonNull(mode, "mode");
    tiers = List.copyOf(tiers);
  }

  public enum Mode {
    TIERS,
    CONTINUOUS;

    public static Mode fromWire(String name) {
      return Wire.parse(Mode.class, name, "graduated_release mode");
    }
  }
}
