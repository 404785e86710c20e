package dev.asa.evaluators;

import java.math.BigDecimal;

/** Small wording helpers shared by the checks' evidence. */
final class Text {
  private Text() {}

  /**
   * 12,345: as {@code String.format(Locale.ROOT, "%,d", n)} writes it, by hand because the
   * formatter parsed its pattern anew on every call and was half the structural checks' time.
   */
  static String count(long n) {
    String digits = Long.toString(n);
    int sign = n < 0 ? 1 : 0;
    int length = digits.length() - sign;
    if (length <= 3) {
      return digits;
    }
    StringBuilder out = new StringBuilder(digits.length() + length / 3);
    out.append(digits, 0, sign);
    int firstGroup = length % 3 == 0 ? 3 : length % 3;
    out.append(digits, sign, sign + firstGroup);
    for (int at = sign + firstGroup; at < digits.length(); at += 3) {
      out.append(',').append(digits, at, at + 3);
    }
    return out.toString();
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
