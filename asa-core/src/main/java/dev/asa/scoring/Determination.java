package dev.asa.scoring;

import java.math.BigDecimal;
import java.util.Objects;

/**
 * The verdict of a verification result (section 5.2).
 *
 * @param result {@value #PASS} or {@value #FAIL}
 * @param paymentReleasePercent the share of the payment to release, 0 to 100 (see {@link Release})
 * @param confidence the weighted mean of the evaluators' stated confidence, 0 to 1, or null when no
 *     evaluator stated one
 * @param notes a readable account of the verdict: failed gates, the composite against the
 *     threshold, every SLO and shadow-metric miss
 */
public record Determination(
    String result, BigDecimal paymentReleasePercent, BigDecimal confidence, String notes) {

  public static final String PASS = "PASS";
  public static final String FAIL = "FAIL";

  public Determination {
    if (!PASS.equals(result) && !FAIL.equals(result)) {
      throw new IllegalArgumentException("result must be PASS or FAIL, got " + result);
    }
    Objects.requireNonNull(paymentReleasePercent, "paymentReleasePercent");
    Objects.requireNonNull(notes, "notes");
  }

  public boolean passed() {
    return PASS.equals(result);
  }
}
