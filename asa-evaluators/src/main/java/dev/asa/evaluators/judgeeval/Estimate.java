package dev.asa.evaluators.judgeeval;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.asa.json.Json;
import java.math.BigDecimal;
import java.math.RoundingMode;

/**
 * A figure and its bootstrap interval.
 *
 * @param value NaN when undefined (a correlation of a constant series)
 * @param ci null when the bootstrap could not give one
 */
public record Estimate(double value, Interval ci) {

  /** {@code {"value": v, "ci": [lower, upper]}}, rounded to 4 decimals; null for undefined. */
  public ObjectNode toJson() {
    ObjectNode o = Json.object();
    put(o, "value", value);
    if (ci == null) {
      o.putNull("ci");
    } else {
      o.putArray("ci").add(round(ci.lower())).add(round(ci.upper()));
    }
    return o;
  }

  static void put(ObjectNode o, String name, double v) {
    if (Double.isNaN(v)) {
      o.putNull(name);
    } else {
      o.put(name, round(v));
    }
  }

  static BigDecimal round(double v) {
    return BigDecimal.valueOf(v).setScale(4, RoundingMode.HALF_EVEN).stripTrailingZeros();
  }
}
