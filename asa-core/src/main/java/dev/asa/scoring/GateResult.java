package dev.asa.scoring;

import java.util.Objects;

/**
 * The outcome of one quality gate (section 6.4).
 *
 * @param condition the gate's condition as written in the agreement, e.g. accuracy_gte_80
 * @param passed whether the gate passed
 * @param evidence why, for a person to read
 */
public record GateResult(String condition, boolean passed, String evidence) {
  public GateResult {
    Objects.requireNonNull(condition, "condition");
    Objects.requireNonNull(evidence, "evidence");
  }
}
