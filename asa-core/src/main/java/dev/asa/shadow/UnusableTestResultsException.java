package dev.asa.shadow;

/**
 * Test results that cannot be scored: not JSON, not {@code {"tests":[...]}}, or a test without a
 * usable name or status. The message names the member at fault ({@code tests[3].status}) so the
 * person who produced the file can fix it; a guessed score would be worse than none.
 */
public final class UnusableTestResultsException extends Exception {
  public UnusableTestResultsException(String message) {
    super(message);
  }
}
