package dev.asa.server.store;

/**
 * The database cannot be reached or used right now (connection refused, pool exhausted, disk full,
 * file locked by another process...). Carries a hint a person can act on; the HTTP layer answers
 * 503.
 */
public final class StoreUnavailableException extends RuntimeException {

  private static final long serialVersionUID = 1L;

  private final String hint;

  public StoreUnavailableException(String problem, String hint, Throwable cause) {
    super((problem.endsWith(".") ? problem + " " : problem + ". ") + hint, cause);
    this.hint = hint;
  }

  /** What to check, e.g. "check that PostgreSQL is running and accepts connections". */
  public String hint() {
    return hint;
  }
}
