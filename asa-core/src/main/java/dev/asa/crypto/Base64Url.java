package dev.asa.crypto;

import java.util.Base64;

/**
 * Strict base64url without padding (RFC 4648 section 5), the encoding of keys and signatures.
 *
 * <p>Decoding accepts exactly one spelling per byte string: no padding, no whitespace, no
 * characters from the standard alphabet, and no stray bits in the last character. A lenient decoder
 * would let several texts stand for the same key or signature, which makes documents that embed
 * them malleable.
 */
public final class Base64Url {

  private static final Base64.Encoder ENCODER = Base64.getUrlEncoder().withoutPadding();
  private static final Base64.Decoder DECODER = Base64.getUrlDecoder();

  private Base64Url() {}

  public static String encode(byte[] bytes) {
    return ENCODER.encodeToString(bytes);
  }

  /**
   * Decodes {@code text}, naming {@code field} (for example {@code "signature"} or {@code "key file
   * member d"}) in the error so the reader knows which value to fix.
   *
   * @throws IllegalArgumentException if {@code text} is not canonical unpadded base64url
   */
  public static byte[] decode(String field, String text) {
    if (text == null) {
      throw new IllegalArgumentException(field + " is missing: expected base64url text");
    }
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      if (c == '=') {
        throw new IllegalArgumentException(
            field + " must be base64url without padding; remove the trailing '=' characters");
      }
      if (!isAlphabet(c)) {
        throw new IllegalArgumentException(
            field
                + " is not base64url: character "
                + describe(c)
                + " at index "
                + i
                + " is outside A-Z a-z 0-9 - _");
      }
    }
    if (text.length() % 4 == 1) {
      throw new IllegalArgumentException(
          field + " is not base64url: a length of " + text.length() + " characters is impossible");
    }
    byte[] bytes = DECODER.decode(text);
    // The last character may carry bits beyond the data; only the spelling with zeros is accepted.
    if (!encode(bytes).equals(text)) {
      throw new IllegalArgumentException(
          field + " is not canonical base64url: its last character has non-zero unused bits");
    }
    return bytes;
  }

  private static boolean isAlphabet(char c) {
    return (c >= 'A' && c <= 'Z')
        || (c >= 'a' && c <= 'z')
        || (c >= '0' && c <= '9')
        || c == '-'
        || c == '_';
  }

  private static String describe(char c) {
    return c >= 0x21 && c < 0x7f ? "'" + c + "'" : String.format("U+%04X", (int) c);
  }
}
