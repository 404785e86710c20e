package dev.asa.agreement;

import java.math.BigDecimal;
import java.util.Objects;

/**
 * A named, weighted quality dimension with its objective and, optionally, a shadow metric that
 * watches for the harm displaced when the primary metric is optimised (Goodhart, section 6.5).
 */
public record Dimension(
    String name,
    BigDecimal weight,
    MetricType metric,
    Slo slo,
    String shadowMetric,
    Slo shadowSlo,
    String description) {

  public Dimension {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(weight, "weight");
    Objects.requireNonNull(metric, "metric");
    Objects.requireNonNull(slo, "slo");
  }

  public boolean hasShadow() {
    return shadowMetric != null;
  }
}
