package dev.asa.signedrequests;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.asa.testing.MutableClock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;

class RateLimiterTest {

  private final MutableClock clock = new MutableClock(Instant.ofEpochSecond(1_700_000_000));

  @Test
  void burstThenRefusalWithASensibleRetryAfter() {
    RateLimiter limiter = new RateLimiter(clock, 10, 5);
    for (int i = 0; i < 5; i++) {
      assertThat(limiter.tryAcquire("alice").allowed()).as("request %d", i).isTrue();
    }

    RateLimiter.Decision refused = limiter.tryAcquire("alice");
    assertThat(refused.allowed()).isFalse();
    assertThat(refused.retryAfter()).isEqualTo(Duration.ofMillis(100));
    assertThat(refused.retryAfterSeconds()).isEqualTo(1);

    clock.advance(Duration.ofMillis(99));
    assertThat(limiter.tryAcquire("alice").retryAfter()).isEqualTo(Duration.ofMillis(1));

    clock.advance(Duration.ofMillis(1)); // exactly when it said
    assertThat(limiter.tryAcquire("alice").allowed()).isTrue();
    assertThat(limiter.tryAcquire("alice").allowed()).isFalse();
  }

  @Test
  void refusalsDoNotDelayTheNextPermit() {
    RateLimiter limiter = new RateLimiter(clock, 1, 1);
    assertThat(limiter.tryAcquire("k").allowed()).isTrue();
    for (int i = 0; i < 100; i++) {
      assertThat(limiter.tryAcquire("k").allowed()).isFalse();
    }
    clock.advance(Duration.ofSeconds(1));
    assertThat(limiter.tryAcquire("k").allowed()).isTrue();
  }

  @Test
  void refillsOverTimeUpToTheBurst() {
    RateLimiter limiter = new RateLimiter(clock, 2, 3);
    for (int i = 0; i < 3; i++) {
      limiter.tryAcquire("k");
    }
    assertThat(limiter.tryAcquire("k").allowed()).isFalse();

    clock.advance(Duration.ofSeconds(1)); // two permits back
    assertThat(limiter.tryAcquire("k").allowed()).isTrue();
    assertThat(limiter.tryAcquire("k").allowed()).isTrue();
    assertThat(limiter.tryAcquire("k").allowed()).isFalse();

    clock.advance(Duration.ofHours(1)); // never more than the burst
    int allowed = 0;
    while (limiter.tryAcquire("k").allowed()) {
      allowed++;
    }
    assertThat(allowed).isEqualTo(3);
  }

  @Test
  void slowRatesGiveLongRetryAfters() {
    RateLimiter limiter = new RateLimiter(clock, 0.5, 1);
    limiter.tryAcquire("k");
    RateLimiter.Decision refused = limiter.tryAcquire("k");
    assertThat(refused.retryAfter()).isEqualTo(Duration.ofSeconds(2));
    clock.advance(Duration.ofMillis(500));
    assertThat(limiter.tryAcquire("k").retryAfter()).isEqualTo(Duration.ofMillis(1500));
    assertThat(limiter.tryAcquire("k").retryAfterSeconds()).isEqualTo(2);
  }

  @Test
  void keysHaveTheirOwnBuckets() {
    RateLimiter limiter = new RateLimiter(clock, 1, 1);
    assertThat(limiter.tryAcquire("alice").allowed()).isTrue();
    assertThat(limiter.tryAcquire("alice").allowed()).isFalse();
    assertThat(limiter.tryAcquire("bob").allowed()).isTrue();
  }

  @Test
  void idleBucketsAreDropped() {
    RateLimiter limiter = new RateLimiter(clock, 10, 5); // a bucket refills in 0.5 s
    for (int i = 0; i < 5_000; i++) {
      limiter.tryAcquire("caller-" + i);
    }
    assertThat(limiter.trackedKeys()).isEqualTo(5_000);

    clock.advance(Duration.ofSeconds(1));
    for (int i = 0; i < 5_000; i++) {
      limiter.tryAcquire("busy");
      clock.advance(Duration.ofMillis(100));
    }
    assertThat(limiter.trackedKeys()).isLessThanOrEqualTo(2);
  }

  @Test
  void pastTheKeyCapNewKeysAreRefusedUntilBucketsEmpty() {
    RateLimiter limiter = new RateLimiter(clock, 10, 5, 2);
    assertThat(limiter.tryAcquire("a").allowed()).isTrue();
    assertThat(limiter.tryAcquire("b").allowed()).isTrue();

    RateLimiter.Decision refused = limiter.tryAcquire("c");
    assertThat(refused.allowed()).isFalse();
    assertThat(refused.retryAfter()).isEqualTo(Duration.ofMillis(500));
    assertThat(limiter.tryAcquire("a").allowed()).isTrue(); // known keys carry on

    clock.advance(Duration.ofMillis(500));
    assertThat(limiter.tryAcquire("c").allowed()).isTrue();
  }

  @Test
  void concurrentCallersShareOneBucket() throws Exception {
    RateLimiter limiter = new RateLimiter(clock, 1, 50);
    int threads = 8;
    ExecutorService pool = Executors.newFixedThreadPool(threads);
    try {
      CountDownLatch start = new CountDownLatch(1);
      List<Future<Integer>> futures = new ArrayList<>();
      for (int t = 0; t < threads; t++) {
        futures.add(
            pool.submit(() -> {
              start.await();
              int allowed = 0;
              for (int i = 0; i < 1_000; i++) {
                if (limiter.tryAcquire("shared").allowed()) {
                  allowed++;
                }
              }
              return allowed;
            }));
      }
      start.countDown();
      int total = 0;
      for (Future<Integer> f : futures) {
        total += f.get();
      }
      assertThat(total).isEqualTo(50);
    } finally {
      pool.shutdownNow();
    }
  }

  @Test
  void argumentsAreChecked() {
    assertThatThrownBy(() -> new RateLimiter(clock, 0, 1))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("permitsPerSecond must be positive");
    assertThatThrownBy(() -> new RateLimiter(clock, Double.NaN, 1))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> new RateLimiter(clock, 1, 0))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("burst must be at least 1");
    assertThatThrownBy(() -> new RateLimiter(clock, 1e-12, Integer.MAX_VALUE))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("too slow");
    assertThatThrownBy(() -> new RateLimiter.Decision(true, Duration.ofSeconds(1)))
        .isInstanceOf(IllegalArgumentException.class);
  }
}
