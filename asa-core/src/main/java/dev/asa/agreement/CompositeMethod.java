package dev.asa.agreement;

import java.util.Locale;

/** How dimension scores combine into the composite (section 4.1). */
public enum CompositeMethod {
  WEIGHTED_AVERAGE,
  GEOMETRIC_MEAN,
  HARMONIC_MEAN,
  MINIMUM;

  public String wireName() {
    return name().toLowerCase(Locale.ROOT);
  }

  public static CompositeMethod fromWire(String name) {
    return Wire.parse(CompositeMethod.class, name, "composite_method");
  }
}
