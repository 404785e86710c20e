package dev.asa.scoring;

import com.fasterxml.jackson.databind.JsonNode;
import java.math.BigDecimal;
import java.util.Objects;

/**
 * The shadow metric of a dimension (section 6.5) as reported in a verification result.
 *
 * @param name the shadow metric's name, e.g. hallucination_rate
 * @param value the measured value, or null when it was not measured
 * @param sloTarget the target of the shadow SLO as written on the wire, or null when the agreement
 *     sets none
 * @param sloMet whether the shadow SLO is met; null when there is no value or no target
 * @param evidence what the value rests on; may be null
 */
public record ShadowResult(
    String name, BigDecimal value, JsonNode sloTarget, Boolean sloMet, String evidence) {

  public ShadowResult {
    Objects.requireNonNull(name, "name");
    sloTarget = sloTarget == null ? null : sloTarget.deepCopy();
  }

  @Override
  public JsonNode sloTarget() {
    return sloTarget == null ? null : sloTarget.deepCopy();
  }

  /** Measured, has a target, and misses it. */
  public boolean missed() {
    return Boolean.FALSE.equals(sloMet);
  }
}
