package dev.asa.evaluators.code.sandbox;

import java.util.Locale;
import java.util.Optional;

/** A language whose tests {@link TestRunner} can run. */
public enum Language {
  PYTHON,
  JAVASCRIPT,
  JAVA;

  /**
   * The language a deliverable's {@code format} names: {@code python}, {@code py}, {@code
   * javascript}, {@code js}, {@code node}, {@code java}, or any of them as {@code code/<lang>}.
   */
  public static Optional<Language> fromFormat(String format) {
    if (format == null) {
      return Optional.empty();
    }
    String f = format.strip().toLowerCase(Locale.ROOT);
    if (f.startsWith("code/")) {
      f = f.substring("code/".length());
    }
    return switch (f) {
      case "python", "py", "python3" -> Optional.of(PYTHON);
      case "javascript", "js", "node", "nodejs", "mjs" -> Optional.of(JAVASCRIPT);
      case "java" -> Optional.of(JAVA);
      default -> Optional.empty();
    };
  }
}
