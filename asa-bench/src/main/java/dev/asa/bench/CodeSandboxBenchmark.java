package dev.asa.bench;

import dev.asa.evaluators.code.sandbox.Language;
import dev.asa.evaluators.code.sandbox.Limits;
import dev.asa.evaluators.code.sandbox.Sandbox;
import dev.asa.evaluators.code.sandbox.TestFile;
import dev.asa.evaluators.code.sandbox.TestRun;
import dev.asa.evaluators.code.sandbox.TestRunner;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;

/**
 * How long the code sandbox takes to run 20 tests against a generated deliverable of about 500
 * lines, in Python and in Java (javac and the run, in one sandbox), with the sandbox's own cost (an
 * empty command) beside them. A benchmark that prints numbers, not a test. It needs only the
 * evaluators' classes:
 *
 * <pre>
 * ./mvnw -B -o -q -pl asa-bench -am compile
 * java -cp asa-evaluators/target/classes:asa-bench/target/classes \
 *     dev.asa.bench.CodeSandboxBenchmark [RUNS]
 * </pre>
 *
 * <p>Each measurement is run once to warm the page cache, then {@code RUNS} times (default 5); the
 * minimum and median wall times are printed.
 */
public final class CodeSandboxBenchmark {
  private static final int FUNCTIONS = 20;

  private CodeSandboxBenchmark() {}

  public static void main(String[] args) {
    int runs = args.length > 0 ? Integer.parseInt(args[0]) : 5;
    Sandbox.Availability a = Sandbox.available();
    if (!a.available()) {
      System.out.println("no sandbox: " + a.reason());
      return;
    }
    Sandbox sandbox = Sandbox.create();
    TestRunner runner = new TestRunner(sandbox);
    Limits limits = Limits.defaults().withWallClock(Duration.ofMinutes(2));

    String python = pythonSource();
    String java = javaSource();
    System.out.printf(
        "deliverables: Python %d lines, Java %d lines, %d tests each; %d runs%n",
        lines(python), lines(java), FUNCTIONS, runs);
    measure(
        "sandbox alone (/usr/bin/true)",
        runs,
        () -> {
          sandbox.run(
              Map.of(), dev.asa.evaluators.code.sandbox.Command.of("/usr/bin/true"), limits);
          return "";
        });
    measure(
        "Python, 20 tests + coverage",
        runs,
        () ->
            describe(
                runner.run(
                    Language.PYTHON,
                    Map.of("generated.py", python),
                    TestFile.of(Language.PYTHON, pythonTests()),
                    limits)));
    measure(
        "Java, javac + 20 tests",
        runs,
        () ->
            describe(
                runner.run(
                    Language.JAVA,
                    Map.of("Generated.java", java),
                    TestFile.of(Language.JAVA, javaTests()),
                    limits)));
    var evaluator =
        new dev.asa.evaluators.code.CodeEvaluator(
            new dev.asa.evaluators.code.SandboxTests(runner, limits));
    measure(
        "verify Python (static + tests)",
        runs,
        () -> verify(evaluator, "python", "generated.py", python, pythonTests()));
    measure(
        "verify Java (static + tests)",
        runs,
        () -> verify(evaluator, "java", "Generated.java", java, javaTests()));
  }

  /**
   * The whole verification the server runs for a code deliverable: unpacking, the static checks
   * with the real parsers, and the client's tests in the sandbox, scored against the code criteria.
   */
  private static String verify(
      dev.asa.evaluators.code.CodeEvaluator evaluator,
      String language,
      String file,
      String source,
      String tests) {
    com.fasterxml.jackson.databind.node.ObjectNode manifest = dev.asa.json.Json.object();
    manifest.putObject("files").put(file, source);
    String content = manifest.toString();
    dev.asa.evaluators.EvaluationTask task =
        dev.asa.evaluators.EvaluationTask.of(
            new dev.asa.evaluators.Deliverable(
                content,
                language,
                dev.asa.crypto.Digest.sha256(
                    content.getBytes(java.nio.charset.StandardCharsets.UTF_8)),
                java.time.Instant.now()),
            "generated functions",
            "code/" + language,
            dev.asa.document.StandaloneCriteria.forType("code")
                .withCodeTests(new dev.asa.agreement.CodeTests(language, tests)));
    try {
      var evaluation = evaluator.evaluate(task);
      StringBuilder s = new StringBuilder();
      evaluation
          .dimensions()
          .forEach((name, input) ->
              s.append(name)
                  .append(' ')
                  .append(input.score() == null ? "-" : input.score().toPlainString())
                  .append(' '));
      return s.toString().strip();
    } catch (dev.asa.evaluators.EvaluationException e) {
      return "failed: " + e.getMessage();
    }
  }

  private interface Step {
    String run();
  }

  private static void measure(String name, int runs, Step step) {
    String last = step.run();
    List<Long> millis = new ArrayList<>();
    for (int i = 0; i < runs; i++) {
      long start = System.nanoTime();
      last = step.run();
      millis.add((System.nanoTime() - start) / 1_000_000);
    }
    Collections.sort(millis);
    System.out.printf(
        "%-32s min %5d ms  median %5d ms  %s%n",
        name, millis.get(0), millis.get(millis.size() / 2), last);
  }

  private static String describe(TestRun run) {
    return run.passed()
        + "/"
        + run.run()
        + " passed"
        + (run.coverage().isPresent()
            ? String.format(", coverage %.1f%%", run.coverage().getAsDouble())
            : "")
        + run.problem().map(p -> ", problem: " + p).orElse("");
  }

  private static long lines(String s) {
    return s.lines().count();
  }

  /** Twenty functions of about 25 lines: loops, branches, a helper class. */
  static String pythonSource() {
    StringBuilder b =
        new StringBuilder("\"\"\"Generated deliverable for the sandbox benchmark.\"\"\"\n\n");
    for (int i = 0; i < FUNCTIONS; i++) {
      b.append(
          """

          def compute_%1$d(n):
              \"\"\"Mixes three running sums over range(n); variant %1$d.\"\"\"
              total = 0
              for k in range(n):
                  if k %% 3 == 0:
                      total += k * %1$d
                  elif k %% 3 == 1:
                      total -= k
                  else:
                      total += (k * k) %% %2$d
              digits = 0
              value = abs(total)
              while value > 0:
                  digits += value %% 10
                  value //= 10
              if digits %% 2 == 0:
                  bonus = digits // 2
              else:
                  bonus = -digits
              checks = [total, digits, bonus]
              for c in checks:
                  if c is None:
                      raise ValueError("unreachable")
              return total, digits, bonus

          """
              .formatted(i, i + 7));
    }
    return b.toString();
  }

  static String pythonTests() {
    StringBuilder b = new StringBuilder("import generated\n\n");
    for (int i = 0; i < FUNCTIONS; i++) {
      b.append(
          """
          def test_compute_%1$d():
              n = 300 + %1$d
              total = sum(k * %1$d if k %% 3 == 0 else -k if k %% 3 == 1 else (k * k) %% %2$d
                          for k in range(n))
              digits = sum(int(d) for d in str(abs(total)))
              assert generated.compute_%1$d(n)[:2] == (total, digits)

          """
              .formatted(i, i + 7));
    }
    return b.toString();
  }

  static String javaSource() {
    StringBuilder b =
        new StringBuilder(
            """
            /** Generated deliverable for the sandbox benchmark. */
            public final class Generated {
              private Generated() {}
            """);
    for (int i = 0; i < FUNCTIONS; i++) {
      b.append(
          """

            /** Mixes three running sums over [0, n); variant %1$d. */
            public static long[] compute%1$d(int n) {
              long total = 0;
              for (int k = 0; k < n; k++) {
                if (k %% 3 == 0) {
                  total += (long) k * %1$d;
                } else if (k %% 3 == 1) {
                  total -= k;
                } else {
                  total += ((long) k * k) %% %2$d;
                }
              }
              long digits = 0;
              for (long value = Math.abs(total); value > 0; value /= 10) {
                digits += value %% 10;
              }
              long bonus;
              if (digits %% 2 == 0) {
                bonus = digits / 2;
              } else {
                bonus = -digits;
              }
              return new long[] {total, digits, bonus};
            }
          """
              .formatted(i, i + 7));
    }
    return b.append("}\n").toString();
  }

  static String javaTests() {
    StringBuilder b =
        new StringBuilder(
            """
            import java.util.stream.LongStream;

            public class DeliverableTest {
            """);
    for (int i = 0; i < FUNCTIONS; i++) {
      b.append(
          """
            public static void testCompute%1$d() {
              int n = 300 + %1$d;
              long total = LongStream.range(0, n)
                  .map(k -> k %% 3 == 0 ? k * %1$d : k %% 3 == 1 ? -k : (k * k) %% %2$d).sum();
              long digits = Long.toString(Math.abs(total)).chars().map(c -> c - '0').sum();
              long[] got = Generated.compute%1$d(n);
              if (got[0] != total || got[1] != digits) {
                throw new AssertionError("compute%1$d(" + n + ")");
              }
            }

          """
              .formatted(i, i + 7));
    }
    return b.append("}\n").toString();
  }
}
