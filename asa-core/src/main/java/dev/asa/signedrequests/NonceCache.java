package dev.asa.signedrequests;

import dev.asa.signedrequests.RequestAuthException.Reason;
import java.nio.ByteBuffer;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;

/**
 * Remembers which (keyid, nonce) pairs the server has accepted, long enough to refuse every replay.
 *
 * <p><b>How long.</b> The verifier accepts a request whose {@code created} is within {@code
 * maxSkew} of the server's clock, so once the clock passes {@code created + maxSkew} a replay is
 * refused as stale and the nonce can be forgotten. Each pair is kept until {@code maxSkew} after
 * the later of {@code created} and now, and never longer than {@code 2 x maxSkew}: a request signed
 * {@code maxSkew} in the future stays acceptable that long. Times are whole seconds, as {@code
 * created} is.
 *
 * <p><b>Memory.</b> Each pair is stored as a 128-bit fingerprint (the first half of a SHA-256 over
 * both strings), so an entry costs about 100 bytes whatever the nonce length. Expired entries are
 * dropped on the next call in bulk per second of expiry, so each entry is removed once: amortised
 * constant work. A fingerprint collision could only make a fresh nonce look used, never accept a
 * replay, and has probability about 2^-128 per pair.
 *
 * <p><b>The hard cap, and why it fails closed.</b> At most {@code maxEntries} live pairs are kept
 * (default {@value #DEFAULT_MAX_ENTRIES}, about 100 MB). When full, a new nonce is refused with
 * {@link Reason#NONCE_CACHE_FULL}, which the server should answer with 503 or 429 and a short
 * Retry-After. The alternatives are both worse: accepting without remembering, or evicting a live
 * entry, each lets an attacker replay a captured request by first flooding the cache, and growing
 * without bound lets the same flood exhaust the heap. Only requests with a valid signature reach
 * this cache, but anyone can make a key, so rate-limit by client address in front of the verifier
 * to keep honest traffic under the cap.
 *
 * <p>Thread-safe; {@link #firstUse} checks and records atomically.
 */
public final class NonceCache implements NonceRegistry {

  /** Default cap on remembered pairs. */
  public static final int DEFAULT_MAX_ENTRIES = 1_000_000;

  private final Clock clock;
  private final Duration maxSkew;
  private final int maxEntries;

  private final Object lock = new Object();
  // Guarded by lock. Every fingerprint in live is in exactly one bucket of byExpiry, keyed by the
  // last epoch second at which it must still be remembered.
  private final Set<Fingerprint> live = new HashSet<>();
  private final TreeMap<Long, List<Fingerprint>> byExpiry = new TreeMap<>();

  /** A cache holding at most {@value #DEFAULT_MAX_ENTRIES} pairs. */
  public NonceCache(Clock clock, Duration maxSkew) {
    this(clock, maxSkew, DEFAULT_MAX_ENTRIES);
  }

  /**
   * @param clock the server's clock, the same one the {@link RequestVerifier} uses
   * @param maxSkew the verifier's allowed distance between {@code created} and the clock; a whole,
   *     positive number of seconds
   * @param maxEntries the most pairs kept at once; beyond it new nonces are refused
   */
  public NonceCache(Clock clock, Duration maxSkew, int maxEntries) {
    this.clock = Objects.requireNonNull(clock, "clock");
    this.maxSkew = RequestVerifier.checkSkew(maxSkew);
    if (maxEntries < 1) {
      throw new IllegalArgumentException("maxEntries must be at least 1, got " + maxEntries);
    }
    this.maxEntries = maxEntries;
  }

  /** The skew this cache was sized for; a verifier must not accept a larger one. */
  @Override
  public Duration maxSkew() {
    return maxSkew;
  }

  /**
   * Records that {@code keyId} used {@code nonce} in a request created at {@code created}, unless
   * it already did.
   *
   * @return true the first time a pair is seen within its window, false for a replay
   * @throws RequestAuthException with {@link Reason#NONCE_CACHE_FULL} if the pair is new and the
   *     cache already holds {@code maxEntries} live pairs
   */
  @Override
  public boolean firstUse(String keyId, String nonce, Instant created) {
    Objects.requireNonNull(keyId, "keyId");
    Objects.requireNonNull(nonce, "nonce");
    Objects.requireNonNull(created, "created");
    Fingerprint fingerprint = Fingerprint.of(keyId, nonce);
    Instant now = clock.instant();
    long nowSecond = now.getEpochSecond();
    long keepUntil = NonceRegistry.keepUntil(created, now, maxSkew);
    synchronized (lock) {
      purgeBefore(nowSecond);
      if (live.contains(fingerprint)) {
        return false;
      }
      if (live.size() >= maxEntries) {
        throw new RequestAuthException(
            Reason.NONCE_CACHE_FULL,
            "the server is already tracking "
                + maxEntries
                + " recent nonces, its limit; retry in a few seconds");
      }
      live.add(fingerprint);
      byExpiry.computeIfAbsent(keepUntil, k -> new ArrayList<>()).add(fingerprint);
      return true;
    }
  }

  /** The number of pairs currently remembered (expired ones may linger until the next call). */
  public int size() {
    synchronized (lock) {
      return live.size();
    }
  }

  private void purgeBefore(long nowSecond) {
    while (!byExpiry.isEmpty() && byExpiry.firstKey() < nowSecond) {
      Map.Entry<Long, List<Fingerprint>> bucket = byExpiry.pollFirstEntry();
      // One remove per entry: Set.removeAll(List) can degrade to a scan of the list per element.
      for (Fingerprint expired : bucket.getValue()) {
        live.remove(expired);
      }
    }
  }

  /** A pair's {@link NonceRegistry#fingerprint}, as two longs. */
  private record Fingerprint(long high, long low) {
    static Fingerprint of(String keyId, String nonce) {
      ByteBuffer digest = ByteBuffer.wrap(NonceRegistry.fingerprint(keyId, nonce));
      return new Fingerprint(digest.getLong(), digest.getLong());
    }
  }
}
