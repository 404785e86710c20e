package dev.asa.evaluators.offline;

import dev.asa.evaluators.text.Sentences;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The sums an answer works out in the open, checked: "7 - 3 = 10", "5 x 5 x 5 = 625", "S = 1 + 2 +
 * ... + 10 = 55". A similarity model reads a wrong sum as close to the question as a right one, and
 * the answer that gets the arithmetic wrong has usually got the answer wrong.
 *
 * <p>Only equalities between plain numbers are read, as a chain of expressions joined by "=" with
 * at least one operation in it ({@code + - * / x × ÷ ^}, brackets, a leading minus; "$20 x 3 = $60"
 * and "1/4 = 25%" too). Anything else is left alone rather than guessed at: a variable or a unit
 * inside the expression ("3x + 10 = 5x - 10", "3 hours x 60 = 180"), a percentage inside it, a
 * number written next to a bracket ("5(2)^3"), a chain that runs on into something that is not a
 * number ("= 5x"). A value given rounded or cut short holds when it is within one unit of its last
 * digit ("10/3 = 3.33", "7/2 = 3"); "≈" is never read. A wrong sum quoted from the request ("why is
 * 2 + 2 = 5 wrong?") or in a sentence that says it is wrong is no mistake of the answer's.
 *
 * <p>Only wrong sums count, and right ones earn nothing: sums are cheap to add to an answer, and
 * one that adds right ones gains no more than it had.
 *
 * @param checked equalities read and worked out
 * @param wrong the ones that do not hold, as written
 */
record Arithmetic(int checked, List<String> wrong) {

  Arithmetic {
    wrong = List.copyOf(wrong);
  }

  // Every repetition below is bounded and every number read atomically: a deliverable is the
  // provider's to write, and unbounded, the first form of this pattern overflowed the stack on
  // "1+1+...+1 x= 5" five thousand terms long (each repetition is a frame of Java's regex
  // engine), and would have retried each term against all the terms after it.
  private static final String NUMBER =
      "(?>\\$?(?:\\d{1,3}(?:,\\d{3}){1,6}(?!\\d)|\\d{1,18})(?:\\.\\d{1,12})?%?)";
  private static final String OPERAND = "(?:[-(]\\s{0,3}){0,4}" + NUMBER + "(?:\\s{0,3}\\)){0,4}";
  private static final String EXPRESSION =
      OPERAND + "(?:\\s{0,3}[-+*/×÷^xX]\\s{0,3}" + OPERAND + "){0,24}+";

  /** Expressions joined by "=": at least two of them, a sum and what it comes to. */
  private static final Pattern CHAIN =
      Pattern.compile(EXPRESSION + "(?:\\s{0,3}=(?!=)\\s{0,3}" + EXPRESSION + "){1,8}+");

  private static final Pattern TOKEN =
      Pattern.compile(
          "\\s*(?:(?<number>\\$?(?:\\d{1,3}(?:,\\d{3})+|\\d+)(?:\\.\\d+)?)(?<percent>%?)"
              + "|(?<operator>[-+*/×÷^xX])|(?<open>\\()|(?<close>\\)))");

  /** A sentence that calls a sum wrong rather than making it. */
  private static final Pattern DENIED =
      Pattern.compile(
          "(?i)\\b(?:not|n't|false|incorrect|wrong|mistake|mistaken|error|erroneous|untrue|never)\\b|≠");

  static Arithmetic of(String text, String request) {
    String written = normalise(text);
    String asked = normalise(request).replaceAll("\\s+", "");
    int checked = 0;
    List<String> wrong = new ArrayList<>();
    for (String sentence : Sentences.split(written)) {
      Matcher m = CHAIN.matcher(sentence);
      while (m.find()) {
        if (!standsAlone(sentence, m.start(), m.end())) {
          continue;
        }
        String chain = m.group();
        Boolean holds = holds(chain);
        if (holds == null) {
          continue;
        }
        checked++;
        if (!holds
            && !asked.contains(chain.replaceAll("\\s+", ""))
            && !DENIED.matcher(sentence).find()) {
          wrong.add(chain.strip());
        }
      }
    }
    return new Arithmetic(checked, wrong);
  }

  /**
   * Markdown's escaped "\*", LaTeX's "\times" and "\cdot", and a typographic minus, read plainly.
   */
  private static String normalise(String text) {
    return text.replace("\\*", "*")
        .replace("\\times", " × ")
        .replace("\\cdot", " * ")
        .replace('−', '-')
        .replace('·', '*');
  }

  /**
   * Whether the chain is all of the sum, not the tail of a longer one the pattern could not read
   * ("0(1 - 3) + 3(0 - 1) = 9" read from "1 - 3") or the head of one that runs on ("= 5x").
   */
  private static boolean standsAlone(String s, int start, int end) {
    int before = start - 1;
    if (before >= 0 && (Character.isLetterOrDigit(s.charAt(before)) || s.charAt(before) == '.')) {
      return false; // "f(2)", "2x", "1.5"
    }
    while (before >= 0 && Character.isWhitespace(s.charAt(before))) {
      before--;
    }
    if (before >= 0) {
      char c = s.charAt(before);
      if (Character.isDigit(c) || "+-*/×÷^).,|".indexOf(c) >= 0) {
        return false;
      }
      if ((c == 'x' || c == 'X') && before > 0 && !Character.isLetter(s.charAt(before - 1))) {
        return false; // "4 x" before it: the multiplication goes on to its left
      }
    }
    if (end < s.length()) {
      char next = s.charAt(end);
      if (Character.isLetterOrDigit(next) || next == '(') {
        return false; // "= 5x", "= 2(3)"
      }
    }
    String after = s.substring(end).stripLeading();
    return after.isEmpty()
        || !(after.startsWith("=") || after.matches("(?s)[-+*/×÷^xX(]\\s*[\\d($].*"));
  }

  /** Whether every link of the chain holds; null when it is no sum this class reads. */
  private static Boolean holds(String chain) {
    String[] sides = chain.split("=");
    double[] values = new double[sides.length];
    boolean[] percent = new boolean[sides.length];
    int[] decimals = new int[sides.length];
    boolean operation = false;
    for (int i = 0; i < sides.length; i++) {
      Tokens t = Tokens.of(sides[i]);
      if (t == null) {
        return null;
      }
      boolean single = t.items.size() == 1;
      // A percentage is read only as a value on its own ("1/4 = 25%"), never inside a sum.
      if (t.percent && !single) {
        return null;
      }
      Double v = t.evaluate();
      if (v == null || v.isNaN() || v.isInfinite()) {
        return null;
      }
      operation |= t.operations;
      values[i] = v;
      percent[i] = t.percent;
      decimals[i] = single ? t.decimals : -1;
    }
    if (!operation) {
      return null;
    }
    for (int i = 1; i < sides.length; i++) {
      if (!equal(values[i - 1], values[i], decimals[i], percent[i])) {
        return false;
      }
    }
    return true;
  }

  /**
   * Whether a value worked out equals the value written for it: within one unit of the written
   * value's last digit when it is a plain number (rounded or cut short), and a percentage read as a
   * hundredth or as written.
   */
  private static boolean equal(double computed, double written, int decimals, boolean percent) {
    double tolerance =
        decimals < 0 ? 1e-9 * Math.max(1, Math.abs(computed)) : Math.pow(10, -decimals);
    if (Math.abs(computed - written) < tolerance - 1e-12) {
      return true;
    }
    return percent && Math.abs(computed * 100 - written) < tolerance - 1e-12;
  }

  String describe() {
    if (wrong.isEmpty()) {
      return String.format(Locale.ROOT, "%d %s worked out, none wrong", checked, sums(checked));
    }
    return String.format(
        Locale.ROOT,
        "%d of %d %s worked out wrong (%s)",
        wrong.size(),
        checked,
        sums(checked),
        String.join("; ", wrong.stream().limit(3).map(w -> "\"" + w + "\"").toList()));
  }

  private static String sums(int n) {
    return n == 1 ? "sum" : "sums";
  }

  /** One side of an equality, read into numbers, operators and brackets. */
  private static final class Tokens {
    private final List<Object> items = new ArrayList<>();
    private boolean operations;
    private boolean percent;
    private int decimals;
    private int position;

    /** The side read, or null when something in it is not part of a sum. */
    static Tokens of(String side) {
      Tokens t = new Tokens();
      Matcher m = TOKEN.matcher(side);
      int at = 0;
      while (at < side.length()) {
        if (side.substring(at).isBlank()) {
          break;
        }
        if (!m.find(at) || m.start() != at || m.end() == at) {
          return null;
        }
        if (m.group("number") != null) {
          String digits = m.group("number").replace(",", "").replace("$", "");
          t.items.add(Double.parseDouble(digits));
          int dot = digits.indexOf('.');
          t.decimals = dot < 0 ? 0 : digits.length() - dot - 1;
          t.percent |= !m.group("percent").isEmpty();
        } else if (m.group("operator") != null) {
          t.items.add(m.group("operator").charAt(0));
        } else {
          t.items.add(m.group("open") != null ? '(' : ')');
        }
        at = m.end();
      }
      return t.items.isEmpty() ? null : t;
    }

    /** The value, or null when the tokens do not make one expression. */
    Double evaluate() {
      position = 0;
      Double v = sum();
      return v != null && position == items.size() ? v : null;
    }

    private Object peek() {
      return position < items.size() ? items.get(position) : null;
    }

    private Double sum() {
      Double v = product();
      while (v != null && (peek() instanceof Character c) && (c == '+' || c == '-')) {
        position++;
        operations = true;
        Double r = product();
        if (r == null) {
          return null;
        }
        v = c == '+' ? v + r : v - r;
      }
      return v;
    }

    private Double product() {
      Double v = power();
      while (v != null && (peek() instanceof Character c) && "*/×÷xX".indexOf(c) >= 0) {
        position++;
        operations = true;
        Double r = power();
        if (r == null) {
          return null;
        }
        v = (c == '/' || c == '÷') ? v / r : v * r;
      }
      return v;
    }

    private Double power() {
      Double v = operand();
      if (v != null && peek() instanceof Character c && c == '^') {
        position++;
        operations = true;
        Double e = power();
        return e == null ? null : Math.pow(v, e);
      }
      return v;
    }

    private Double operand() {
      Object t = peek();
      if (t instanceof Double d) {
        position++;
        return d;
      }
      if (t instanceof Character c && c == '-') {
        position++;
        Double v = operand();
        return v == null ? null : -v;
      }
      if (t instanceof Character c && c == '(') {
        position++;
        Double v = sum();
        if (v == null || !(peek() instanceof Character close) || close != ')') {
          return null;
        }
        position++;
        return v;
      }
      return null;
    }
  }
}
