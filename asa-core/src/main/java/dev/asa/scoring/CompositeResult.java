package dev.asa.scoring;

import dev.asa.agreement.CompositeMethod;
import java.math.BigDecimal;
import java.util.Objects;

/**
 * The composite of a verification result.
 *
 * @param score the composite rounded half-even to 3 decimals: the value that is reported and the
 *     value that is compared with the threshold, so that anyone recomputing from the reported
 *     numbers reaches the same determination
 * @param method how the dimension scores were combined
 * @param threshold the agreement's {@code composite_threshold}
 * @param passed {@code score >= threshold}
 */
public record CompositeResult(
    BigDecimal score, CompositeMethod method, BigDecimal threshold, boolean passed) {

  public CompositeResult {
    Objects.requireNonNull(score, "score");
    Objects.requireNonNull(method, "method");
    Objects.requireNonNull(threshold, "threshold");
  }
}
