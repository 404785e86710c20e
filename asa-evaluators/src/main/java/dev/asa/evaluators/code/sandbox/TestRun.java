package dev.asa.evaluators.code.sandbox;

import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.OptionalDouble;

/**
 * The result of running a test file against a deliverable in a sandbox.
 *
 * @param language the language run
 * @param tests every test that started, in the order it reported
 * @param wallTime the whole sandboxed run: compilation (Java), start-up and the tests
 * @param timedOut the wall clock ran out and the sandbox was killed
 * @param killed the sandbox or a process in it was killed: by this JVM (wall clock, output cap) or
 *     by the kernel (the CPU limit's SIGKILL, or another signal)
 * @param exitCode the harness's exit status (see {@link SandboxResult#exitCode()})
 * @param output stdout then stderr, trimmed to a few kilobytes (head and tail kept)
 * @param coverage percent of the deliverable's executable lines the tests ran, when the language's
 *     coverage is measured (Python: a line tracer; JavaScript: node's built-in coverage; Java:
 *     none)
 * @param problem why the tests could not run as tests (compilation failed, the test file did not
 *     load, no tests found, the runtime is missing), when that is so
 * @param tampered why the results cannot be trusted, when a tripwire fired (see {@link Tripwire}
 *     and {@link TestNames}): an unauthenticated result line, a disarmed assertion, a control test
 *     missing or reported wrongly, a reported test the file does not define. A tampered run counts
 *     as all failed: every test it reported as passing is errored here, so nothing passes
 */
public record TestRun(
    Language language,
    List<TestCaseResult> tests,
    Duration wallTime,
    boolean timedOut,
    boolean killed,
    int exitCode,
    String output,
    OptionalDouble coverage,
    Optional<String> problem,
    Optional<String> tampered) {

  public TestRun {
    tests = List.copyOf(tests);
    if (tampered.isPresent()) {
      String why = "reported as passed, but the run was tampered with: " + tampered.get();
      tests =
          tests.stream()
              .map(t ->
                  t.outcome() == TestCaseResult.Outcome.PASSED
                      ? new TestCaseResult(
                          t.name(), TestCaseResult.Outcome.ERRORED, t.duration(), why)
                      : t)
              .toList();
    }
  }

  /** A run no tripwire fired on. */
  public TestRun(
      Language language,
      List<TestCaseResult> tests,
      Duration wallTime,
      boolean timedOut,
      boolean killed,
      int exitCode,
      String output,
      OptionalDouble coverage,
      Optional<String> problem) {
    this(
        language,
        tests,
        wallTime,
        timedOut,
        killed,
        exitCode,
        output,
        coverage,
        problem,
        Optional.empty());
  }

  public int run() {
    return tests.size();
  }

  public int passed() {
    return count(TestCaseResult.Outcome.PASSED);
  }

  public int failed() {
    return count(TestCaseResult.Outcome.FAILED);
  }

  public int errored() {
    return count(TestCaseResult.Outcome.ERRORED);
  }

  /** Tests the test file declared skipped (or not meant to pass yet): counted neither way. */
  public int skipped() {
    return count(TestCaseResult.Outcome.SKIPPED);
  }

  /**
   * Every test that counts passed, at least one did, nothing was killed or went wrong around them,
   * and no tripwire fired. Declared skips count neither way.
   */
  public boolean allPassed() {
    return passed() > 0
        && passed() == tests.size() - skipped()
        && !killed
        && problem.isEmpty()
        && tampered.isEmpty();
  }

  /** Share of the tests that count passing, 0 to 1; 0 when none counts. */
  public double passRate() {
    int counted = tests.size() - skipped();
    return counted == 0 ? 0.0 : (double) passed() / counted;
  }

  private int count(TestCaseResult.Outcome outcome) {
    return (int) tests.stream().filter(t -> t.outcome() == outcome).count();
  }
}
