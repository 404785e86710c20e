package dev.asa.evaluators.text;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.MatchResult;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Counting runs: whole numbers in a row, on one line, each the last plus the same step ("2020,
 * 2021, 2022, ... 2067"). A run says no more than its two ends, yet read number by number it passes
 * for dozens of concrete facts and words of the answer's own, which is how a language model's
 * degenerate loop ("movies released in the year 2020, 2021, 2022, ...") scored 96.7 on a request
 * for a film list. A run of at least {@value #MIN_NUMBERS} numbers is read as its ends, "2020 to
 * 2067"; shorter ones ("the digits 1, 2, 3, 4, 5, 6, 7, 8, 9" of a sudoku) are left as written.
 */
public final class CountingRuns {

  /**
   * A run this long or longer is read as its ends. Chosen with the development corpus (see the
   * docs/judge-record.md): the runs of sudoku answers, 1 to 9, stay as written; the loops of 18 and
   * 48 numbers are read as their ends.
   */
  public static final int MIN_NUMBERS = 12;

  /**
   * Whole numbers joined by commas, semicolons or spaces, "and" before the last, on one line. A
   * separator is required and every quantifier is possessive: with the separator optional, "2020"
   * could be read as "20" and "20", and a run just short of the minimum took exponential time to
   * refuse.
   */
  private static final Pattern RUN =
      Pattern.compile(
          "(?<![\\d.,])\\d{1,9}+(?:(?:[ \\t]*+[,;][ \\t]*+|[ \\t]++)(?:and[ \\t]++)?\\d{1,9}+){"
              + (MIN_NUMBERS - 1)
              + ",}(?!\\d|[.,]\\d)");

  private static final Pattern NUMBER = Pattern.compile("\\d+");

  /**
   * The text with each counting run read as its ends.
   *
   * @param text what is scored
   * @param runs the runs as written, for the evidence
   */
  public record Read(String text, List<String> runs) {}

  private CountingRuns() {}

  public static Read of(String text) {
    Matcher candidate = RUN.matcher(text);
    StringBuilder out = new StringBuilder();
    List<String> runs = new ArrayList<>();
    int copied = 0;
    while (candidate.find()) {
      List<MatchResult> numbers =
          NUMBER.matcher(text).region(candidate.start(), candidate.end()).results().toList();
      int i = 0;
      while (i + 1 < numbers.size()) {
        long step = value(numbers.get(i + 1)) - value(numbers.get(i));
        int j = i + 1;
        while (j + 1 < numbers.size()
            && value(numbers.get(j + 1)) - value(numbers.get(j)) == step) {
          j++;
        }
        if (step != 0 && j - i + 1 >= MIN_NUMBERS) {
          MatchResult first = numbers.get(i);
          MatchResult last = numbers.get(j);
          out.append(text, copied, first.start())
              .append(first.group())
              .append(" to ")
              .append(last.group());
          runs.add(text.substring(first.start(), last.end()));
          copied = last.end();
          i = j + 1;
        } else {
          i = j; // a new stretch may start where this one broke
        }
      }
    }
    if (runs.isEmpty()) {
      return new Read(text, List.of());
    }
    out.append(text, copied, text.length());
    return new Read(out.toString(), List.copyOf(runs));
  }

  private static long value(MatchResult number) {
    return Long.parseLong(number.group());
  }
}
