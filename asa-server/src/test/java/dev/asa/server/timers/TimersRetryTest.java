package dev.asa.server.timers;

import static org.assertj.core.api.Assertions.assertThat;

import dev.asa.lifecycle.State;
import dev.asa.server.metrics.Metrics;
import dev.asa.server.store.Store;
import dev.asa.server.store.Stores;
import dev.asa.server.store.TestRows;
import dev.asa.server.store.Write;
import dev.asa.server.store.agreements.AgreementRow;
import dev.asa.server.store.timers.TimerRow;
import dev.asa.testing.MutableClock;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A timer whose action throws is retried with growing delays and ends dead. */
class TimersRetryTest {

  @TempDir Path dir;

  private final MutableClock clock = new MutableClock(TestRows.T0);
  private Store store;
  private AgreementRow agreement;

  @BeforeEach
  void open() {
    store = Stores.open(null, dir);
    agreement = TestRows.agreement("asa-timer-retry", 1, State.PROPOSED);
    store
        .writes()
        .createAgreement(agreement, List.of(TestRows.event(agreement.id(), 1)), List.of());
  }

  @AfterEach
  void close() {
    store.close();
  }

  @Test
  void aTimerWhoseActionFailsIsRetriedWithGrowingDelaysAndEndsDeadAfterTheLastAttempt() {
    List<Instant> firedAt = new ArrayList<>();
    Timers.Handler failing =
        t -> {
          firedAt.add(clock.instant());
          throw new IllegalStateException("attempt " + firedAt.size() + " failed");
        };
    Instant due = TestRows.T0.plusSeconds(10);
    store.writes().apply(List.of(new Write.SetTimer(TimerRow.of(agreement.id(), "t", due))));
    Timers timers =
        new Timers(
            store.timers(),
            clock,
            failing,
            RetryPolicy.TIMERS,
            new SplittableRandom(42),
            new Metrics());
    // Move the clock to a millisecond before each retry (nothing fires), then to it (it fires
    // and fails again), until the timer is no longer pending.
    for (int polls = 0; polls < 100; polls++) {
      List<TimerRow> pending = store.timers().pending(agreement.id());
      if (pending.isEmpty()) break;
      Instant next = pending.getFirst().dueAt();
      clock.advance(Duration.between(clock.instant(), next).minusMillis(1));
      int before = firedAt.size();
      assertThat(timers.pollOnce()).isZero();
      assertThat(firedAt).hasSize(before);
      clock.advance(Duration.ofMillis(1));
      assertThat(timers.pollOnce()).as("failed actions do not count as fired").isZero();
      assertThat(firedAt).hasSize(before + 1);
    }
    clock.advance(Duration.ofDays(30));
    assertThat(timers.pollOnce()).isZero();
    assertThat(firedAt).hasSize(RetryPolicy.TIMERS.maxAttempts());
    assertThat(firedAt.getFirst()).isEqualTo(due);
    for (int i = 1; i < firedAt.size(); i++) {
      Duration gap = Duration.between(firedAt.get(i - 1), firedAt.get(i));
      long nominal = 1000L << (i - 1);
      assertThat(gap.toMillis())
          .as("the wait after failure %d", i)
          .isBetween((long) (nominal * 0.8), (long) (nominal * 1.2));
    }
    assertThat(store.timers().pending(agreement.id())).isEmpty();
    assertThat(store.timers().dead(10))
        .singleElement()
        .satisfies(t -> {
          assertThat(t.id()).isEqualTo(agreement.id() + ":t");
          assertThat(t.attempts()).isEqualTo(10);
          assertThat(t.lastError()).contains("attempt 10 failed");
        });
  }

  @Test
  void aTimerThatFailsThenSucceedsFiresAndIsDone() {
    List<Instant> firedAt = new ArrayList<>();
    Timers.Handler flaky =
        t -> {
          firedAt.add(clock.instant());
          if (firedAt.size() < 3) throw new IllegalStateException("not yet");
        };
    store
        .writes()
        .apply(List.of(new Write.SetTimer(TimerRow.of(agreement.id(), "t", TestRows.T0))));
    Timers timers =
        new Timers(
            store.timers(),
            clock,
            flaky,
            RetryPolicy.TIMERS,
            new SplittableRandom(42),
            new Metrics());
    int fired = 0;
    for (int i = 0; i < 100; i++) {
      fired += timers.pollOnce();
      clock.advance(Duration.ofMillis(100));
    }
    assertThat(fired).isEqualTo(1);
    assertThat(firedAt).hasSize(3);
    assertThat(store.timers().pending(agreement.id())).isEmpty();
    assertThat(store.timers().dead(10)).isEmpty();
  }
}
