package dev.asa.server.work;

/** No such agreement, verification or template (or, for a stranger, none they may see). */
public final class NotFoundException extends RuntimeException {
  public NotFoundException(String message) {
    super(message);
  }
}
