package dev.asa.server.verification;

/**
 * A verification job ended without a result (its evaluators failed or ran out of time); answered as
 * 422.
 */
public final class VerificationFailedException extends RuntimeException {
  public VerificationFailedException(String message) {
    super(message);
  }
}
