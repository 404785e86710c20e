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
    Optional<String> problem) {

  public TestRun {
    tests = List.copyOf(tests);
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

  /** Every test passed, at least one ran, and nothing was killed or went wrong around them. */
  public boolean allPassed() {
    return !tests.isEmpty() && passed() == tests.size() && !killed && problem.isEmpty();
  }

  /** Share of tests passing, 0 to 1; 0 when none ran. */
  public double passRate() {
    return tests.isEmpty() ? 0.0 : (double) passed() / tests.size();
  }

  private int count(TestCaseResult.Outcome outcome) {
    return (int) tests.stream().filter(t -> t.outcome() == outcome).count();
  }
}
