package dev.asa.signedrequests;

import dev.asa.crypto.Digest;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import java.util.Objects;

/**
 * Where a {@link RequestVerifier} records the (keyid, nonce) pairs it accepted, so that each is
 * accepted once. {@link NonceCache} keeps them in this process's memory; a server whose requests
 * must stay refused across a restart, or across several nodes, records them in its database too
 * (see {@link #layered}).
 *
 * <p>Every implementation keeps a pair for the same window, {@link #keepUntil}: as long as a
 * request carrying it could still pass the verifier's {@code created} check, and no longer.
 */
public interface NonceRegistry {

  /** The skew this registry was sized for; a verifier must not accept a larger one. */
  Duration maxSkew();

  /**
   * Records that {@code keyId} used {@code nonce} in a request created at {@code created}, unless
   * it already did, atomically: of two racing calls with the same pair, one wins.
   *
   * @return true the first time a pair is seen within its window, false for a replay
   * @throws RequestAuthException with {@link RequestAuthException.Reason#NONCE_CACHE_FULL} when the
   *     registry cannot take more pairs; it never forgets a live pair to make room
   */
  boolean firstUse(String keyId, String nonce, Instant created);

  /**
   * The last epoch second at which a pair must still be remembered. The verifier accepts {@code
   * created} up to {@code maxSkew} either side of its clock, so a pair is kept until {@code
   * maxSkew} after the later of {@code created} (rounded up to a whole second) and {@code now}, and
   * never longer than {@code 2 x maxSkew} from now.
   */
  static long keepUntil(Instant created, Instant now, Duration maxSkew) {
    long skew = maxSkew.toSeconds();
    long nowSecond = now.getEpochSecond();
    long createdSecond = created.getEpochSecond() + (created.getNano() > 0 ? 1 : 0);
    long from = Math.min(Math.max(createdSecond, nowSecond), nowSecond + skew);
    return from + skew;
  }

  /** How many bytes of a pair's {@link #fingerprint} a registry keeps. */
  int FINGERPRINT_BYTES = 16;

  /**
   * What a registry keeps of a pair: the first 128 bits of SHA-256(len(keyId) || keyId || nonce),
   * the length as 4 bytes big-endian and both strings as UTF-8. The length prefix keeps ("ab", "c")
   * and ("a", "bc") apart; 128 bits make a chance collision about never happen, and a chosen one
   * against another party's pair is a second preimage.
   */
  static byte[] fingerprint(String keyId, String nonce) {
    byte[] key = keyId.getBytes(StandardCharsets.UTF_8);
    MessageDigest sha256 = Digest.newSha256();
    sha256.update(ByteBuffer.allocate(4).putInt(key.length).array());
    sha256.update(key);
    return Arrays.copyOf(sha256.digest(nonce.getBytes(StandardCharsets.UTF_8)), FINGERPRINT_BYTES);
  }

  /**
   * A registry that asks {@code front} first and {@code shared} only for pairs {@code front} has
   * not seen: a replay to the same process is refused from memory, and the shared registry (the
   * database) decides for everything else. {@code front}'s cap still fails closed, and bounds how
   * many pairs this process can add to {@code shared}.
   */
  static NonceRegistry layered(NonceRegistry front, NonceRegistry shared) {
    Objects.requireNonNull(front, "front");
    Objects.requireNonNull(shared, "shared");
    if (!front.maxSkew().equals(shared.maxSkew())) {
      throw new IllegalArgumentException(
          "both registries must be built for the same skew, not "
              + front.maxSkew()
              + " and "
              + shared.maxSkew());
    }
    return new NonceRegistry() {
      @Override
      public Duration maxSkew() {
        return front.maxSkew();
      }

      @Override
      public boolean firstUse(String keyId, String nonce, Instant created) {
        return front.firstUse(keyId, nonce, created) && shared.firstUse(keyId, nonce, created);
      }
    };
  }
}
