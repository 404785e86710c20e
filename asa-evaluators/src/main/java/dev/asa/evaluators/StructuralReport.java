package dev.asa.evaluators;

import dev.asa.scoring.CheckResult;
import dev.asa.scoring.DimensionInput;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * What the structural evaluator found: the named checks it ran, in the order it ran them, and an
 * input for every dimension of the criteria (scored where it can judge honestly, otherwise marked
 * not evaluated).
 */
public record StructuralReport(
    Map<String, CheckResult> checks, Map<String, DimensionInput> dimensions) {

  public StructuralReport {
    checks = Collections.unmodifiableMap(new LinkedHashMap<>(checks));
    dimensions = Collections.unmodifiableMap(new LinkedHashMap<>(dimensions));
  }

  public boolean allChecksPassed() {
    return checks.values().stream().allMatch(CheckResult::passed);
  }
}
