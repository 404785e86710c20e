package dev.asa.shadow;

import java.util.Objects;

/**
 * The verdict on one criterion.
 *
 * @param status {@link Status#PASSED}, {@link Status#FAILED}, or {@link Status#ERROR} when it could
 *     not be decided (judge failure, regex over budget); an error counts as a failure
 * @param actual the evidence: what was found
 */
public record CriterionResult(SealedCriterion criterion, Status status, String actual) {

  public CriterionResult {
    Objects.requireNonNull(criterion, "criterion");
    Objects.requireNonNull(status, "status");
    if (status == Status.SKIPPED) {
      throw new IllegalArgumentException("every sealed criterion is run; none is skipped");
    }
    actual = Objects.requireNonNullElse(actual, "");
  }

  public boolean passed() {
    return status == Status.PASSED;
  }

  /**
   * The spec-format test result: name is the criterion id, message the criterion's provider-facing
   * message.
   */
  public TestResult toTestResult() {
    return new TestResult(
        criterion.id(),
        status,
        criterion.category(),
        criterion.expected(),
        actual,
        criterion.message());
  }
}
