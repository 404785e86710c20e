package dev.asa.evaluators.judge;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.Objects;

/**
 * What a model charges, in US dollars per million tokens.
 *
 * @param inputPerMillion per million prompt tokens
 * @param outputPerMillion per million completion tokens
 */
public record Price(BigDecimal inputPerMillion, BigDecimal outputPerMillion) {

  /** A local model (Ollama, vLLM, llama.cpp): nothing is billed. Must be configured explicitly. */
  public static final Price FREE = new Price(BigDecimal.ZERO, BigDecimal.ZERO);

  private static final BigDecimal MILLION = BigDecimal.valueOf(1_000_000);

  public Price {
    Objects.requireNonNull(inputPerMillion, "inputPerMillion");
    Objects.requireNonNull(outputPerMillion, "outputPerMillion");
    if (inputPerMillion.signum() < 0 || outputPerMillion.signum() < 0) {
      throw new IllegalArgumentException("a price cannot be negative");
    }
  }

  public static Price of(String inputPerMillion, String outputPerMillion) {
    return new Price(new BigDecimal(inputPerMillion), new BigDecimal(outputPerMillion));
  }

  /**
   * The cost of these token counts, to a millionth of a dollar (rounded up: never under-report).
   */
  public BigDecimal cost(long inputTokens, long outputTokens) {
    BigDecimal total =
        inputPerMillion
            .multiply(BigDecimal.valueOf(inputTokens))
            .add(outputPerMillion.multiply(BigDecimal.valueOf(outputTokens)));
    return total.divide(MILLION, 6, RoundingMode.CEILING).stripTrailingZeros();
  }
}
