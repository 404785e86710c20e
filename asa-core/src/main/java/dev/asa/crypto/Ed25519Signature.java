package dev.asa.crypto;

import java.util.Arrays;

/**
 * An Ed25519 signature (RFC 8032): 64 bytes.
 *
 * @param bytes the signature; copied on the way in and on the way out
 */
public record Ed25519Signature(byte[] bytes) {

  /** Length of an Ed25519 signature in bytes. */
  public static final int LENGTH = 64;

  public Ed25519Signature {
    if (bytes == null || bytes.length != LENGTH) {
      throw new IllegalArgumentException(
          "an Ed25519 signature is "
              + LENGTH
              + " bytes, got "
              + (bytes == null ? "null" : bytes.length));
    }
    bytes = bytes.clone();
  }

  /**
   * Reads a signature written by {@link #toBase64Url}.
   *
   * @throws IllegalArgumentException if the text is not strict base64url of 64 bytes
   */
  public static Ed25519Signature fromBase64Url(String text) {
    return new Ed25519Signature(Base64Url.decode("Ed25519 signature", text));
  }

  /** Unpadded base64url, 86 characters. */
  public String toBase64Url() {
    return Base64Url.encode(bytes);
  }

  /** The signature bytes (a copy). */
  @Override
  public byte[] bytes() {
    return bytes.clone();
  }

  /** Lets the verifier read the bytes without a copy; never hand this array out. */
  byte[] unsafeBytes() {
    return bytes;
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof Ed25519Signature other && Arrays.equals(bytes, other.bytes);
  }

  @Override
  public int hashCode() {
    return Arrays.hashCode(bytes);
  }

  @Override
  public String toString() {
    return "Ed25519Signature[" + toBase64Url() + "]";
  }
}
