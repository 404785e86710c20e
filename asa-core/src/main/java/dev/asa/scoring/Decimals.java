package dev.asa.scoring;

import java.math.BigDecimal;

/** How numbers are written in results and notes: plain, without trailing zeros (86.1, 100). */
final class Decimals {
  private Decimals() {}

  /**
   * The same value with trailing zeros stripped and never in exponent form: 86.100 becomes 86.1 and
   * 100 stays 100 (a bare {@code stripTrailingZeros} would make it 1E+2).
   */
  static BigDecimal normalized(BigDecimal value) {
    BigDecimal stripped = value.stripTrailingZeros();
    return stripped.scale() < 0 ? stripped.setScale(0) : stripped;
  }

  static String text(BigDecimal value) {
    return normalized(value).toPlainString();
  }
}
