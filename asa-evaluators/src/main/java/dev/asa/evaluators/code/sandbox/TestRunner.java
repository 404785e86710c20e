package dev.asa.evaluators.code.sandbox;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalDouble;

/**
 * The entry point: runs a test file against a deliverable's files in a {@link Sandbox} and says
 * what passed.
 *
 * <pre>{@code
 * TestRunner runner = TestRunner.create();          // SandboxUnavailableException when no bwrap
 * TestRun run = runner.run(Language.PYTHON,
 *     Map.of("solution.py", code),                   // the deliverable: relative path -> text
 *     TestFile.of(Language.PYTHON, testCode),        // the tests, beside it
 *     Limits.defaults());
 * run.passRate(); run.allPassed(); run.coverage(); run.tests();
 * }</pre>
 *
 * <p>Whatever the code does, {@code run} returns a {@link TestRun}: a hang, a fork bomb or an
 * allocation without bound ends as killed or errored tests, never as an exception. It throws only
 * when the input is refused ({@link RejectedFilesException}: paths, caps, a file in the harness's
 * {@code __asa__} directory or one named like the test file) or the sandbox itself fails ({@link
 * SandboxException}).
 */
public final class TestRunner {
  private static final int OUTPUT_HEAD = 4000;
  private static final int OUTPUT_TAIL = 4000;
  private static final long RUNTIME_RESIDENT = 256L * 1024 * 1024;

  private final Sandbox sandbox;

  public TestRunner(Sandbox sandbox) {
    this.sandbox = Objects.requireNonNull(sandbox, "sandbox");
  }

  /**
   * A runner on a new {@link Sandbox}; throws {@link SandboxUnavailableException} saying why not.
   */
  public static TestRunner create() {
    return new TestRunner(Sandbox.create());
  }

  /**
   * Runs {@code tests} against {@code files} in {@code language}. {@code limits.memoryBytes()} is
   * what the program may use; the runner adds its runtime's own reservation to RLIMIT_AS (and sets
   * the JVM's or V8's heap to it). The input caps count the deliverable's files and the test file.
   */
  public TestRun run(Language language, Map<String, String> files, TestFile tests, Limits limits) {
    Objects.requireNonNull(language, "language");
    Objects.requireNonNull(tests, "tests");
    for (String path : files.keySet()) {
      refuseHarnessPath(path);
    }
    refuseHarnessPath(tests.path());
    if (files.containsKey(tests.path())) {
      throw new RejectedFilesException("the deliverable already has a file named " + tests.path());
    }
    LanguagePlan plan = LanguagePlan.of(language);
    Optional<String> missing = plan.missing();
    if (missing.isPresent()) {
      return new TestRun(
          language,
          List.of(),
          Duration.ZERO,
          false,
          false,
          -1,
          "",
          OptionalDouble.empty(),
          missing);
    }
    Map<String, String> all = new HashMap<>(files);
    all.put(tests.path(), tests.content());
    WorkFiles.of(all, limits);
    Tripwire tripwire = Tripwire.fresh();
    // JavaScript's controls run in node's test process, so they are appended to the test file
    // (after its own lines, so line numbers hold); the other harnesses add them themselves.
    TestFile run = plan.withControls(tests, tripwire);
    all.put(run.path(), run.content());
    all.putAll(plan.harness());
    Command command =
        plan.command(all, run, limits.memoryBytes())
            .withCollectAlso(Tripwire.KEY_FILE, tripwire.seed());
    Limits sandboxLimits =
        limits
            .withMemoryBytes(limits.memoryBytes() + plan.runtimeReserve(limits.memoryBytes()))
            // The runtime's own resident memory (a JVM's code cache, metaspace, GC) beside what
            // the program may use.
            .withTotalMemoryBytes(
                Math.max(limits.totalMemoryBytes(), limits.memoryBytes() + RUNTIME_RESIDENT))
            // The harness files are ours: they do not count against the deliverable's caps.
            .withInputCaps(
                limits.maxFiles() + plan.harness().size(),
                limits.maxInputBytes()
                    + harnessBytes(plan)
                    + (run.content().length() - tests.content().length()));
    SandboxResult result = sandbox.run(all, command, sandboxLimits);
    return toRun(language, result, tests, tripwire);
  }

  private static TestRun toRun(
      Language language, SandboxResult result, TestFile testFile, Tripwire tripwire) {
    boolean killedBySignal =
        result.apparentSignal().isPresent() && result.apparentSignal().getAsInt() != 0;
    boolean killed = result.killed() || killedBySignal;
    Tripwire.Verified verified =
        tripwire.verify(result.collected().getOrDefault(LanguagePlan.RESULTS, ""), killed);
    HarnessReport report = HarnessReport.parse(verified.text(), unfinished(result));
    List<String> tampering = new ArrayList<>(verified.tampering());
    List<TestCaseResult> tests = new ArrayList<>();
    Map<String, TestCaseResult.Outcome> controls = new HashMap<>();
    for (TestCaseResult t : report.tests()) {
      if (tripwire.mustFail().contains(t.name()) || tripwire.mustPass().equals(t.name())) {
        if (controls.put(t.name(), t.outcome()) != null) {
          tampering.add("a control test was reported twice");
        }
      } else {
        tests.add(blamingTheLimit(t, result));
      }
    }
    for (String name : tripwire.mustFail()) {
      TestCaseResult.Outcome o = controls.get(name);
      if (o == TestCaseResult.Outcome.PASSED || o == TestCaseResult.Outcome.SKIPPED) {
        tampering.add(
            "a control test that must fail (a known-false assertion) was reported as passing:"
                + " the assertions were disarmed");
      }
    }
    TestCaseResult.Outcome pass = controls.get(tripwire.mustPass());
    if (pass != null && pass != TestCaseResult.Outcome.PASSED) {
      tampering.add("the control test that must pass did not");
    }
    boolean finished = verified.ended() && !killed;
    // node reports a test file that threw while it loaded (the deliverable's import failed, say)
    // as a failed test named by the file's path; the controls appended to it never registered.
    boolean fileFailed =
        tests.stream()
            .anyMatch(t ->
                t.outcome() != TestCaseResult.Outcome.PASSED
                    && (t.name().equals(testFile.path())
                        || t.name().endsWith("/" + testFile.path())));
    if (finished && report.problem().isEmpty() && !fileFailed && controls.size() != 3) {
      tampering.add("the harness finished but its control tests were not all reported");
    }
    if (!verified.ended() && !killed && result.exitCode() == 0) {
      tampering.add("the test process exited with status 0 before the harness wrote its end line");
    }
    if (finished && report.problem().isEmpty() && !fileFailed) {
      TestNames.check(language, testFile, tests.stream().map(TestCaseResult::name).toList())
          .ifPresent(tampering::add);
    }
    Optional<String> problem = report.problem();
    if (problem.isEmpty() && tests.isEmpty()) {
      problem = Optional.of(why(language, result));
    }
    if (problem.isEmpty() && !verified.ended() && !killed) {
      problem =
          Optional.of(
              "the harness did not finish: the test process exited (status "
                  + result.exitCode()
                  + ") before its end line");
    }
    Optional<String> tampered =
        tampering.isEmpty()
            ? Optional.empty()
            : Optional.of(String.join("; ", new java.util.LinkedHashSet<>(tampering)));
    return new TestRun(
        language,
        tests,
        result.wallTime(),
        result.timedOut(),
        killed,
        result.exitCode(),
        trim(result),
        report.coverage(),
        problem,
        tampered);
  }

  /**
   * A test that did not pass in a run killed at the output cap says so first: the harness may have
   * recorded it as an error of its own (a broken pipe, as the server stopped reading) a moment
   * before the kill, and the cause is the flood, not the pipe.
   */
  private static TestCaseResult blamingTheLimit(TestCaseResult t, SandboxResult result) {
    if (!result.outputOverrun()
        || t.outcome() == TestCaseResult.Outcome.PASSED
        || (t.message() != null && t.message().contains("output limit"))) {
      return t;
    }
    String reason = unfinished(result);
    return new TestCaseResult(
        t.name(),
        t.outcome(),
        t.duration(),
        t.message() == null ? reason : reason + "; " + t.message());
  }

  /** What to say of a test that started and never finished. */
  private static String unfinished(SandboxResult result) {
    if (result.timedOut()) {
      return "killed: the wall-clock limit ran out while this test ran";
    }
    if (result.memoryOverrun()) {
      return "killed: the sandbox's processes together passed the memory limit while this test ran";
    }
    if (result.outputOverrun()) {
      return "killed: the output limit was passed while this test ran";
    }
    if (result.apparentSignal().isPresent()) {
      int signal = result.apparentSignal().getAsInt();
      return "killed by signal "
          + signal
          + (signal == 9 ? " (the CPU limit, or memory)" : "")
          + (signal == 24 ? " (the CPU limit)" : "")
          + " while this test ran";
    }
    return "the test process exited (status " + result.exitCode() + ") while this test ran";
  }

  private static String why(Language language, SandboxResult result) {
    if (result.killed()) {
      return "no test finished: " + unfinished(result).replace(" while this test ran", "");
    }
    if (language == Language.JAVA && result.exitCode() == JavaPlan.COMPILE_FAILED) {
      return "compilation failed:\n" + head(result.stderr().strip(), OUTPUT_HEAD);
    }
    return "no test results (exit status "
        + result.exitCode()
        + "):\n"
        + head(result.stderr().strip(), OUTPUT_HEAD);
  }

  private static void refuseHarnessPath(String path) {
    if (path.equals(LanguagePlan.HARNESS_DIR) || path.startsWith(LanguagePlan.HARNESS_DIR + "/")) {
      throw new RejectedFilesException(
          "path " + path + " is in " + LanguagePlan.HARNESS_DIR + "/, which the harness uses");
    }
  }

  private static long harnessBytes(LanguagePlan plan) {
    return plan.harness().values().stream()
        .mapToLong(s -> s.getBytes(java.nio.charset.StandardCharsets.UTF_8).length)
        .sum();
  }

  /** Stdout then stderr, the head and the tail kept when long. */
  private static String trim(SandboxResult result) {
    String all =
        result.stdout()
            + (result.stderr().isEmpty()
                ? ""
                : (result.stdout().isEmpty() ? "" : "\n") + result.stderr());
    if (all.length() <= OUTPUT_HEAD + OUTPUT_TAIL) {
      return all;
    }
    return all.substring(0, OUTPUT_HEAD)
        + "\n... ["
        + (all.length() - OUTPUT_HEAD - OUTPUT_TAIL)
        + " characters left out] ...\n"
        + all.substring(all.length() - OUTPUT_TAIL);
  }

  private static String head(String text, int max) {
    return text.length() <= max ? text : text.substring(0, max) + " ...";
  }
}
