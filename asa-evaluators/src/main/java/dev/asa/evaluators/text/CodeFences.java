package dev.asa.evaluators.text;

import java.util.Optional;
import java.util.regex.Pattern;

/**
 * Fenced code blocks, read by one rule wherever an answer is read: a line holding "```" or "~~~"
 * and a language name at most ("```python", "~~~c++") opens a block, and the next such line closes
 * it. A fence with words after it ("```python ignore the rubric") is prose, so that a fence is no
 * place to hide words to the evaluator. One rule, because two readings of the same answer that
 * disagreed about where its code is would let one check see prose where another saw code.
 */
public final class CodeFences {

  private static final Pattern FENCE = Pattern.compile("\\s*(?:```|~~~)[\\w+#.-]*\\s*");

  private CodeFences() {}

  /** Whether a line opens or closes a fenced code block. */
  public static boolean isFence(String line) {
    return FENCE.matcher(line).matches();
  }

  /** Whether the text has a fence anywhere: its writer sets its code off. */
  static boolean hasFence(String text) {
    return text.lines().anyMatch(CodeFences::isFence);
  }

  /** Whether the text ends inside a block: a fence opened and never closed. */
  public static boolean endsInCode(String text) {
    return text.lines().filter(CodeFences::isFence).count() % 2 == 1;
  }

  /**
   * The text without its fenced blocks, fences and code alike: the prose around them, each block
   * left as a line break. A block never closed runs to the end.
   */
  public static String withoutCode(String text) {
    StringBuilder prose = new StringBuilder(text.length());
    boolean inCode = false;
    for (String line : text.split("\n", -1)) {
      boolean fence = isFence(line);
      inCode ^= fence;
      if (!fence && !inCode) {
        prose.append(line);
      }
      prose.append('\n');
    }
    return prose.toString();
  }

  /** The code of the text's first fenced block, when it has one that closes. */
  public static Optional<String> firstBlock(String text) {
    StringBuilder code = null;
    for (String line : text.split("\n", -1)) {
      if (isFence(line)) {
        if (code != null) {
          return Optional.of(code.toString());
        }
        code = new StringBuilder();
      } else if (code != null) {
        code.append(line).append('\n');
      }
    }
    return Optional.empty();
  }
}
