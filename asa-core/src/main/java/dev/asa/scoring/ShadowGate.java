package dev.asa.scoring;

import dev.asa.shadow.Gate;
import java.math.BigDecimal;
import java.util.Objects;

/**
 * What validating a sealed agreement's shadow criteria concluded, as far as the verdict cares: the
 * gate, and the shadow score that the verdict quotes when the gate overrides or warns.
 *
 * <p>The gate is not recomputed from the score: it was decided on the exact fraction of failed
 * sealed tests, and the shown score is rounded (17/113 shows 15.0 yet warns). Both are taken as
 * validation reported them.
 *
 * @param gate what enforcement does with the deliverable
 * @param score the shadow score as reported, a percentage 0 to 100 (one decimal), quoted verbatim
 */
public record ShadowGate(Gate gate, BigDecimal score) {

  private static final BigDecimal HUNDRED = BigDecimal.valueOf(100);

  public ShadowGate {
    Objects.requireNonNull(gate, "gate");
    Objects.requireNonNull(score, "score");
    if (score.signum() < 0 || score.compareTo(HUNDRED) > 0) {
      throw new IllegalArgumentException(
          "a shadow score is the percentage of sealed tests that failed, 0 to 100; got "
              + score.toPlainString()
              + ": pass the score the shadow report states");
    }
  }
}
