package dev.asa.crypto;

import com.fasterxml.jackson.databind.JsonNode;
import dev.asa.json.Jcs;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Arrays;
import java.util.HexFormat;

/**
 * A SHA-256 digest, written {@code sha256:<64 lowercase hex>} everywhere in this project.
 *
 * <p>There is one spelling per digest: {@link #parse} refuses upper case, other algorithms and
 * wrong lengths, so comparing the text of two digests is as good as comparing the digests.
 *
 * @param bytes the 32 digest bytes; copied on the way in and on the way out
 */
public record Digest(byte[] bytes) {

  /** Length of a SHA-256 digest in bytes. */
  public static final int LENGTH = 32;

  private static final String PREFIX = "sha256:";
  private static final HexFormat HEX = HexFormat.of();

  /** The all-zero digest, the "previous hash" of the first link of a hash chain. */
  public static final String ZERO = PREFIX + "0".repeat(2 * LENGTH);

  public Digest {
    if (bytes == null || bytes.length != LENGTH) {
      throw new IllegalArgumentException(
          "a SHA-256 digest is "
              + LENGTH
              + " bytes, got "
              + (bytes == null ? "null" : bytes.length));
    }
    bytes = bytes.clone();
  }

  /** SHA-256 of {@code data}. */
  public static Digest sha256(byte[] data) {
    return new Digest(newSha256().digest(data));
  }

  // getInstance looks the algorithm up among the installed providers on every call (measured: as
  // long as hashing a few hundred bytes); a copy of one instance made once is the same digest.
  // Never used itself, only copied, so it is shared by no two threads.
  private static final MessageDigest SHA256 = lookUpSha256();

  /** A new SHA-256 digest, ready to use (each call its own: a MessageDigest is not thread-safe). */
  public static MessageDigest newSha256() {
    try {
      return (MessageDigest) SHA256.clone();
    } catch (CloneNotSupportedException e) {
      return lookUpSha256(); // a provider whose digest cannot be copied: look it up each time
    }
  }

  private static MessageDigest lookUpSha256() {
    try {
      return MessageDigest.getInstance("SHA-256");
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("every Java platform must provide SHA-256", e);
    }
  }

  /** SHA-256 of the RFC 8785 canonical form of {@code json}: the project's digest of a document. */
  public static Digest ofCanonicalJson(JsonNode json) {
    return sha256(Jcs.canonicalize(json));
  }

  /**
   * Reads {@code sha256:} followed by exactly 64 lowercase hex digits.
   *
   * @throws IllegalArgumentException for any other text
   */
  public static Digest parse(String text) {
    if (text == null) {
      throw new IllegalArgumentException("digest is missing: expected sha256:<64 lowercase hex>");
    }
    if (!text.startsWith(PREFIX)) {
      throw new IllegalArgumentException(
          "digest must start with 'sha256:' (the only supported algorithm), got: "
              + abbreviate(text));
    }
    String hex = text.substring(PREFIX.length());
    if (hex.length() != 2 * LENGTH) {
      throw new IllegalArgumentException(
          "digest must have " + 2 * LENGTH + " hex digits after 'sha256:', got " + hex.length());
    }
    for (int i = 0; i < hex.length(); i++) {
      char c = hex.charAt(i);
      if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'))) {
        throw new IllegalArgumentException(
            "digest must be lowercase hex after 'sha256:', found '" + c + "' at hex digit " + i);
      }
    }
    return new Digest(HEX.parseHex(hex));
  }

  /** The digest bytes (a copy). */
  @Override
  public byte[] bytes() {
    return bytes.clone();
  }

  /** The 64 lowercase hex digits, without the {@code sha256:} prefix. */
  public String hex() {
    return HEX.formatHex(bytes);
  }

  /** {@code sha256:<hex>}, the form that {@link #parse} reads. */
  @Override
  public String toString() {
    return PREFIX + hex();
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof Digest other && Arrays.equals(bytes, other.bytes);
  }

  @Override
  public int hashCode() {
    return Arrays.hashCode(bytes);
  }

  private static String abbreviate(String text) {
    return text.length() <= 80 ? "'" + text + "'" : "'" + text.substring(0, 77) + "...'";
  }
}
