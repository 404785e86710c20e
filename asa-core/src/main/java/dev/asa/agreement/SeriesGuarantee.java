package dev.asa.agreement;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.asa.json.Json;
import java.math.BigDecimal;
import java.util.Objects;

/**
 * A probabilistic guarantee ({@code guarantee_type: probabilistic}, design principle 3.4): a
 * promise about a series of deliveries rather than each one.
 *
 * <ul>
 *   <li>{@code {"metric": "pass@k", "k": 5, "threshold": 95}}: the chance that at least one of
 *       {@code k} deliveries passes is at least {@code threshold} percent, estimated from the
 *       series with the unbiased estimator {@code 1 - C(n-c, k) / C(n, k)} (n deliveries, c
 *       passed);
 *   <li>{@code {"metric": "percentile", "dimension": "accuracy", "percentile": 90, "threshold":
 *       85}}: "p90 accuracy >= 85", i.e. at least 90% of the deliveries score 85 or more on
 *       accuracy (the score at the 10th percentile, nearest rank, is at least the threshold).
 * </ul>
 *
 * <p>{@code window} (default 20, at most 1000) bounds the series to the newest deliveries; {@code
 * min_deliveries} (default {@code k}, or 5) is how many it takes before the guarantee is judged at
 * all: until then it is reported as not yet evaluable, never as met.
 */
public sealed interface SeriesGuarantee {

  int DEFAULT_WINDOW = 20;
  int MAX_WINDOW = 1000;

  int window();

  int minDeliveries();

  JsonNode toJson();

  record PassAtK(int k, BigDecimal threshold, int window, int minDeliveries)
      implements SeriesGuarantee {
    public PassAtK {
      if (k < 1 || window < k || minDeliveries < k) {
        throw new IllegalArgumentException(
            "pass@k needs k >= 1 and a window and min_deliveries of at least k");
      }
      Objects.requireNonNull(threshold, "threshold");
    }

    @Override
    public JsonNode toJson() {
      return Json.object()
          .put("metric", "pass@k")
          .put("k", k)
          .put("threshold", threshold)
          .put("window", window)
          .put("min_deliveries", minDeliveries);
    }
  }

  record Percentile(
      String dimension, int percentile, BigDecimal threshold, int window, int minDeliveries)
      implements SeriesGuarantee {
    public Percentile {
      Objects.requireNonNull(dimension, "dimension");
      Objects.requireNonNull(threshold, "threshold");
      if (percentile < 1 || percentile > 99 || minDeliveries < 1) {
        throw new IllegalArgumentException(
            "percentile must be 1..99 and min_deliveries at least 1");
      }
    }

    @Override
    public JsonNode toJson() {
      return Json.object()
          .put("metric", "percentile")
          .put("dimension", dimension)
          .put("percentile", percentile)
          .put("threshold", threshold)
          .put("window", window)
          .put("min_deliveries", minDeliveries);
    }
  }

  /**
   * Reads {@code quality_criteria.guarantee}; problems are recorded under {@code pointer}, then
   * null is returned.
   */
  static SeriesGuarantee read(JsonNode node, String pointer, Violations violations) {
    if (!(node instanceof ObjectNode o)) {
      violations.add(
          pointer,
          "a probabilistic guarantee needs {\"metric\": \"pass@k\", \"k\", \"threshold\"} or"
              + " {\"metric\": \"percentile\", \"dimension\", \"percentile\", \"threshold\"}");
      return null;
    }
    for (String field : (Iterable<String>) o::fieldNames) {
      if (!java.util.Set.of(
              "metric", "k", "dimension", "percentile", "threshold", "window", "min_deliveries")
          .contains(field)) {
        violations.add(pointer + "/" + field, "is not a member of a guarantee");
        return null;
      }
    }
    String metric = o.path("metric").asText("");
    BigDecimal threshold =
        o.path("threshold").isNumber() ? o.path("threshold").decimalValue() : null;
    if (threshold == null
        || threshold.signum() < 0
        || threshold.compareTo(BigDecimal.valueOf(100)) > 0) {
      violations.add(pointer + "/threshold", "required: a percentage from 0 to 100");
      return null;
    }
    Integer window = intIn(o, "window", DEFAULT_WINDOW, 1, MAX_WINDOW, pointer, violations);
    if (window == null) {
      return null;
    }
    switch (metric) {
      case "pass@k" -> {
        Integer k = intIn(o, "k", null, 1, 100, pointer, violations);
        if (k == null) {
          return null;
        }
        Integer min = intIn(o, "min_deliveries", k, k, MAX_WINDOW, pointer, violations);
        if (min == null) {
          return null;
        }
        if (window < Math.max(k, min)) {
          violations.add(
              pointer + "/window",
              "must be at least k and min_deliveries (" + Math.max(k, min) + ")");
          return null;
        }
        return new PassAtK(k, threshold, window, min);
      }
      case "percentile" -> {
        String dimension = o.path("dimension").asText("");
        if (dimension.isEmpty()) {
          violations.add(
              pointer + "/dimension", "required: the dimension whose percentile is guaranteed");
          return null;
        }
        Integer p = intIn(o, "percentile", null, 1, 99, pointer, violations);
        Integer min = intIn(o, "min_deliveries", 5, 1, MAX_WINDOW, pointer, violations);
        if (p == null || min == null) {
          return null;
        }
        if (window < min) {
          violations.add(pointer + "/window", "must be at least min_deliveries (" + min + ")");
          return null;
        }
        return new Percentile(dimension, p, threshold, window, min);
      }
      default -> {
        violations.add(pointer + "/metric", "must be \"pass@k\" or \"percentile\"");
        return null;
      }
    }
  }

  private static Integer intIn(
      ObjectNode o,
      String field,
      Integer absent,
      int min,
      int max,
      String pointer,
      Violations violations) {
    JsonNode v = o.get(field);
    if (v == null) {
      if (absent == null) {
        violations.add(
            pointer + "/" + field, "required: a whole number from " + min + " to " + max);
      }
      return absent;
    }
    if (!v.isIntegralNumber() || !v.canConvertToInt() || v.intValue() < min || v.intValue() > max) {
      violations.add(pointer + "/" + field, "must be a whole number from " + min + " to " + max);
      return null;
    }
    return v.intValue();
  }
}
