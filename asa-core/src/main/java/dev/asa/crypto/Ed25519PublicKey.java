package dev.asa.crypto;

import java.util.Arrays;
import java.util.Objects;
import org.bouncycastle.math.ec.rfc8032.Ed25519;

/**
 * An Ed25519 public key (RFC 8032): the 32-byte encoded curve point.
 *
 * <p>Only the length is checked on construction. A 32-byte string that is not a valid point simply
 * verifies nothing: {@link #verify} returns false for it.
 *
 * @param bytes the encoded key; copied on the way in and on the way out
 */
public record Ed25519PublicKey(byte[] bytes) {

  /** Length of an encoded Ed25519 public key in bytes. */
  public static final int LENGTH = 32;

  public Ed25519PublicKey {
    if (bytes == null || bytes.length != LENGTH) {
      throw new IllegalArgumentException(
          "an Ed25519 public key is "
              + LENGTH
              + " bytes, got "
              + (bytes == null ? "null" : bytes.length));
    }
    bytes = bytes.clone();
  }

  /**
   * Reads a key written by {@link #toBase64Url}.
   *
   * @throws IllegalArgumentException if the text is not strict base64url of 32 bytes
   */
  public static Ed25519PublicKey fromBase64Url(String text) {
    return new Ed25519PublicKey(Base64Url.decode("Ed25519 public key", text));
  }

  /** Unpadded base64url, 43 characters (the JWK "x" member). */
  public String toBase64Url() {
    return Base64Url.encode(bytes);
  }

  /**
   * Whether {@code signature} is this key's Ed25519 signature of exactly {@code message}.
   *
   * <p>The key must first decode as BouncyCastle decodes it (kept for the next verification by the
   * same key, {@link DecodedPoints}); then the machine's libsodium verifies where it can be used
   * ({@link Libsodium}: faster, and stricter about keys and Rs of small order), else BouncyCastle's
   * RFC 8032 implementation, called directly (considerably faster than through JCA). Both refuse
   * non-canonical signatures (S not reduced).
   */
  public boolean verify(byte[] message, Ed25519Signature signature) {
    Objects.requireNonNull(message, "message");
    Objects.requireNonNull(signature, "signature");
    Ed25519.PublicPoint point = DecodedPoints.of(bytes);
    if (point == null) {
      return false;
    }
    return Libsodium.available()
        ? Libsodium.verify(signature.unsafeBytes(), message, bytes)
        : Ed25519.verify(signature.unsafeBytes(), 0, point, message, 0, message.length);
  }

  /** What verifies signatures in this process (libsodium or BouncyCastle), for a start-up line. */
  public static String verifier() {
    return Libsodium.description();
  }

  /** The key bytes (a copy). */
  @Override
  public byte[] bytes() {
    return bytes.clone();
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof Ed25519PublicKey other && Arrays.equals(bytes, other.bytes);
  }

  @Override
  public int hashCode() {
    return Arrays.hashCode(bytes);
  }

  @Override
  public String toString() {
    return "Ed25519PublicKey[" + toBase64Url() + "]";
  }
}
