package dev.asa.server.timers;

import java.time.Duration;
import java.time.Instant;
import java.util.Objects;
import java.util.Optional;
import java.util.random.RandomGenerator;

/**
 * When to try again after a failed attempt, and when to stop: exponential backoff from {@code
 * first}, doubling, capped at {@code cap}, with +-20% jitter (so many failures at once do not all
 * come back in the same instant); after {@code maxAttempts} failed attempts the work is dead (the
 * caller records it and never claims it again). Shared by durable timers and the outbox; the store
 * only records what this decides.
 */
public record RetryPolicy(Duration first, Duration cap, int maxAttempts) {

  /**
   * Timers: ten failed attempts (1 s, 2 s ... 256 s apart, about 8.5 minutes in all). A timer's
   * action only reads and writes the store, so one that fails ten times running while the store
   * answers the claims is a bug or a broken agreement, not a blip: better left dead and shown to an
   * operator than retried forever.
   */
  public static final RetryPolicy TIMERS =
      new RetryPolicy(Duration.ofSeconds(1), Duration.ofMinutes(15), 10);

  /**
   * Outbox messages: 300 failed attempts, about three days (the first ten reach the 15 minute cap
   * after some 17 minutes, the other 290 are 15 minutes apart), so a receiver down for a long
   * weekend still gets its webhooks, and a message to one that never comes back stops at last.
   */
  public static final RetryPolicy OUTBOX =
      new RetryPolicy(Duration.ofSeconds(1), Duration.ofMinutes(15), 300);

  public RetryPolicy {
    Objects.requireNonNull(first, "first");
    Objects.requireNonNull(cap, "cap");
    if (first.isNegative() || first.isZero() || cap.compareTo(first) < 0 || maxAttempts < 1) {
      throw new IllegalArgumentException(
          "a retry policy needs 0 < first <= cap and maxAttempts >= 1");
    }
  }

  /**
   * The wait after failed attempt number {@code attempts} (1 for the first failure) before the
   * next: {@code first * 2^(attempts - 1)}, capped, times a jitter factor in [0.8, 1.2).
   */
  public Duration backoff(int attempts, RandomGenerator random) {
    long base = first.toMillis() << Math.min(Math.max(attempts - 1, 0), 30);
    long capped = Math.min(base, cap.toMillis());
    double jitter = 0.8 + 0.4 * random.nextDouble();
    return Duration.ofMillis((long) (capped * jitter));
  }

  /**
   * After failed attempt number {@code attempts} at {@code now}: when to try again, or empty when
   * that was the last attempt allowed and the work is dead.
   */
  public Optional<Instant> next(int attempts, Instant now, RandomGenerator random) {
    return attempts >= maxAttempts
        ? Optional.empty()
        : Optional.of(now.plus(backoff(attempts, random)));
  }
}
