package dev.asa.evaluators;

import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * A language whose code deliverables the code evaluator reads, with the file names it owns. Here
 * rather than in {@code code}: the structural evaluator's format check knows these names too.
 */
@SuppressWarnings("ImmutableEnumChecker") // the extensions are List.of, immutable
public enum Language {
  JAVA("java", List.of(".java")),
  PYTHON("python", List.of(".py")),
  JAVASCRIPT("javascript", List.of(".js", ".mjs", ".cjs", ".jsx")),
  TYPESCRIPT("typescript", List.of(".ts", ".mts", ".cts"));

  private final String wireName;
  private final List<String> extensions;

  Language(String wireName, List<String> extensions) {
    this.wireName = wireName;
    this.extensions = extensions;
  }

  /** The name a deliverable's {@code format} or {@code code/<lang>} type uses. */
  public String wireName() {
    return wireName;
  }

  /** The usual file extension, for a single-file deliverable that has no name. */
  public String extension() {
    return extensions.getFirst();
  }

  /** The language a name declares: {@code python}, {@code py}, {@code js}, {@code ts}... */
  public static Optional<Language> named(String name) {
    if (name == null) {
      return Optional.empty();
    }
    return switch (name.toLowerCase(Locale.ROOT)) {
      case "java" -> Optional.of(JAVA);
      case "python", "py", "python3" -> Optional.of(PYTHON);
      case "javascript", "js", "node", "nodejs" -> Optional.of(JAVASCRIPT);
      case "typescript", "ts" -> Optional.of(TYPESCRIPT);
      default -> Optional.empty();
    };
  }

  /** The language of a source file by its extension; empty for files that are not source code. */
  public static Optional<Language> ofPath(String path) {
    String lower = path.toLowerCase(Locale.ROOT);
    for (Language l : values()) {
      if (l.extensions.stream().anyMatch(lower::endsWith)) {
        return Optional.of(l);
      }
    }
    return Optional.empty();
  }

  /** The names a caller may declare, for refusals. */
  public static String choices() {
    return "java, python, javascript, typescript";
  }
}
