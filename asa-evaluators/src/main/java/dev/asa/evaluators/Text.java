package dev.asa.evaluators;

import java.math.BigDecimal;
import java.util.Locale;

/** Small wording helpers shared by the checks' evidence. */
final class Text {
  private Text() {}

  /** 12,345 */
  static String count(long n) {
    return String.format(Locale.ROOT, "%,d", n);
  }

  /** "1 field", "3 fields" */
  static String plural(long n, String singular, String plural) {
    return count(n) + " " + (n == 1 ? singular : plural);
  }

  /** 86.1, 100: plain and without trailing zeros. */
  static String number(BigDecimal value) {
    BigDecimal stripped = value.stripTrailingZeros();
    return (stripped.scale() < 0 ? stripped.setScale(0) : stripped).toPlainString();
  }

  /** Characters as a reader counts them: code points, so an emoji is one, not two. */
  static long characters(String s) {
    return s.codePointCount(0, s.length());
  }
}
