package dev.asa.evaluators.text;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.regex.Pattern;

/**
 * Code pasted without its fence, read as the code block its reader sees. Auto-J's answers to
 * "rewrite the following code" often give the class back unfenced, and its lines were read as
 * sentences of prose: the ones the request also holds as restatements (27 of them taken out of one
 * answer), the rest as a string of fragments ("{ { @" "; } { } }") far from the request. Fenced,
 * they are read as every fenced block is ({@link CodeFences}): one passage, its code lines never
 * restatements, a line of plain words in it still prose, so a fence found here hides no more than
 * one the writer typed.
 *
 * <p>Read conservatively: only in a text with no fence of its own (its writer knows fences), never
 * in a text that is itself structured data (JSON opens with a brace or a bracket), and only a run
 * of {@value #MIN_LINES} code lines or more, blank lines allowed between them, of which at least
 * {@value #MIN_STRUCTURE} are code by their structure (a keyword that opens a statement, a line of
 * brackets alone, a short line ending in a semicolon or a brace). Assignments and calls count
 * inside a run but never make one: worked arithmetic ("Area = 9 cm x 3 cm = 27 square cm") is not
 * code, and stays where the arithmetic check and the reader expect it.
 */
public final class UnfencedCode {

  /** Code lines a run needs before it is read as a block. */
  static final int MIN_LINES = 3;

  /** Lines of a run that must be code by their structure, not assignments or calls. */
  static final int MIN_STRUCTURE = 2;

  /** Words a line of code has at most; prose lines run longer. */
  private static final int MAX_WORDS = 10;

  /** A keyword that opens a statement or declaration, in the common languages and SQL. */
  private static final Pattern KEYWORD =
      Pattern.compile(
          "^\\s*(?:def |class |import |from [\\w.]+ import |return\\b|public |private |protected "
              + "|static |void |var |let |const |function\\b|#include\\b|using [\\w.]+;|namespace "
              + "|package [\\w.]+;|try\\s*[:{]|catch\\s*\\(|}\\s*else\\b|elif |for\\s*\\(|while\\s*\\("
              + "|if\\s*\\(|SELECT\\b|FROM\\b|WHERE\\b|JOIN\\b|UNION\\b|INSERT\\b|UPDATE\\b|DECLARE\\b"
              + "|GROUP BY\\b|ORDER BY\\b)");

  /** A line of brackets and separators alone: "}", "});", "]". */
  private static final Pattern BRACKETS = Pattern.compile("^\\s*[{}()\\[\\];,]+\\s*$");

  /** A line ending as a statement or block does. */
  private static final Pattern STATEMENT_END = Pattern.compile("[;{}]\\s*$");

  /** A sign of code in a line: an assignment, a call, brackets. */
  private static final Pattern CODE_CHARACTER = Pattern.compile("[=(){}\\[\\]]");

  /** An assignment or a call at the start of a line: "total += num", "plt.show()". */
  private static final Pattern ASSIGNMENT_OR_CALL =
      Pattern.compile("^\\s*[\\w.\\[\\]]+\\s*(?:[-+*/%]?=(?!=)|\\()");

  /** A comment line: "# load the file", "// set up", "-- the totals". */
  private static final Pattern COMMENT = Pattern.compile("^\\s*(?:#|//|--)\\s");

  private UnfencedCode() {}

  /** The text with each run of unfenced code set between fences; the text itself when none. */
  static String fenced(String text) {
    String trimmed = text.strip();
    if (trimmed.startsWith("{") || trimmed.startsWith("[") || CodeFences.hasFence(text)) {
      return text;
    }
    String[] lines = text.split("\n", -1);
    // A view of the lines, not a copy: a copy for each run took time in the square of their count.
    List<String> all = Arrays.asList(lines);
    List<String> out = new ArrayList<>(lines.length + 4);
    boolean changed = false;
    int i = 0;
    while (i < lines.length) {
      Run run = runFrom(lines, i);
      if (run.isCode()) {
        out.add("```");
        out.addAll(all.subList(i, run.end()));
        out.add("```");
        changed = true;
      } else {
        out.addAll(all.subList(i, run.end()));
      }
      i = run.end();
    }
    return changed ? String.join("\n", out) : text;
  }

  /**
   * The lines from {@code from} that read as one run of code, to where it ends (exclusive, its
   * trailing blank lines left out), and whether they are enough to be a block. A run that is not
   * code is passed over whole: each of its later lines would start a run of fewer lines, not code
   * either, and reading them again one by one took time in the square of a hostile text's lines.
   */
  private static Run runFrom(String[] lines, int from) {
    if (!structural(lines[from]) && !ASSIGNMENT_OR_CALL.matcher(lines[from]).find()) {
      return new Run(from + 1, false);
    }
    int code = 0;
    int structure = 0;
    int end = from + 1;
    for (int k = from; k < lines.length; k++) {
      String line = lines[k];
      if (line.isBlank()) {
        continue;
      }
      boolean structural = structural(line);
      boolean inside =
          structural
              || (isShort(line)
                  && (ASSIGNMENT_OR_CALL.matcher(line).find()
                      || COMMENT.matcher(line).find()
                      || (Character.isWhitespace(line.charAt(0)) && code > 0)));
      if (!inside) {
        break;
      }
      code++;
      structure += structural ? 1 : 0;
      end = k + 1;
    }
    return new Run(end, code >= MIN_LINES && structure >= MIN_STRUCTURE);
  }

  /** Where a run read from a line ends (exclusive), and whether it is a block of code. */
  private record Run(int end, boolean isCode) {}

  private static boolean structural(String line) {
    return KEYWORD.matcher(line).find()
        || BRACKETS.matcher(line).matches()
        || (isShort(line)
            && STATEMENT_END.matcher(line).find()
            && CODE_CHARACTER.matcher(line).find());
  }

  private static boolean isShort(String line) {
    return line.strip().split("\\s+").length <= MAX_WORDS;
  }
}
