package dev.asa.shadow;

import dev.asa.crypto.Base64Url;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.util.Objects;

/**
 * The 256-bit secret mixed into a commitment. Without it, anyone could confirm a guess at the
 * criteria ("is there a min_words 500?") by hashing candidates against the public commitment; with
 * it, the commitment says nothing until the nonce is revealed with the criteria.
 *
 * <p>Not a record, so that it neither prints itself nor leaks through {@code toString}; it leaves
 * only through {@link #toBase64Url()}, for the store and the reveal.
 */
public final class Nonce {

  public static final int LENGTH = 32;

  private final byte[] bytes;

  private Nonce(byte[] bytes) {
    this.bytes = bytes;
  }

  /** A fresh nonce; pass the platform's {@link SecureRandom}, never a seeded one. */
  public static Nonce generate(SecureRandom random) {
    Objects.requireNonNull(random, "random");
    byte[] b = new byte[LENGTH];
    random.nextBytes(b);
    return new Nonce(b);
  }

  /**
   * A nonce read back from the store or a revealed bundle: canonical unpadded base64url of 32
   * bytes.
   */
  public static Nonce fromBase64Url(String text) {
    byte[] b = Base64Url.decode("nonce", text);
    if (b.length != LENGTH) {
      throw new IllegalArgumentException(
          "nonce must be "
              + LENGTH
              + " bytes (43 base64url characters), found "
              + b.length
              + " bytes");
    }
    return new Nonce(b);
  }

  public String toBase64Url() {
    return Base64Url.encode(bytes);
  }

  /** The raw bytes (a copy), as the key of the hardening ids. */
  byte[] bytes() {
    return bytes.clone();
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof Nonce other && MessageDigest.isEqual(bytes, other.bytes);
  }

  @Override
  public int hashCode() {
    return java.util.Arrays.hashCode(bytes);
  }

  @Override
  public String toString() {
    return "Nonce[hidden]";
  }
}
