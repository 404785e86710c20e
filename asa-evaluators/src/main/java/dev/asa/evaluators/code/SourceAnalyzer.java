package dev.asa.evaluators.code;

import dev.asa.evaluators.Language;

/**
 * Parses one source file with a real parser and runs the checks on its syntax tree. Each
 * implementation owns a parser: JavaParser for Java, tree-sitter for Python, JavaScript and
 * TypeScript. Thread-safe: a parser is made per file.
 */
sealed interface SourceAnalyzer permits JavaAnalyzer, TreeSitterAnalyzer {

  SourceReport analyze(String path, String source);

  /** The analyzer for a file's language. */
  static SourceAnalyzer of(Language language) {
    return switch (language) {
      case JAVA -> new JavaAnalyzer();
      case PYTHON, JAVASCRIPT, TYPESCRIPT -> new TreeSitterAnalyzer(language);
    };
  }

  /** The parser behind an analyzer, for the evidence. */
  static String parserName(Language language) {
    return switch (language) {
      case JAVA -> "JavaParser";
      case PYTHON -> "tree-sitter-python";
      case JAVASCRIPT -> "tree-sitter-javascript";
      case TYPESCRIPT -> "tree-sitter-typescript";
    };
  }
}
