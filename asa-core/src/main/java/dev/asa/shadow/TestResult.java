package dev.asa.shadow;

import java.util.Objects;

/**
 * One test of a suite as its runner reported it.
 *
 * @param name the test's name, unique within its suite
 * @param status how it ended
 * @param category the kind of scenario; {@link Category#UNKNOWN} when the runner gave none
 * @param expected what the test expected; empty when not given
 * @param actual what it got instead; empty when not given
 * @param message the failure message, the only part of a sealed test the implementer may see during
 *     hardening; empty when not given
 */
public record TestResult(
    String name, Status status, Category category, String expected, String actual, String message) {

  public TestResult {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(status, "status");
    Objects.requireNonNull(category, "category");
    expected = Objects.requireNonNullElse(expected, "");
    actual = Objects.requireNonNullElse(actual, "");
    message = Objects.requireNonNullElse(message, "");
  }

  public static TestResult passed(String name, Category category) {
    return new TestResult(name, Status.PASSED, category, "", "", "");
  }

  public static TestResult failed(
      String name, Category category, String expected, String actual, String message) {
    return new TestResult(name, Status.FAILED, category, expected, actual, message);
  }

  public boolean isFailure() {
    return status.countsAsFailure();
  }
}
