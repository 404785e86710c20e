package dev.asa.scoring;

import java.math.BigDecimal;
import java.util.Objects;

/**
 * What one evaluator says about one dimension: its score with the evidence for it, optionally the
 * value of the dimension's shadow metric, and how sure the evaluator is.
 *
 * @param name the dimension name, as in the agreement's quality criteria
 * @param score the score, or null when the dimension was not evaluated (then {@code evidence} says
 *     why); its allowed range depends on the dimension's metric and is checked by {@link Scorer}
 * @param evidence what the score rests on, for a person to read
 * @param shadowValue the measured value of the shadow metric, or null when it was not measured
 * @param shadowEvidence what the shadow value rests on; may be null
 * @param confidence how sure the evaluator is, 0 to 1, or null when it does not say
 * @param source who produced the input, e.g. {@value #STRUCTURAL} or "evaluator"; may be null.
 *     Deterministic {@value #STRUCTURAL} inputs have confidence 1 when they state none.
 */
public record DimensionInput(
    String name,
    BigDecimal score,
    String evidence,
    BigDecimal shadowValue,
    String shadowEvidence,
    BigDecimal confidence,
    String source) {

  /** The source of inputs computed by deterministic structural checks. */
  public static final String STRUCTURAL = "structural";

  public DimensionInput {
    Objects.requireNonNull(name, "name");
    if (STRUCTURAL.equals(source) && confidence == null) {
      confidence = BigDecimal.ONE; // a deterministic check cannot be unsure of itself
    }
    if (confidence != null
        && (confidence.signum() < 0 || confidence.compareTo(BigDecimal.ONE) > 0)) {
      throw new IllegalArgumentException(
          "confidence of dimension '"
              + name
              + "' must be between 0 and 1, got "
              + confidence.toPlainString());
    }
  }

  /** A score with its evidence; confidence and source unknown. */
  public static DimensionInput scored(String name, BigDecimal score, String evidence) {
    return scored(name, score, evidence, null, null);
  }

  /** A score with its evidence, the evaluator's confidence (0..1, or null) and the source. */
  public static DimensionInput scored(
      String name, BigDecimal score, String evidence, BigDecimal confidence, String source) {
    Objects.requireNonNull(score, "score");
    return new DimensionInput(name, score, evidence, null, null, confidence, source);
  }

  /** A score from a deterministic structural check, hence with confidence 1. */
  public static DimensionInput structural(String name, BigDecimal score, String evidence) {
    return scored(name, score, evidence, BigDecimal.ONE, STRUCTURAL);
  }

  /** A dimension that was not evaluated, and why. Scoring refuses to go on if it carries weight. */
  public static DimensionInput notEvaluated(String name, String why) {
    return new DimensionInput(name, null, why, null, null, null, null);
  }

  /** This input with the measured value of the dimension's shadow metric. */
  public DimensionInput withShadow(BigDecimal value, String valueEvidence) {
    return new DimensionInput(name, score, evidence, value, valueEvidence, confidence, source);
  }

  public boolean isEvaluated() {
    return score != null;
  }
}
