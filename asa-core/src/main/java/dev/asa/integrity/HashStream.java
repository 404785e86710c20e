package dev.asa.integrity;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;

/**
 * Deterministic, unbiased choices from SHA-256 in counter mode, simple enough to reimplement
 * anywhere so that anyone can recompute a draw:
 *
 * <ol>
 *   <li>prefix = for the domain (UTF-8) and then each part in order: its length as a 4-byte
 *       big-endian integer, then its bytes;
 *   <li>block i (i = 0, 1, ...) = SHA-256(prefix || i as an 8-byte big-endian integer), read as
 *       four big-endian unsigned 64-bit values, in order;
 *   <li>a number below n: take values until one is at least 2^64 mod n (rejection, so that every
 *       result is equally likely), and answer that value mod n.
 * </ol>
 */
final class HashStream {
  private final byte[] prefix;
  private long block;
  private ByteBuffer values = ByteBuffer.allocate(0);

  HashStream(String domain, byte[]... parts) {
    ByteBuffer b = ByteBuffer.allocate(length(domain, parts));
    put(b, domain.getBytes(StandardCharsets.UTF_8));
    for (byte[] p : parts) {
      put(b, p);
    }
    prefix = b.array();
  }

  private static int length(String domain, byte[][] parts) {
    int n = 4 + domain.getBytes(StandardCharsets.UTF_8).length;
    for (byte[] p : parts) {
      n = Math.addExact(n, 4 + p.length);
    }
    return n;
  }

  private static void put(ByteBuffer b, byte[] bytes) {
    b.putInt(bytes.length).put(bytes);
  }

  /** The next unsigned 64-bit value (as a long's bits). */
  long nextLong() {
    if (!values.hasRemaining()) {
      MessageDigest sha = sha256();
      sha.update(prefix);
      sha.update(ByteBuffer.allocate(8).putLong(block++).array());
      values = ByteBuffer.wrap(sha.digest());
    }
    return values.getLong();
  }

  /** A number from 0 to {@code n - 1}, each equally likely. */
  int below(int n) {
    if (n < 1) {
      throw new IllegalArgumentException("nothing to choose from: n = " + n);
    }
    long threshold = Long.remainderUnsigned(-n, n); // 2^64 mod n
    while (true) {
      long v = nextLong();
      if (Long.compareUnsigned(v, threshold) >= 0) {
        return (int) Long.remainderUnsigned(v, n);
      }
    }
  }

  private static MessageDigest sha256() {
    try {
      return MessageDigest.getInstance("SHA-256");
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("every Java platform must provide SHA-256", e);
    }
  }
}
