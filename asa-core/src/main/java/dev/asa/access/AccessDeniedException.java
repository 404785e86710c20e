package dev.asa.access;

/**
 * A caller may not do this. {@link #hidesExistence()} is true for strangers: they get the same
 * answer as for an agreement that does not exist (404), so that probing ids reveals nothing.
 * Parties acting out of their role get 403 with the reason.
 */
public final class AccessDeniedException extends RuntimeException {
  private final boolean hidesExistence;

  private AccessDeniedException(String message, boolean hidesExistence) {
    super(message);
    this.hidesExistence = hidesExistence;
  }

  public static AccessDeniedException notFound(String agreementId) {
    return new AccessDeniedException("no agreement with id '" + agreementId + "'", true);
  }

  public static AccessDeniedException forbidden(String reason) {
    return new AccessDeniedException(reason, false);
  }

  public boolean hidesExistence() {
    return hidesExistence;
  }
}
