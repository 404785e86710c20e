package dev.asa.agreement;

import java.util.Locale;

/** How a dimension is measured; decides the value range of its score. */
public enum MetricType {
  /** 0 to 100. */
  PERCENTAGE,
  /** true or false, scored 100 or 0 (NOTES.md). */
  BOOLEAN,
  /** A non-negative count. */
  COUNT,
  /** A non-negative number of seconds. */
  DURATION_SECONDS,
  /** 0 to 100. */
  SCORE;

  public String wireName() {
    return name().toLowerCase(Locale.ROOT);
  }

  public static MetricType fromWire(String name) {
    return Wire.parse(MetricType.class, name, "metric");
  }
}
