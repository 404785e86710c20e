package dev.asa.evaluators;

import dev.asa.scoring.CheckResult;
import dev.asa.scoring.DimensionInput;
import java.math.BigDecimal;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

/**
 * What one evaluator found about one deliverable.
 *
 * @param evaluatorId the backend's {@link Evaluator#id()}
 * @param type the backend's {@link Evaluator#type()}
 * @param model the model that judged, or null for deterministic backends
 * @param dimensions an input for every dimension of the task's criteria, in the criteria's order
 *     (not evaluated, with the reason, where the backend cannot judge)
 * @param checks named yes/no checks it ran (format_valid, all_tests_pass...), in the order run
 * @param usage tokens spent and what they cost
 */
public record Evaluation(
    String evaluatorId,
    String type,
    String model,
    Map<String, DimensionInput> dimensions,
    Map<String, CheckResult> checks,
    Usage usage) {

  public Evaluation {
    Objects.requireNonNull(evaluatorId, "evaluatorId");
    Objects.requireNonNull(type, "type");
    dimensions = Collections.unmodifiableMap(new LinkedHashMap<>(dimensions));
    checks = Collections.unmodifiableMap(new LinkedHashMap<>(checks));
    usage = usage == null ? Usage.FREE : usage;
  }

  /**
   * @param inputTokens tokens sent to a model (0 for none)
   * @param outputTokens tokens a model produced
   * @param costUsd what the evaluation cost, from the backend's price table; zero for local
   *     backends
   */
  public record Usage(long inputTokens, long outputTokens, BigDecimal costUsd) {

    public static final Usage FREE = new Usage(0, 0, BigDecimal.ZERO);

    public Usage {
      Objects.requireNonNull(costUsd, "costUsd");
      if (inputTokens < 0 || outputTokens < 0 || costUsd.signum() < 0) {
        throw new IllegalArgumentException("usage cannot be negative");
      }
    }

    public Usage plus(Usage other) {
      return new Usage(
          inputTokens + other.inputTokens,
          outputTokens + other.outputTokens,
          costUsd.add(other.costUsd));
    }
  }
}
