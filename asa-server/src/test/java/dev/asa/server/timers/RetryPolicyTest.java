package dev.asa.server.timers;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.time.Instant;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class RetryPolicyTest {

  private static final Instant NOW = Instant.parse("2025-06-01T12:00:00Z");

  @Test
  void backoffDoublesFromOneSecondToTheCapWithTwentyPercentJitter() {
    SplittableRandom random = new SplittableRandom(13);
    RetryPolicy p = RetryPolicy.OUTBOX;
    long[] nominalSeconds = {1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 900, 900, 900};
    for (int attempt = 1; attempt <= nominalSeconds.length; attempt++) {
      long nominal = nominalSeconds[attempt - 1] * 1000;
      for (int i = 0; i < 50; i++) {
        long wait = p.backoff(attempt, random).toMillis();
        assertThat(wait)
            .as("attempt %d", attempt)
            .isGreaterThanOrEqualTo((long) (nominal * 0.8))
            .isLessThan((long) (nominal * 1.2) + 1);
      }
    }
    // Far past the cap the shift does not overflow.
    assertThat(p.backoff(10_000, random)).isLessThanOrEqualTo(Duration.ofMinutes(18));
  }

  @Test
  void theSameSeedGivesTheSameScheduleAndJitterSpreadsIt() {
    RetryPolicy p = RetryPolicy.TIMERS;
    assertThat(p.backoff(5, new SplittableRandom(7)))
        .isEqualTo(p.backoff(5, new SplittableRandom(7)));
    SplittableRandom random = new SplittableRandom(7);
    assertThat(
            java.util.stream.IntStream.range(0, 20)
                .mapToObj(i -> p.backoff(5, random))
                .distinct()
                .count())
        .isGreaterThan(10);
  }

  @Test
  void afterTheLastAttemptAllowedThereIsNoNext() {
    SplittableRandom random = new SplittableRandom(1);
    RetryPolicy p = new RetryPolicy(Duration.ofSeconds(1), Duration.ofMinutes(15), 3);
    assertThat(p.next(1, NOW, random)).get().matches(t -> t.isAfter(NOW));
    assertThat(p.next(2, NOW, random)).isPresent();
    assertThat(p.next(3, NOW, random)).isEmpty();
    assertThat(p.next(4, NOW, random)).isEmpty();
  }

  @Test
  void theDefaultsGiveTimersMinutesAndOutboxMessagesDays() {
    assertThat(RetryPolicy.TIMERS.maxAttempts()).isEqualTo(10);
    assertThat(RetryPolicy.OUTBOX.maxAttempts()).isEqualTo(300);
    assertThat(nominalTotal(RetryPolicy.TIMERS))
        .isBetween(Duration.ofMinutes(8), Duration.ofMinutes(9));
    assertThat(nominalTotal(RetryPolicy.OUTBOX))
        .isBetween(Duration.ofDays(3), Duration.ofDays(3).plusHours(1));
  }

  /** The time from the first failure to the last attempt, without jitter. */
  private static Duration nominalTotal(RetryPolicy p) {
    Duration total = Duration.ZERO;
    for (int attempt = 1; attempt < p.maxAttempts(); attempt++) {
      long nominal =
          Math.min(p.first().toMillis() << Math.min(attempt - 1, 30), p.cap().toMillis());
      total = total.plusMillis(nominal);
    }
    return total;
  }

  @Test
  void refusesNonsense() {
    assertThatThrownBy(() -> new RetryPolicy(Duration.ZERO, Duration.ofSeconds(1), 1))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> new RetryPolicy(Duration.ofSeconds(2), Duration.ofSeconds(1), 1))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> new RetryPolicy(Duration.ofSeconds(1), Duration.ofSeconds(1), 0))
        .isInstanceOf(IllegalArgumentException.class);
  }
}
