package dev.asa.evaluators.code.sandbox;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;

/**
 * What a harness wrote to its result file, read back: one tab-separated line per event ({@code
 * START name}, {@code PASS|FAIL|ERROR|SKIP name ms message}, {@code COVERAGE percent}, {@code
 * PROBLEM message}), with {@code \\}, {@code \t} and {@code \n} escaped. The harnesses in this
 * package's resources write it; the code under test could too (it runs in the harness's process),
 * so nothing here trusts a line beyond its own shape.
 *
 * @param tests finished tests in order, then tests that started and never finished (errored)
 * @param coverage the harness's coverage line, when it wrote one
 * @param problem the harness's problem line, when it wrote one
 */
record HarnessReport(
    List<TestCaseResult> tests, OptionalDouble coverage, Optional<String> problem) {

  private static final int MAX_MESSAGE = 2000;
  private static final int MAX_TESTS = 10_000;

  HarnessReport {
    tests = List.copyOf(tests);
  }

  /**
   * Parses {@code text}; a test that started but did not finish is errored with {@code
   * unfinishedReason} (the sandbox was killed while it ran, or the process exited under it).
   */
  static HarnessReport parse(String text, String unfinishedReason) {
    List<TestCaseResult> tests = new ArrayList<>();
    Map<String, Integer> pending = new LinkedHashMap<>();
    OptionalDouble coverage = OptionalDouble.empty();
    Optional<String> problem = Optional.empty();
    for (String raw : text.split("\n")) {
      List<String> f = fields(raw);
      if (f.isEmpty() || tests.size() >= MAX_TESTS) {
        continue;
      }
      switch (f.get(0)) {
        case "START" -> {
          if (f.size() >= 2) {
            pending.merge(f.get(1), 1, Integer::sum);
          }
        }
        case "PASS", "FAIL", "ERROR", "SKIP" -> {
          if (f.size() >= 3) {
            String name = f.get(1);
            pending.computeIfPresent(name, (k, n) -> n > 1 ? n - 1 : null);
            tests.add(
                new TestCaseResult(
                    name,
                    outcome(f.get(0)),
                    millis(f.get(2)),
                    f.size() >= 4 ? trim(f.get(3)) : ""));
          }
        }
        case "SUITE" -> {
          // A group of tests (node's describe): it started, it is over, it is not a test.
          if (f.size() >= 2) {
            pending.computeIfPresent(f.get(1), (k, n) -> n > 1 ? n - 1 : null);
          }
        }
        case "COVERAGE" -> {
          if (f.size() >= 2) {
            try {
              double p = Double.parseDouble(f.get(1));
              if (p >= 0 && p <= 100) {
                coverage = OptionalDouble.of(p);
              }
            } catch (NumberFormatException e) {
              // A malformed line is ignored like any other.
            }
          }
        }
        case "PROBLEM" -> {
          if (f.size() >= 2) {
            problem = Optional.of(trim(f.get(1)));
          }
        }
        default -> {
          // Unknown lines carry nothing to score.
        }
      }
    }
    pending.forEach((name, n) -> {
      for (int i = 0; i < n; i++) {
        tests.add(
            new TestCaseResult(
                name, TestCaseResult.Outcome.ERRORED, Duration.ZERO, unfinishedReason));
      }
    });
    return new HarnessReport(tests, coverage, problem);
  }

  private static TestCaseResult.Outcome outcome(String tag) {
    return switch (tag) {
      case "PASS" -> TestCaseResult.Outcome.PASSED;
      case "FAIL" -> TestCaseResult.Outcome.FAILED;
      case "SKIP" -> TestCaseResult.Outcome.SKIPPED;
      default -> TestCaseResult.Outcome.ERRORED;
    };
  }

  private static Duration millis(String text) {
    try {
      return Duration.ofMillis(Math.max(0, Long.parseLong(text)));
    } catch (NumberFormatException e) {
      return Duration.ZERO;
    }
  }

  private static String trim(String message) {
    return message.length() <= MAX_MESSAGE ? message : message.substring(0, MAX_MESSAGE) + " ...";
  }

  /** Splits on tabs and undoes the escapes. */
  private static List<String> fields(String line) {
    List<String> out = new ArrayList<>();
    if (line.isEmpty()) {
      return out;
    }
    StringBuilder b = new StringBuilder();
    for (int i = 0; i < line.length(); i++) {
      char c = line.charAt(i);
      if (c == '\t') {
        out.add(b.toString());
        b.setLength(0);
      } else if (c == '\\' && i + 1 < line.length()) {
        char n = line.charAt(++i);
        b.append(
            switch (n) {
              case 'n' -> '\n';
              case 't' -> '\t';
              default -> n;
            });
      } else {
        b.append(c);
      }
    }
    out.add(b.toString());
    return out;
  }
}
