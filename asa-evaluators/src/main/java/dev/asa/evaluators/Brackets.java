package dev.asa.evaluators;

import dev.asa.scoring.CheckResult;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import java.util.Optional;

/**
 * Whether the brackets, braces and parentheses of source code balance outside string literals.
 *
 * <p>The check does not know the language, so it reads the code several ways: with C-style comments
 * ({@code //} and {@code /* *}{@code /}), with {@code #} comments, or with none; and with ' opening
 * character literals or not (Rust lifetimes, Lisp quotes). The code passes if any reading balances:
 * a Python floor division {@code a // b} is not a comment, a C comment "1) first" is not code,
 * {@code &'a str} is not a literal, and none of them should fail sound code. This leans towards
 * passing; a false failure would cost an honest provider money. When no reading balances, the
 * problem reported is the one found with C-style comments and ' literals.
 *
 * <p>String literals are "...", '...' and `...`, with backslash escapes, and Python's triple-quoted
 * strings. A " or ' literal must close on its line; a quote that does not is taken for an
 * apostrophe ("don't"), not the start of a literal.
 *
 * <p>The scan is linear in the length of the code, whatever the code: it comes from the provider.
 */
final class Brackets {
  private Brackets() {}

  enum Comments {
    C_STYLE("// and /* */ as comments"),
    HASH("# as comments"),
    NONE("no comments");

    final String description;

    Comments(String description) {
      this.description = description;
    }
  }

  static CheckResult check(String code) {
    String firstProblem = null;
    for (Comments comments : Comments.values()) {
      for (boolean singleQuoteLiterals : new boolean[] {true, false}) {
        Optional<String> problem = new Reading(code, comments, singleQuoteLiterals).firstProblem();
        if (problem.isEmpty()) {
          return CheckResult.passed(
              "brackets, braces and parentheses balance outside string literals (reading "
                  + comments.description
                  + (singleQuoteLiterals ? "" : ", and ' as no quote")
                  + ")");
        }
        if (firstProblem == null) {
          firstProblem = problem.get();
        }
      }
    }
    return CheckResult.failed("brackets do not balance: " + firstProblem);
  }

  /** One pass over the code under one comment convention. */
  private static final class Reading {
    private static final List<String> TRIPLE_QUOTES = List.of("\"\"\"", "'''");
    private static final String QUOTES = "\"'`";

    private final String code;
    private final Comments comments;
    private final boolean singleQuoteLiterals;

    /**
     * Per quote kind (", ', `, then the two triple quotes): before this index a search for the
     * closing quote already failed, so a quote of that kind there is plain text. Without it, a line
     * such as '\'\'\'... would be rescanned from every quote, quadratically.
     */
    private final int[] noClosingBefore = new int[QUOTES.length() + TRIPLE_QUOTES.size()];

    private record Opener(char bracket, int line, int column) {}

    Reading(String code, Comments comments, boolean singleQuoteLiterals) {
      this.code = code;
      this.comments = comments;
      this.singleQuoteLiterals = singleQuoteLiterals;
    }

    Optional<String> firstProblem() {
      Deque<Opener> open = new ArrayDeque<>();
      int line = 1;
      int lineStart = 0;
      int i = 0;
      while (i < code.length()) {
        int skipTo = skipIgnored(i);
        if (skipTo > i) {
          for (int k = i; k < skipTo; k++) {
            if (code.charAt(k) == '\n') {
              line++;
              lineStart = k + 1;
            }
          }
          i = skipTo;
          continue;
        }
        char c = code.charAt(i);
        int column = i - lineStart + 1;
        switch (c) {
          case '\n' -> {
            line++;
            lineStart = i + 1;
          }
          case '(', '[', '{' -> open.push(new Opener(c, line, column));
          case ')', ']', '}' -> {
            if (open.isEmpty()) {
              return Optional.of(
                  "'" + c + "' on line " + line + ", column " + column + " has no matching opener");
            }
            Opener o = open.pop();
            if (o.bracket() != partner(c)) {
              return Optional.of(
                  "'"
                      + c
                      + "' on line "
                      + line
                      + ", column "
                      + column
                      + " closes '"
                      + o.bracket()
                      + "' opened on line "
                      + o.line()
                      + ", column "
                      + o.column());
            }
          }
          default -> {}
        }
        i++;
      }
      if (!open.isEmpty()) {
        Opener o = open.peekLast(); // the outermost unclosed one is the most telling
        return Optional.of(
            "'"
                + o.bracket()
                + "' opened on line "
                + o.line()
                + ", column "
                + o.column()
                + " is never closed"
                + (open.size() > 1 ? " (" + open.size() + " unclosed in all)" : ""));
      }
      return Optional.empty();
    }

    /**
     * If a comment or string literal starts at {@code i}, the index just after it; otherwise {@code
     * i}.
     */
    private int skipIgnored(int i) {
      if (comments == Comments.C_STYLE && code.startsWith("//", i)) {
        return endOfLine(i);
      }
      if (comments == Comments.C_STYLE && code.startsWith("/*", i)) {
        int end = code.indexOf("*/", i + 2);
        return end < 0 ? code.length() : end + 2;
      }
      if (comments == Comments.HASH
          && code.charAt(i) == '#'
          && (i == 0 || Character.isWhitespace(code.charAt(i - 1)))) {
        return endOfLine(i);
      }
      for (int t = 0; t < TRIPLE_QUOTES.size(); t++) {
        String triple = TRIPLE_QUOTES.get(t);
        int kind = QUOTES.length() + t;
        boolean quote = singleQuoteLiterals || triple.charAt(0) != '\'';
        if (quote && i >= noClosingBefore[kind] && code.startsWith(triple, i)) {
          int end = code.indexOf(triple, i + 3);
          if (end >= 0) {
            return end + 3;
          }
          noClosingBefore[kind] = code.length();
        }
      }
      int kind = QUOTES.indexOf(code.charAt(i));
      boolean quote = kind >= 0 && (singleQuoteLiterals || code.charAt(i) != '\'');
      if (quote && i >= noClosingBefore[kind]) {
        int limit = code.charAt(i) == '`' ? code.length() : endOfLine(i);
        int close = closingQuote(i, limit);
        if (close >= 0) {
          return close + 1;
        }
        noClosingBefore[kind] = limit;
      }
      return i;
    }

    /**
     * The index of the quote closing the literal opened at {@code open}, before {@code limit}; or
     * -1.
     */
    private int closingQuote(int open, int limit) {
      char quote = code.charAt(open);
      for (int k = open + 1; k < limit; k++) {
        char c = code.charAt(k);
        if (c == '\\') {
          k++;
        } else if (c == quote) {
          return k;
        }
      }
      return -1;
    }

    private int endOfLine(int from) {
      int end = code.indexOf('\n', from);
      return end < 0 ? code.length() : end;
    }
  }

  private static char partner(char closer) {
    return switch (closer) {
      case ')' -> '(';
      case ']' -> '[';
      default -> '{';
    };
  }
}
