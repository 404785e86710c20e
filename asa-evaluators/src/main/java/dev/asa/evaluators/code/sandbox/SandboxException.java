package dev.asa.evaluators.code.sandbox;

/**
 * The sandbox itself failed (the work directory could not be made, bubblewrap could not start): an
 * operator's problem, never the verdict on the code under test.
 */
public final class SandboxException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  public SandboxException(String message, Throwable cause) {
    super(message, cause);
  }
}
