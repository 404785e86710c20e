package dev.asa.signedrequests;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.asa.signedrequests.RequestAuthException.Reason;
import dev.asa.testing.MutableClock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class NonceCacheTest {

  private static final Instant NOW = Instant.ofEpochSecond(1_700_000_000);
  private static final Duration SKEW = Duration.ofSeconds(300);
  private static final String KEY = "11qYAYKxCrfVS_7TyWQHOg7hcvPapiMlrwIaaPcHURo";

  private final MutableClock clock = new MutableClock(NOW);
  private final NonceCache cache = new NonceCache(clock, SKEW);

  @Test
  void aPairIsFirstUsedOnce() {
    assertThat(cache.firstUse(KEY, "nonce-0000000001", NOW)).isTrue();
    assertThat(cache.firstUse(KEY, "nonce-0000000001", NOW)).isFalse();
    assertThat(cache.firstUse(KEY, "nonce-0000000002", NOW)).isTrue();
    assertThat(cache.firstUse("another-key", "nonce-0000000001", NOW)).isTrue();
    // The pair is one value, not a concatenation.
    assertThat(cache.firstUse(KEY + "n", "once-0000000001", NOW)).isTrue();
    assertThat(cache.size()).isEqualTo(4);
  }

  @Test
  void aPairIsRememberedWhileARequestCarryingItCouldStillBeAccepted() {
    cache.firstUse(KEY, "n", NOW);

    clock.advance(Duration.ofSeconds(300)); // created is exactly at the skew limit: still valid
    assertThat(cache.firstUse(KEY, "n", NOW)).isFalse();

    clock.advance(Duration.ofMillis(999)); // the verifier compares whole seconds
    assertThat(cache.firstUse(KEY, "n", NOW)).isFalse();

    clock.advance(Duration.ofMillis(1)); // 301 s: the verifier refuses created as stale anyway
    assertThat(cache.firstUse(KEY, "n", NOW)).isTrue();
  }

  @Test
  void aNonceCreatedInTheFutureIsRememberedTwiceTheSkew() {
    Instant future = NOW.plusSeconds(300);
    cache.firstUse(KEY, "n", future);

    clock.advance(Duration.ofSeconds(600));
    assertThat(cache.firstUse(KEY, "n", future)).isFalse();

    clock.advance(Duration.ofSeconds(1));
    assertThat(cache.firstUse(KEY, "n", future)).isTrue();
  }

  @Test
  void anAbsurdCreatedIsNotKeptForever() {
    cache.firstUse(KEY, "far", NOW.plus(Duration.ofDays(3650)));
    clock.advance(Duration.ofSeconds(601));
    cache.firstUse(KEY, "other", NOW);
    assertThat(cache.size()).isEqualTo(1);
  }

  @Test
  void expiredEntriesArePurgedAsItGoes() {
    for (int i = 0; i < 10_000; i++) {
      clock.advance(Duration.ofMillis(50)); // 500 s in all, so the first 200 s have expired
      assertThat(cache.firstUse(KEY, "nonce-" + i, clock.instant())).isTrue();
    }
    // Entries created more than 300 s ago are gone, the rest remain.
    assertThat(cache.size()).isBetween(6_000, 6_040);

    clock.advance(Duration.ofSeconds(301));
    cache.firstUse(KEY, "last", clock.instant());
    assertThat(cache.size()).isEqualTo(1);
  }

  @Test
  void aFullCacheRefusesNewNoncesButStillRecognisesReplays() {
    NonceCache small = new NonceCache(clock, SKEW, 3);
    for (int i = 0; i < 3; i++) {
      assertThat(small.firstUse(KEY, "n" + i, NOW)).isTrue();
    }

    assertThatThrownBy(() -> small.firstUse(KEY, "n3", NOW))
        .isInstanceOfSatisfying(
            RequestAuthException.class,
            e -> assertThat(e.reason()).isEqualTo(Reason.NONCE_CACHE_FULL))
        .hasMessage(
            "the server is already tracking 3 recent nonces, its limit; retry in a few seconds");
    assertThat(small.firstUse(KEY, "n0", NOW)).isFalse();

    clock.advance(Duration.ofSeconds(301));
    assertThat(small.firstUse(KEY, "n3", clock.instant())).isTrue();
    assertThat(small.size()).isEqualTo(1);
  }

  @Test
  void racingThreadsGetExactlyOneFirstUse() throws Exception {
    int threads = 16;
    ExecutorService pool = Executors.newFixedThreadPool(threads);
    try {
      for (int round = 0; round < 200; round++) {
        String nonce = "race-" + round;
        CountDownLatch start = new CountDownLatch(1);
        AtomicInteger winners = new AtomicInteger();
        List<Future<?>> futures = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
          futures.add(
              pool.submit(() -> {
                start.await();
                if (cache.firstUse(KEY, nonce, NOW)) {
                  winners.incrementAndGet();
                }
                return null;
              }));
        }
        start.countDown();
        for (Future<?> f : futures) {
          f.get();
        }
        assertThat(winners.get()).as("round %d", round).isEqualTo(1);
      }
    } finally {
      pool.shutdownNow();
    }
  }

  @Test
  void concurrentDistinctNoncesAreAllRecorded() throws Exception {
    int threads = 8;
    int perThread = 5_000;
    ExecutorService pool = Executors.newFixedThreadPool(threads);
    try {
      List<Future<Integer>> futures = new ArrayList<>();
      for (int t = 0; t < threads; t++) {
        int thread = t;
        futures.add(
            pool.submit(() -> {
              int firsts = 0;
              for (int i = 0; i < perThread; i++) {
                // Each nonce is offered by two threads; only one may win it.
                String nonce = "n-" + ((thread / 2) * perThread + i);
                if (cache.firstUse(KEY, nonce, NOW)) {
                  firsts++;
                }
              }
              return firsts;
            }));
      }
      int total = 0;
      for (Future<Integer> f : futures) {
        total += f.get();
      }
      assertThat(total).isEqualTo(threads / 2 * perThread);
      assertThat(cache.size()).isEqualTo(threads / 2 * perThread);
    } finally {
      pool.shutdownNow();
    }
  }

  @Test
  void constructorArgumentsAreChecked() {
    assertThatThrownBy(() -> new NonceCache(clock, Duration.ZERO))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("maxSkew must be a whole number of seconds");
    assertThatThrownBy(() -> new NonceCache(clock, SKEW, 0))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("maxEntries must be at least 1");
  }
}
