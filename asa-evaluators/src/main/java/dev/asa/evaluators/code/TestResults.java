package dev.asa.evaluators.code;

import java.time.Duration;
import java.util.Objects;

/**
 * What running a deliverable's tests in the sandbox found: the seam between the static checks and
 * the runner. The code evaluator scores {@code correctness} (share passing), the {@code tests_pass}
 * check, {@code test_coverage} (when measured) and {@code performance} (time against the limit,
 * when there is one) from it.
 *
 * @param passed tests that passed
 * @param failed tests that failed or errored
 * @param coveragePercent line coverage 0..100, or null when the language's coverage tool was not
 *     available
 * @param elapsed how long the tests ran
 * @param timeLimit the limit the criteria set on the run, or null for none
 * @param summary what ran and how, with failing tests' names, for the evidence
 * @param agreed whether the tests were the client's (the criteria's); a provider's own tests,
 *     shipped with its code, inform the scores but never pass the {@code tests_pass} gate
 */
public record TestResults(
    int passed,
    int failed,
    Double coveragePercent,
    Duration elapsed,
    Duration timeLimit,
    String summary,
    boolean agreed) {

  /** Results of the client's tests. */
  public TestResults(
      int passed,
      int failed,
      Double coveragePercent,
      Duration elapsed,
      Duration timeLimit,
      String summary) {
    this(passed, failed, coveragePercent, elapsed, timeLimit, summary, true);
  }

  public TestResults {
    if (passed < 0 || failed < 0) {
      throw new IllegalArgumentException("test counts cannot be negative");
    }
    if (coveragePercent != null && (coveragePercent < 0 || coveragePercent > 100)) {
      throw new IllegalArgumentException("coverage is a percentage");
    }
    Objects.requireNonNull(elapsed, "elapsed");
    summary = summary == null ? "" : summary;
  }

  public int total() {
    return passed + failed;
  }
}
