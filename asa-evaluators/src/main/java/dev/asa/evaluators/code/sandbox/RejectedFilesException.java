package dev.asa.evaluators.code.sandbox;

/**
 * The files given to a sandbox were refused before anything ran; the message says which and why.
 */
public final class RejectedFilesException extends IllegalArgumentException {
  private static final long serialVersionUID = 1L;

  public RejectedFilesException(String message) {
    super(message);
  }
}
