package dev.asa.server.work;

/** The request cannot apply to the agreement as it is now (409): a race, a duplicate, a repeat. */
public final class ConflictException extends RuntimeException {
  public ConflictException(String message) {
    super(message);
  }
}
