package dev.asa.text;

import java.text.Normalizer;
import java.util.Locale;

/**
 * Names compared the way a person reads them. The evaluator-independence rule (and the market
 * median's count of distinct trading pairs) must not be defeated by writing the same name another
 * way: "ACME Labs" and "acme labs", "Acme\u200BLabs" (a zero-width space), "Ａｃｍｅ" (full-width
 * forms), "Acme" spelled with a combining accent (NFD) against the precomposed one, or padded with
 * spaces. {@link #comparable} maps all of those to one form; two names are the same when their
 * comparable forms are equal.
 */
public final class Identities {
  private Identities() {}

  /**
   * The form a name is compared in: every format character (Unicode category Cf: zero-width space,
   * joiners, word joiner, BOM, soft hyphen, bidi controls) removed first, so that none can sit
   * between a letter and its accent and block composition; then NFKC (compatibility forms such as
   * full-width letters and ligatures fold to plain ones, NFD to composed), case folded (lower,
   * upper, then lower case in the root locale, so that 'ß' and 'ẞ' meet "SS"), NFKC again (folding
   * can produce decomposed text), and finally runs of white space collapsed to one space and the
   * ends trimmed.
   */
  public static String comparable(String name) {
    String s = withoutFormatCharacters(name);
    s = Normalizer.normalize(s, Normalizer.Form.NFKC);
    s = s.toLowerCase(Locale.ROOT).toUpperCase(Locale.ROOT).toLowerCase(Locale.ROOT);
    s = Normalizer.normalize(s, Normalizer.Form.NFKC);
    StringBuilder out = new StringBuilder(s.length());
    boolean pendingSpace = false;
    for (int i = 0; i < s.length(); ) {
      int cp = s.codePointAt(i);
      i += Character.charCount(cp);
      if (Character.getType(cp) == Character.FORMAT) {
        continue; // should normalisation ever produce one
      }
      if (Character.isWhitespace(cp) || Character.isSpaceChar(cp)) {
        pendingSpace = out.length() > 0;
        continue;
      }
      if (pendingSpace) {
        out.append(' ');
        pendingSpace = false;
      }
      out.appendCodePoint(cp);
    }
    return out.toString();
  }

  private static String withoutFormatCharacters(String s) {
    StringBuilder out = new StringBuilder(s.length());
    s.codePoints()
        .filter(cp -> Character.getType(cp) != Character.FORMAT)
        .forEach(out::appendCodePoint);
    return out.toString();
  }

  /**
   * Whether two names are the same once both are in {@link #comparable} form; nulls are never the
   * same.
   */
  public static boolean same(String a, String b) {
    return a != null && b != null && comparable(a).equals(comparable(b));
  }
}
