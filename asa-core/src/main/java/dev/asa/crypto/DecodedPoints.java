package dev.asa.crypto;

import java.nio.charset.StandardCharsets;
import java.util.concurrent.ConcurrentHashMap;
import org.bouncycastle.math.ec.rfc8032.Ed25519;

/**
 * Ed25519 public keys decoded to curve points, kept for the keys seen recently. Verifying a
 * signature first decodes the key (a square root in the field, about a tenth of a verification),
 * and a server verifies the same few keys over and over: every request of a party, every signature
 * it adds.
 *
 * <p>The decoding is BouncyCastle's own ({@link Ed25519#validatePublicKeyPartialExport}: the same
 * checks the byte-array verification makes, so a key is accepted or refused exactly as before; the
 * RFC 8032 vectors and the flipped-bit tests hold). A key that does not decode is not kept.
 *
 * <p>Bounded without a policy worth a library: past {@link #MAX_KEYS} keys the map is emptied and
 * fills again with the keys in use, so a caller presenting endless new keys costs it nothing but
 * the decoding it would have paid anyway.
 */
final class DecodedPoints {
  private DecodedPoints() {}

  static final int MAX_KEYS = 4096;

  private static final ConcurrentHashMap<String, Ed25519.PublicPoint> POINTS =
      new ConcurrentHashMap<>();

  /** The decoded point of a 32-byte key, or null if it is not a valid encoding of one. */
  static Ed25519.PublicPoint of(byte[] key) {
    // ISO-8859-1 maps each byte to one char: a cheap, exact key for the map.
    String id = new String(key, StandardCharsets.ISO_8859_1);
    Ed25519.PublicPoint point = POINTS.get(id);
    if (point != null) {
      return point;
    }
    point = Ed25519.validatePublicKeyPartialExport(key, 0);
    if (point != null) {
      if (POINTS.size() >= MAX_KEYS) {
        POINTS.clear();
      }
      POINTS.put(id, point);
    }
    return point;
  }
}
