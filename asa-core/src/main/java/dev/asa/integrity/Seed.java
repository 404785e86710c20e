package dev.asa.integrity;

import dev.asa.crypto.Base64Url;
import java.util.Arrays;

/**
 * The public randomness of a verifiable draw: the server's deterministic Ed25519 signature over the
 * agreement hash (RFC 8032 signatures are deterministic, so the server cannot try seeds until one
 * picks the evaluator it likes, and anyone with the server's key can check the seed). Immutable:
 * the bytes are copied on the way in and out.
 */
public final class Seed {

  /** Fewer bytes than a SHA-256 digest would make the draw guessable. */
  public static final int MIN_LENGTH = 32;

  public static final int MAX_LENGTH = 1024;

  private final byte[] bytes;

  /**
   * @param bytes 32 to 1024 bytes (an Ed25519 signature is 64)
   */
  public Seed(byte[] bytes) {
    if (bytes == null || bytes.length < MIN_LENGTH || bytes.length > MAX_LENGTH) {
      throw new IllegalArgumentException(
          "a draw seed is "
              + MIN_LENGTH
              + " to "
              + MAX_LENGTH
              + " bytes (an Ed25519 signature is 64), got "
              + (bytes == null ? "null" : bytes.length));
    }
    this.bytes = bytes.clone();
  }

  public static Seed fromBase64Url(String text) {
    return new Seed(Base64Url.decode("draw seed", text));
  }

  public byte[] bytes() {
    return bytes.clone();
  }

  public String toBase64Url() {
    return Base64Url.encode(bytes);
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof Seed other && Arrays.equals(bytes, other.bytes);
  }

  @Override
  public int hashCode() {
    return Arrays.hashCode(bytes);
  }

  @Override
  public String toString() {
    return toBase64Url();
  }
}
