package dev.asa.evaluators.code;

/**
 * The size and shape of one function or method.
 *
 * @param line where it starts, 1-based
 * @param lines how many lines it spans
 * @param nesting the deepest nesting of blocks (if, loops, try, with, switch) inside it
 * @param complexity McCabe's cyclomatic complexity: 1 + decision points
 */
public record FunctionMetrics(
    String file, String name, int line, int lines, int nesting, int complexity) {

  /** Functions longer than this many lines are flagged. */
  public static final int MAX_LINES = 50;

  /** Nesting deeper than this is flagged. */
  public static final int MAX_NESTING = 4;

  /** Complexity above this is flagged (McCabe's own threshold). */
  public static final int MAX_COMPLEXITY = 10;

  /** The findings this function earns against the thresholds. */
  public java.util.List<Finding> findings() {
    java.util.List<Finding> out = new java.util.ArrayList<>();
    if (lines > MAX_LINES) {
      out.add(
          new Finding(
              Check.LONG_FUNCTION, file, line, name + ": " + lines + " lines > " + MAX_LINES));
    }
    if (nesting > MAX_NESTING) {
      out.add(
          new Finding(
              Check.DEEP_NESTING, file, line, name + ": depth " + nesting + " > " + MAX_NESTING));
    }
    if (complexity > MAX_COMPLEXITY) {
      out.add(
          new Finding(
              Check.COMPLEX_FUNCTION,
              file,
              line,
              name + ": complexity " + complexity + " > " + MAX_COMPLEXITY));
    }
    return out;
  }
}
