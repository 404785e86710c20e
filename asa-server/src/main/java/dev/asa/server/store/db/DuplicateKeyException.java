package dev.asa.server.store.db;

/**
 * A unique key was already taken: an agreement id that exists, an idempotency key another request
 * stored first, an event seq or deliverable attempt already written. Nothing of the transaction was
 * written.
 */
public final class DuplicateKeyException extends RuntimeException {

  private static final long serialVersionUID = 1L;

  public DuplicateKeyException(String message, Throwable cause) {
    super(message, cause);
  }
}
