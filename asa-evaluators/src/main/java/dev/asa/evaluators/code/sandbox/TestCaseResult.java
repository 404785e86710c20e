package dev.asa.evaluators.code.sandbox;

import java.time.Duration;
import java.util.Objects;

/**
 * One test's outcome.
 *
 * @param name the test's name as its runner knows it ({@code Class.method}, a function name, a
 *     {@code node:test} title)
 * @param outcome passed, failed (an assertion), errored (anything else, including being killed
 *     while it ran)
 * @param duration as the harness measured it inside the sandbox; zero when it never finished
 * @param message the failure or error, trimmed; empty when passed
 */
public record TestCaseResult(String name, Outcome outcome, Duration duration, String message) {

  public TestCaseResult {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(outcome, "outcome");
    Objects.requireNonNull(duration, "duration");
    Objects.requireNonNull(message, "message");
  }

  /** How a test ended. */
  public enum Outcome {
    PASSED,
    FAILED,
    ERRORED,
    /**
     * Not run, or not meant to pass yet, as the test file itself declares (a skip decorator, {@code
     * test.skip}, {@code todo}, an expected failure): reported and counted neither way. A skip the
     * deliverable causes is a failure, never this.
     */
    SKIPPED
  }
}
