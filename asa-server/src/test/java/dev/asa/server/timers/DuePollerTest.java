package dev.asa.server.timers;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import dev.asa.server.logging.LogCapture;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/**
 * The one poller of due work: each kind on a thread of its own, never two runs of a kind at once,
 * and at close the timers' and the outbox's runs interrupted while a retention run is waited for.
 * Latches tell what happened; the timeouts only tell "ends" from "never ends".
 */
class DuePollerTest {
  private static final Duration OFTEN = Duration.ofMillis(1);
  private static final long PATIENT = 60;

  @Test
  void aBlockedKindDoesNotStopAnother() throws Exception {
    CountDownLatch release = new CountDownLatch(1);
    CountDownLatch blocked = new CountDownLatch(1);
    CountDownLatch otherRan = new CountDownLatch(5);
    AtomicReference<String> otherThread = new AtomicReference<>();
    DuePoller poller =
        DuePoller.start(
            List.of(
                DuePoller.Kind.interruptible(
                    "test-slow",
                    OFTEN,
                    () -> {
                      blocked.countDown();
                      awaitQuietly(release);
                    }),
                DuePoller.Kind.interruptible(
                    "test-quick",
                    OFTEN,
                    () -> {
                      otherThread.set(Thread.currentThread().getName());
                      otherRan.countDown();
                    })));
    try {
      assertThat(blocked.await(PATIENT, TimeUnit.SECONDS)).isTrue();
      assertThat(otherRan.await(PATIENT, TimeUnit.SECONDS))
          .as("the quick kind runs again and again while the slow one is stuck")
          .isTrue();
      assertThat(otherThread.get()).isEqualTo("test-quick");
      release.countDown();
    } finally {
      poller.close();
    }
  }

  @Test
  void aKindNeverRunsTwiceAtOnce() throws Exception {
    CountDownLatch release = new CountDownLatch(1);
    CountDownLatch secondRun = new CountDownLatch(1);
    CountDownLatch clockTicks = new CountDownLatch(20);
    AtomicInteger runs = new AtomicInteger();
    AtomicInteger inside = new AtomicInteger();
    AtomicInteger mostInside = new AtomicInteger();
    DuePoller poller =
        DuePoller.start(
            List.of(
                DuePoller.Kind.interruptible(
                    "test-long",
                    OFTEN,
                    () -> {
                      mostInside.accumulateAndGet(inside.incrementAndGet(), Math::max);
                      if (runs.incrementAndGet() == 1) {
                        awaitQuietly(release);
                      } else {
                        secondRun.countDown();
                      }
                      inside.decrementAndGet();
                    }),
                DuePoller.Kind.interruptible("test-ticks", OFTEN, clockTicks::countDown)));
    try {
      // Twenty runs of the other kind: many periods of the long kind go by during its first run.
      assertThat(clockTicks.await(PATIENT, TimeUnit.SECONDS)).isTrue();
      assertThat(runs).as("no second run while the first is in progress").hasValue(1);
      release.countDown();
      assertThat(secondRun.await(PATIENT, TimeUnit.SECONDS))
          .as("the next run follows the end of the first")
          .isTrue();
      assertThat(mostInside).hasValue(1);
    } finally {
      poller.close();
    }
  }

  @Test
  void aRunThatThrowsIsLoggedAndTheKindRunsAgain() throws Exception {
    CountDownLatch again = new CountDownLatch(1);
    AtomicInteger runs = new AtomicInteger();
    LogCapture logs = new LogCapture();
    DuePoller poller =
        DuePoller.start(
            List.of(
                DuePoller.Kind.interruptible(
                    "test-throwing",
                    OFTEN,
                    () -> {
                      if (runs.incrementAndGet() == 1) {
                        throw new IllegalStateException("the store is gone");
                      }
                      again.countDown();
                    })));
    try {
      assertThat(again.await(PATIENT, TimeUnit.SECONDS)).isTrue();
      assertThat(logs.of(DuePoller.class.getName()))
          .anySatisfy(l -> {
            assertThat(l.level()).isEqualTo("WARN");
            assertThat(l.message())
                .contains("test-throwing: a run failed")
                .contains("the store is gone");
          });
    } finally {
      poller.close();
      logs.close();
    }
  }

  @Test
  void closeInterruptsAnInterruptibleRunWithoutWaitingForIt() throws Exception {
    CountDownLatch started = new CountDownLatch(1);
    CountDownLatch interrupted = new CountDownLatch(1);
    CountDownLatch closeReturned = new CountDownLatch(1);
    CountDownLatch ended = new CountDownLatch(1);
    DuePoller poller =
        DuePoller.start(
            List.of(
                DuePoller.Kind.interruptible(
                    "test-interruptible",
                    OFTEN,
                    () -> {
                      started.countDown();
                      try {
                        new CountDownLatch(1).await(); // never counted down
                      } catch (InterruptedException e) {
                        interrupted.countDown();
                      }
                      // Only ends once close has returned: close must not wait for it.
                      awaitQuietly(closeReturned);
                      ended.countDown();
                    })));
    assertThat(started.await(PATIENT, TimeUnit.SECONDS)).isTrue();
    assertTimeoutPreemptively(Duration.ofSeconds(PATIENT), poller::close);
    closeReturned.countDown();
    assertThat(interrupted.await(PATIENT, TimeUnit.SECONDS)).isTrue();
    assertThat(ended.await(PATIENT, TimeUnit.SECONDS)).isTrue();
  }

  @Test
  void closeWaitsForAFinishingRunAndNeverInterruptsIt() throws Exception {
    CountDownLatch started = new CountDownLatch(1);
    CountDownLatch release = new CountDownLatch(1);
    AtomicBoolean finished = new AtomicBoolean();
    AtomicBoolean wasInterrupted = new AtomicBoolean();
    AtomicBoolean overran = new AtomicBoolean();
    DuePoller poller =
        DuePoller.start(
            List.of(
                new DuePoller.Kind(
                    "test-finishing",
                    Duration.ZERO,
                    Duration.ofHours(1),
                    new DuePoller.OnClose.Finish(
                        Duration.ofSeconds(PATIENT), () -> overran.set(true)),
                    () -> {
                      started.countDown();
                      while (true) {
                        try {
                          release.await();
                          break;
                        } catch (InterruptedException e) {
                          wasInterrupted.set(true);
                        }
                      }
                      finished.set(true);
                    })));
    assertThat(started.await(PATIENT, TimeUnit.SECONDS)).isTrue();
    AtomicBoolean finishedWhenClosed = new AtomicBoolean();
    Thread closing =
        Thread.ofPlatform()
            .start(() -> {
              poller.close();
              finishedWhenClosed.set(finished.get());
            });
    // Release the run only once close is waiting for it (or has wrongly returned without).
    while (closing.getState() != Thread.State.TIMED_WAITING
        && closing.getState() != Thread.State.TERMINATED) {
      Thread.sleep(1);
    }
    release.countDown();
    assertThat(closing.join(Duration.ofSeconds(PATIENT))).isTrue();
    assertThat(finishedWhenClosed).as("close returned after the run ended").isTrue();
    assertThat(wasInterrupted).isFalse();
    assertThat(overran).isFalse();
  }

  @Test
  void closeGivesUpOnAFinishingRunAfterItsPatienceAndSaysSo() throws Exception {
    CountDownLatch started = new CountDownLatch(1);
    CountDownLatch release = new CountDownLatch(1);
    CountDownLatch overran = new CountDownLatch(1);
    DuePoller poller =
        DuePoller.start(
            List.of(
                new DuePoller.Kind(
                    "test-overrunning",
                    Duration.ZERO,
                    Duration.ofHours(1),
                    new DuePoller.OnClose.Finish(Duration.ofMillis(1), overran::countDown),
                    () -> {
                      started.countDown();
                      awaitQuietly(release);
                    })));
    assertThat(started.await(PATIENT, TimeUnit.SECONDS)).isTrue();
    assertTimeoutPreemptively(Duration.ofSeconds(PATIENT), poller::close);
    assertThat(overran.getCount()).as("the overrun was reported by close").isZero();
    release.countDown();
  }

  /** Waits for the latch; an interrupt is recorded by the thread's flag and otherwise ignored. */
  private static void awaitQuietly(CountDownLatch latch) {
    boolean interrupted = false;
    while (true) {
      try {
        latch.await();
        break;
      } catch (InterruptedException e) {
        interrupted = true;
      }
    }
    if (interrupted) {
      Thread.currentThread().interrupt();
    }
  }
}
