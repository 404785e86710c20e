package dev.asa.server.store.db;

/**
 * The agreement changed (or vanished) since the caller read it: the commit was refused and nothing
 * was written. The HTTP layer answers 409; the caller may reload and retry.
 */
public final class StaleVersionException extends RuntimeException {

  private static final long serialVersionUID = 1L;

  private final String agreementId;
  private final long expectedVersion;

  public StaleVersionException(String agreementId, long expectedVersion) {
    super(
        "agreement "
            + agreementId
            + " changed concurrently (expected version "
            + expectedVersion
            + ")");
    this.agreementId = agreementId;
    this.expectedVersion = expectedVersion;
  }

  public String agreementId() {
    return agreementId;
  }

  public long expectedVersion() {
    return expectedVersion;
  }
}
