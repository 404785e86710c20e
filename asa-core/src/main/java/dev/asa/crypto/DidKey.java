package dev.asa.crypto;

import java.math.BigInteger;
import java.util.Arrays;

/**
 * The {@code did:key} method (W3C CCG) for Ed25519 keys: a DID that <em>is</em> the public key, so
 * a party can be identified, and its signatures checked, without any registry.
 *
 * <p>Form: {@code did:key:z} + base58btc(0xed 0x01 + 32 key bytes), where {@code z} is the
 * multibase prefix for base58btc and {@code 0xed 0x01} the varint multicodec code of {@code
 * ed25519-pub}. Such DIDs always start with {@code did:key:z6Mk}.
 */
public final class DidKey {

  private static final String PREFIX = "did:key:";
  private static final char MULTIBASE_BASE58BTC = 'z';
  private static final byte[] ED25519_PUB_MULTICODEC = {(byte) 0xed, 0x01};
  private static final int DECODED_LENGTH = ED25519_PUB_MULTICODEC.length + Ed25519PublicKey.LENGTH;

  /** Longer base58 text cannot hold 34 bytes; checked before decoding so junk stays cheap. */
  private static final int MAX_BASE58_LENGTH = 64;

  private DidKey() {}

  /** The {@code did:key} of {@code key}. */
  public static String of(Ed25519PublicKey key) {
    byte[] payload = new byte[DECODED_LENGTH];
    System.arraycopy(ED25519_PUB_MULTICODEC, 0, payload, 0, ED25519_PUB_MULTICODEC.length);
    System.arraycopy(
        key.bytes(), 0, payload, ED25519_PUB_MULTICODEC.length, Ed25519PublicKey.LENGTH);
    return PREFIX + MULTIBASE_BASE58BTC + Base58.encode(payload);
  }

  /**
   * The Ed25519 public key named by {@code did}.
   *
   * @throws IllegalArgumentException if {@code did} is not an Ed25519 {@code did:key}; the message
   *     says which part is wrong
   */
  public static Ed25519PublicKey parse(String did) {
    if (did == null || !did.startsWith(PREFIX)) {
      throw new IllegalArgumentException(
          "not a did:key DID (it must start with 'did:key:'): " + abbreviate(did));
    }
    if (did.indexOf('#') >= 0 || did.indexOf('?') >= 0 || did.indexOf('/') >= 0) {
      throw new IllegalArgumentException(
          "expected a bare did:key DID, got a DID URL; remove the path, query or '#' fragment: "
              + abbreviate(did));
    }
    String multibase = did.substring(PREFIX.length());
    if (multibase.isEmpty() || multibase.charAt(0) != MULTIBASE_BASE58BTC) {
      throw new IllegalArgumentException(
          "did:key value must use multibase base58btc (start with 'z'): " + abbreviate(did));
    }
    String base58 = multibase.substring(1);
    if (base58.length() > MAX_BASE58_LENGTH) {
      throw new IllegalArgumentException(
          "did:key value is too long for an Ed25519 key ("
              + base58.length()
              + " base58 characters)");
    }
    byte[] payload;
    try {
      payload = Base58.decode(base58);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("did:key value is not valid base58btc: " + e.getMessage());
    }
    if (payload.length < ED25519_PUB_MULTICODEC.length
        || payload[0] != ED25519_PUB_MULTICODEC[0]
        || payload[1] != ED25519_PUB_MULTICODEC[1]) {
      throw new IllegalArgumentException(
          "did:key is not an Ed25519 key: expected multicodec ed25519-pub (0xed 0x01), found"
              + " another key type; only Ed25519 did:key DIDs (did:key:z6Mk...) are supported");
    }
    if (payload.length != DECODED_LENGTH) {
      throw new IllegalArgumentException(
          "did:key Ed25519 key has the wrong length: "
              + (payload.length - ED25519_PUB_MULTICODEC.length)
              + " bytes instead of "
              + Ed25519PublicKey.LENGTH);
    }
    return new Ed25519PublicKey(
        Arrays.copyOfRange(payload, ED25519_PUB_MULTICODEC.length, DECODED_LENGTH));
  }

  private static String abbreviate(String text) {
    if (text == null) {
      return "null";
    }
    return text.length() <= 80 ? "'" + text + "'" : "'" + text.substring(0, 77) + "...'";
  }

  /** Base58 with the Bitcoin alphabet; each leading zero byte is written as a leading '1'. */
  private static final class Base58 {

    private static final String ALPHABET =
        "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz";
    private static final BigInteger BASE = BigInteger.valueOf(58);

    static String encode(byte[] bytes) {
      int zeros = 0;
      while (zeros < bytes.length && bytes[zeros] == 0) {
        zeros++;
      }
      StringBuilder reversed = new StringBuilder();
      BigInteger value = new BigInteger(1, bytes);
      while (value.signum() > 0) {
        BigInteger[] quotientAndRemainder = value.divideAndRemainder(BASE);
        reversed.append(ALPHABET.charAt(quotientAndRemainder[1].intValue()));
        value = quotientAndRemainder[0];
      }
      reversed.append("1".repeat(zeros));
      return reversed.reverse().toString();
    }

    static byte[] decode(String text) {
      if (text.isEmpty()) {
        throw new IllegalArgumentException("it is empty");
      }
      int zeros = 0;
      while (zeros < text.length() && text.charAt(zeros) == '1') {
        zeros++;
      }
      BigInteger value = BigInteger.ZERO;
      for (int i = zeros; i < text.length(); i++) {
        int digit = ALPHABET.indexOf(text.charAt(i));
        if (digit < 0) {
          throw new IllegalArgumentException(
              "character '"
                  + text.charAt(i)
                  + "' at index "
                  + i
                  + " is not in the base58 alphabet");
        }
        value = value.multiply(BASE).add(BigInteger.valueOf(digit));
      }
      byte[] magnitude = value.signum() == 0 ? new byte[0] : value.toByteArray();
      // toByteArray adds a zero byte in front when the top bit is set (the sign); drop it.
      int start = magnitude.length > 1 && magnitude[0] == 0 ? 1 : 0;
      byte[] out = new byte[zeros + magnitude.length - start];
      System.arraycopy(magnitude, start, out, zeros, magnitude.length - start);
      return out;
    }
  }
}
