package dev.asa.signedrequests;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A token bucket per key (a caller's keyid, or a client address): {@code burst} requests at once,
 * then {@code permitsPerSecond} on average.
 *
 * <p>Each bucket is kept as one number, the time at which it would be full again (the "theoretical
 * arrival time" of the generic cell rate algorithm), in integer nanoseconds, so there is no
 * floating-point drift: with 10 permits per second, a refused caller told to retry after 100 ms is
 * allowed at exactly 100 ms. A bucket whose full time has passed is indistinguishable from a new
 * one, so it is dropped; sweeps run after as many calls as there are buckets, which keeps the work
 * amortised constant and memory proportional to the keys active in the last {@code burst /
 * permitsPerSecond} seconds. A hard cap on keys (default {@value #DEFAULT_MAX_KEYS}) bounds memory
 * against a flood of distinct keys; past it, new keys are refused until buckets empty out, which
 * fails closed like {@link NonceCache}.
 *
 * <p>Thread-safe: each bucket is updated atomically.
 */
public final class RateLimiter {

  /** Default cap on the number of keys tracked at once. */
  public static final int DEFAULT_MAX_KEYS = 1_000_000;

  private static final long NANOS_PER_SECOND = 1_000_000_000L;
  private static final int MIN_SWEEP_INTERVAL = 1024;

  /**
   * Whether a request may proceed.
   *
   * @param allowed true if a permit was taken
   * @param retryAfter when refused, how long until a permit will be available; zero when allowed
   */
  public record Decision(boolean allowed, Duration retryAfter) {
    private static final Decision ALLOWED = new Decision(true, Duration.ZERO);

    public Decision {
      Objects.requireNonNull(retryAfter, "retryAfter");
      if (allowed != retryAfter.isZero()) {
        throw new IllegalArgumentException(
            "an allowed decision has a zero retryAfter and a refusal a positive one");
      }
    }

    /** {@link #retryAfter} rounded up to whole seconds, for the HTTP Retry-After header. */
    public long retryAfterSeconds() {
      long seconds = retryAfter.getSeconds();
      return retryAfter.getNano() > 0 ? seconds + 1 : seconds;
    }
  }

  private final Clock clock;
  private final long emissionNanos;
  private final long burstNanos;
  private final int maxKeys;

  /** Key to the epoch nanosecond at which its bucket is full again. */
  private final ConcurrentHashMap<String, Long> fullAt = new ConcurrentHashMap<>();

  private final AtomicLong callsSinceSweep = new AtomicLong();
  private final AtomicBoolean sweeping = new AtomicBoolean();

  /** A limiter tracking at most {@value #DEFAULT_MAX_KEYS} keys. */
  public RateLimiter(Clock clock, double permitsPerSecond, int burst) {
    this(clock, permitsPerSecond, burst, DEFAULT_MAX_KEYS);
  }

  /**
   * @param clock the server's clock
   * @param permitsPerSecond the sustained rate per key; at most one per nanosecond
   * @param burst how many requests a rested key may make at once; at least 1
   * @param maxKeys the most keys tracked at once; new keys beyond it are refused
   */
  public RateLimiter(Clock clock, double permitsPerSecond, int burst, int maxKeys) {
    this.clock = Objects.requireNonNull(clock, "clock");
    if (!(permitsPerSecond > 0) || permitsPerSecond > NANOS_PER_SECOND) {
      throw new IllegalArgumentException(
          "permitsPerSecond must be positive and at most 1e9, got " + permitsPerSecond);
    }
    if (burst < 1) {
      throw new IllegalArgumentException("burst must be at least 1, got " + burst);
    }
    if (maxKeys < 1) {
      throw new IllegalArgumentException("maxKeys must be at least 1, got " + maxKeys);
    }
    double emission = Math.rint(NANOS_PER_SECOND / permitsPerSecond);
    // A bucket must fill in well under the ~290 years a long of nanoseconds can count.
    if (emission * burst > Long.MAX_VALUE / 4.0) {
      throw new IllegalArgumentException(
          "permitsPerSecond "
              + permitsPerSecond
              + " with burst "
              + burst
              + " is too slow to track");
    }
    this.emissionNanos = Math.max(1, (long) emission);
    this.burstNanos = emissionNanos * burst;
    this.maxKeys = maxKeys;
  }

  /** Takes a permit for {@code key} if one is available. */
  public Decision tryAcquire(String key) {
    Objects.requireNonNull(key, "key");
    long now = nanos(clock.instant());
    maybeSweep(now);
    if (fullAt.size() >= maxKeys && !fullAt.containsKey(key)) {
      sweep(now);
      if (fullAt.size() >= maxKeys && !fullAt.containsKey(key)) {
        // Every bucket tracked now is full again, hence droppable, within burstNanos.
        return new Decision(false, Duration.ofNanos(burstNanos));
      }
    }
    long[] refusedFor = {0};
    fullAt.compute(
        key,
        (k, previous) -> {
          long start = previous == null ? now : Math.max(previous, now);
          long next = start + emissionNanos;
          if (next - now > burstNanos) {
            refusedFor[0] = next - now - burstNanos;
            return previous;
          }
          return next;
        });
    return refusedFor[0] == 0
        ? Decision.ALLOWED
        : new Decision(false, Duration.ofNanos(refusedFor[0]));
  }

  /** The number of keys currently tracked (idle ones may linger until the next sweep). */
  public int trackedKeys() {
    return fullAt.size();
  }

  private void maybeSweep(long now) {
    long interval = Math.max(MIN_SWEEP_INTERVAL, fullAt.size());
    if (callsSinceSweep.incrementAndGet() >= interval) {
      sweep(now);
    }
  }

  private void sweep(long now) {
    // One sweeper at a time; others carry on, since a sweep only frees memory.
    if (!sweeping.compareAndSet(false, true)) {
      return;
    }
    try {
      callsSinceSweep.set(0);
      for (String key : fullAt.keySet()) {
        // Atomic per key, so a bucket in use by a concurrent tryAcquire is never lost.
        fullAt.computeIfPresent(key, (k, full) -> full <= now ? null : full);
      }
    } finally {
      sweeping.set(false);
    }
  }

  private static long nanos(Instant instant) {
    return Math.addExact(
        Math.multiplyExact(instant.getEpochSecond(), NANOS_PER_SECOND), instant.getNano());
  }
}
