package dev.asa.server.work;

/** A route that answers anonymous callers only for public data was called without a signature. */
public final class UnauthenticatedException extends RuntimeException {
  public UnauthenticatedException(String message) {
    super(message);
  }
}
