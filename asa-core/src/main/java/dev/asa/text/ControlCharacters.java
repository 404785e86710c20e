package dev.asa.text;

import java.util.OptionalInt;

/**
 * C0 control characters (U+0000 to U+001F) and DEL (U+007F) in names and identifiers. None has a
 * use there, and they do harm: NUL cannot be stored in a PostgreSQL text column (one store would
 * accept what the other fails on), and the others make a name print differently from how it
 * compares (a carriage return can overwrite a log line, a tab can line up a forgery).
 */
public final class ControlCharacters {
  private ControlCharacters() {}

  public static boolean isControl(int codePoint) {
    return codePoint <= 0x1F || codePoint == 0x7F;
  }

  /** The index of the first control character in {@code s}, if any. */
  public static OptionalInt firstIn(String s) {
    for (int i = 0; i < s.length(); i++) {
      if (isControl(s.charAt(i))) { // never part of a surrogate pair, so char by char is exact
        return OptionalInt.of(i);
      }
    }
    return OptionalInt.empty();
  }

  /**
   * Why {@code s} is refused, as a violation message ("holds the control character U+0000 at index
   * 3; ..."), or null when it has no control character.
   */
  public static String problemWith(String s) {
    OptionalInt at = firstIn(s);
    if (at.isEmpty()) {
      return null;
    }
    return String.format(
        "holds the control character U+%04X at index %d; names and identifiers may not contain "
            + "U+0000 to U+001F or U+007F",
        (int) s.charAt(at.getAsInt()), at.getAsInt());
  }

  /**
   * {@code s} with each NUL (U+0000) written as its JSON escape (a backslash, then {@code u0000}),
   * for text from outside that is kept for the record (a webhook's answer, an error message) rather
   * than refused: PostgreSQL cannot store the character. Null stays null.
   */
  public static String escapeNul(String s) {
    return s == null || s.indexOf('\u0000') < 0 ? s : s.replace("\u0000", "\\u0000");
  }
}
