package dev.asa.scoring;

import com.fasterxml.jackson.databind.JsonNode;
import java.math.BigDecimal;
import java.util.Objects;

/**
 * One dimension of a verification result (section 5.2).
 *
 * @param name the dimension name
 * @param score the score; null only for a dimension of weight 0 that was not evaluated
 * @param sloTarget the SLO target as written on the wire: {@code 85}, {@code true} or {@code [10,
 *     20]}
 * @param sloMet whether the score meets the SLO; false when there is no score
 * @param evidence what the score rests on (or why there is none)
 * @param shadow the shadow metric, or null when the dimension has none
 */
public record DimensionResult(
    String name,
    BigDecimal score,
    JsonNode sloTarget,
    boolean sloMet,
    String evidence,
    ShadowResult shadow) {

  public DimensionResult {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(sloTarget, "sloTarget");
    sloTarget = sloTarget.deepCopy();
  }

  @Override
  public JsonNode sloTarget() {
    return sloTarget.deepCopy();
  }
}
