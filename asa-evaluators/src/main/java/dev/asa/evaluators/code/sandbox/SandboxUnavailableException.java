package dev.asa.evaluators.code.sandbox;

/** No sandbox can be made on this machine (bubblewrap missing, user namespaces refused, ...). */
public final class SandboxUnavailableException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  public SandboxUnavailableException(String message) {
    super(message);
  }
}
