package dev.asa.agreement;

/**
 * The document declares an {@code asa_version} whose major version this server has no schema for.
 */
public final class UnsupportedVersionException extends RuntimeException {
  public UnsupportedVersionException(String message) {
    super(message);
  }
}
