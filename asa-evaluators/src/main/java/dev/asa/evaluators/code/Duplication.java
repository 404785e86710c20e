package dev.asa.evaluators.code;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Copy-paste across a tree: every run of {@value #WINDOW} consecutive code lines (whitespace, blank
 * lines, comments and lone brackets left out) seen before is a duplicate. Language-agnostic, like
 * the token-window detectors (PMD's CPD, jscpd) it follows.
 *
 * @param lines code lines counted
 * @param duplicated code lines that are part of a repeated window
 * @param findings one per repeated block, at its first line, naming the original
 */
public record Duplication(int lines, int duplicated, List<Finding> findings) {

  /** A block must be this many code lines long to count: shorter repeats are idioms. */
  public static final int WINDOW = 6;

  public Duplication {
    findings = List.copyOf(findings);
  }

  /** Percentage of code lines duplicated. */
  public double percent() {
    return lines == 0 ? 0 : 100.0 * duplicated / lines;
  }

  private record Line(String file, int number, String text) {}

  static Duplication of(Map<String, String> sources) {
    Map<String, Line> seen = new HashMap<>();
    List<Finding> findings = new ArrayList<>();
    int total = 0;
    int duplicated = 0;
    for (var source : sources.entrySet()) {
      List<Line> code = codeLines(source.getKey(), source.getValue());
      total += code.size();
      boolean[] dup = new boolean[code.size()];
      int lastReported = -1;
      for (int i = 0; i + WINDOW <= code.size(); i++) {
        StringBuilder key = new StringBuilder();
        for (int k = 0; k < WINDOW; k++) {
          key.append(code.get(i + k).text()).append('\n');
        }
        Line first = seen.putIfAbsent(key.toString(), code.get(i));
        if (first == null) {
          continue;
        }
        for (int k = 0; k < WINDOW; k++) {
          dup[i + k] = true;
        }
        if (lastReported < 0 || i >= lastReported + WINDOW) {
          lastReported = i;
          findings.add(
              new Finding(
                  Check.DUPLICATION,
                  source.getKey(),
                  code.get(i).number(),
                  WINDOW + "+ lines repeating " + first.file() + ":" + first.number()));
        }
      }
      for (boolean d : dup) {
        duplicated += d ? 1 : 0;
      }
    }
    return new Duplication(total, duplicated, findings);
  }

  private static List<Line> codeLines(String file, String source) {
    List<Line> out = new ArrayList<>();
    String[] lines = source.split("\n", -1);
    for (int i = 0; i < lines.length; i++) {
      String t = lines[i].strip().replaceAll("\\s+", " ");
      if (t.isEmpty()
          || t.matches("[{}()\\[\\];,]+")
          || t.startsWith("#")
          || t.startsWith("//")
          || t.startsWith("*")
          || t.startsWith("/*")) {
        continue;
      }
      out.add(new Line(file, i + 1, t));
    }
    return out;
  }
}
