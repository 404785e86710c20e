package dev.asa.evaluators.code;

import dev.asa.agreement.CodeTests;
import dev.asa.evaluators.EvaluationException;
import dev.asa.evaluators.EvaluationTask;
import dev.asa.evaluators.code.sandbox.Limits;
import dev.asa.evaluators.code.sandbox.RejectedFilesException;
import dev.asa.evaluators.code.sandbox.SandboxException;
import dev.asa.evaluators.code.sandbox.TestCaseResult;
import dev.asa.evaluators.code.sandbox.TestFile;
import dev.asa.evaluators.code.sandbox.TestRun;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * The code sandbox as the code evaluator's test runner: the tests the criteria carry ({@code
 * quality_criteria.tests} in an agreement, {@code original_request.tests} in a standalone request)
 * run against the delivered tree in {@link dev.asa.evaluators.code.sandbox.TestRunner}, within the
 * operator's limits.
 *
 * <p>The client's tests decide the {@code tests_pass} gate. Without them, tests the provider
 * shipped in its tree still run and inform the scores, labelled as the provider's, but never pass
 * the gate: they prove what the provider chose to prove. With neither, what only tests can measure
 * is left unscored, with that reason.
 */
public final class SandboxTests implements TestRunner {
  private final dev.asa.evaluators.code.sandbox.TestRunner runner;
  private final Limits limits;

  public SandboxTests(dev.asa.evaluators.code.sandbox.TestRunner runner, Limits limits) {
    this.runner = runner;
    this.limits = limits;
  }

  @Override
  public Outcome run(CodeTree tree, EvaluationTask task) throws EvaluationException {
    Optional<CodeTests> agreed = task.criteria().codeTests();
    if (agreed.isEmpty()) {
      return shipped(tree);
    }
    CodeTests tests = agreed.get();
    if (!tests.language().equals(tree.language().wireName())) {
      return new Outcome.NotRun(
          "the tests are "
              + tests.language()
              + " but the deliverable is "
              + tree.language().wireName()
              + ": nothing ran");
    }
    Optional<dev.asa.evaluators.code.sandbox.Language> language =
        dev.asa.evaluators.code.sandbox.Language.fromFormat(tests.language());
    if (language.isEmpty()) {
      return new Outcome.NotRun("the sandbox does not run " + tests.language() + " tests");
    }
    return ran(language.get(), tree.files(), TestFile.of(language.get(), tests.content()), true);
  }

  /**
   * Without the client's tests, the tests the provider shipped in its tree, found by convention
   * ({@code test_*.py} or {@code *_test.py}, {@code *.test.js}, {@code *Test.java}; the first by
   * path): they inform correctness, coverage and performance, labelled as the provider's, and never
   * pass the {@code tests_pass} gate.
   */
  private Outcome shipped(CodeTree tree) throws EvaluationException {
    Optional<dev.asa.evaluators.code.sandbox.Language> language =
        dev.asa.evaluators.code.sandbox.Language.fromFormat(tree.language().wireName());
    Optional<String> testPath =
        tree.files().keySet().stream().sorted().filter(SandboxTests::isTestFile).findFirst();
    if (language.isEmpty() || testPath.isEmpty()) {
      return new Outcome.NotRun(
          "no tests were given to run (quality_criteria.tests in an agreement,"
              + " original_request.tests in a standalone request), and the deliverable ships none");
    }
    java.util.Map<String, String> code = new java.util.TreeMap<>(tree.files());
    String content = code.remove(testPath.get());
    return ran(language.get(), code, new TestFile(testPath.get(), content), false);
  }

  static boolean isTestFile(String path) {
    String name = path.substring(path.lastIndexOf('/') + 1);
    return (name.startsWith("test_") && name.endsWith(".py"))
        || name.endsWith("_test.py")
        || name.endsWith(".test.js")
        || (name.endsWith("Test.java") && name.length() > "Test.java".length());
  }

  private Outcome ran(
      dev.asa.evaluators.code.sandbox.Language language,
      java.util.Map<String, String> files,
      TestFile testFile,
      boolean agreed)
      throws EvaluationException {
    TestRun run;
    try {
      run = runner.run(language, files, testFile, limits);
    } catch (RejectedFilesException e) {
      throw new EvaluationException(
          EvaluationException.Reason.INVALID_TASK,
          "the deliverable cannot be run: " + e.getMessage(),
          e);
    } catch (SandboxException e) {
      throw new EvaluationException(
          EvaluationException.Reason.UNAVAILABLE, "the code sandbox failed: " + e.getMessage(), e);
    }
    int passed = run.passed();
    int failed = run.failed() + run.errored();
    if (run.tampered().isPresent()) {
      // A tripwire fired: nothing the run reported is believed. TestRun already errors every
      // reported pass; this holds even if it did not, and when nothing was reported at all.
      passed = 0;
      failed = Math.max(1, run.run());
    }
    if (run.problem().isPresent() && failed == 0) {
      // The tests did not load, did not compile or did not finish: whatever passed, the run as a
      // whole did not, so it can never lead to a pass (correctness 0 when nothing ran).
      failed = 1;
    }
    return new Outcome.Ran(
        new TestResults(
            passed,
            failed,
            run.coverage().isPresent() ? run.coverage().getAsDouble() : null,
            run.wallTime(),
            limits.wallClock(),
            (agreed ? "" : "the provider's own tests (" + testFile.path() + "): ") + summary(run),
            agreed));
  }

  private static String summary(TestRun run) {
    StringBuilder s = new StringBuilder();
    run.tampered()
        .ifPresent(
            t -> s.append("TAMPERED, so no test counts as passed (").append(t).append("); "));
    s.append(run.tampered().isPresent() ? 0 : run.passed())
        .append(" of ")
        .append(run.run() - run.skipped())
        .append(" ")
        .append(run.language().name().toLowerCase(java.util.Locale.ROOT))
        .append(" tests passed in the sandbox");
    if (run.skipped() > 0) {
      s.append("; ")
          .append(run.skipped())
          .append(run.skipped() == 1 ? " test" : " tests")
          .append(" skipped as the test file declares (or not meant to pass yet), not counted");
    }
    run.problem().ifPresent(p -> s.append("; ").append(p));
    if (run.timedOut()) {
      s.append("; stopped at the time limit");
    } else if (run.killed()) {
      s.append("; killed at a limit");
    }
    String failing =
        run.tests().stream()
            .filter(t ->
                t.outcome() == TestCaseResult.Outcome.FAILED
                    || t.outcome() == TestCaseResult.Outcome.ERRORED)
            .limit(10)
            .map(t -> t.name() + (t.message() == null ? "" : " (" + trim(t.message()) + ")"))
            .collect(Collectors.joining(", "));
    if (!failing.isEmpty()) {
      s.append("; failing: ").append(failing);
    }
    return s.toString();
  }

  private static String trim(String message) {
    String oneLine = message.strip().replaceAll("\\s+", " ");
    return oneLine.length() <= 120 ? oneLine : oneLine.substring(0, 117) + "...";
  }
}
