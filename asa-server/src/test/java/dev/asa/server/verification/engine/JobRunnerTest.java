package dev.asa.server.verification.engine;

import static org.assertj.core.api.Assertions.assertThat;

import dev.asa.server.metrics.Metrics;
import dev.asa.server.store.Store;
import dev.asa.server.store.Stores;
import dev.asa.server.store.verification.JobRow;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The job runner's deadline, as the work it stops sees it. */
class JobRunnerTest {

  @TempDir Path dir;
  private Store store;

  @BeforeEach
  void open() {
    store = Stores.open(null, dir);
  }

  @AfterEach
  void close() {
    store.close();
  }

  /**
   * Work that never looks for the interrupt runs on past its deadline; its slot stays taken until
   * it ends, so the next job does not start beside it (it did, at the deadline, and two cores
   * burned where the bound said one).
   */
  @Test
  void aJobPastItsDeadlineKeepsItsSlotUntilItsThreadHasEnded() throws Exception {
    AtomicLong firstEnded = new AtomicLong();
    AtomicLong secondStarted = new AtomicLong();
    AtomicBoolean firstHadEnded = new AtomicBoolean();
    CountDownLatch secondDone = new CountDownLatch(1);
    List<String> failures = new CopyOnWriteArrayList<>();
    long submitted = System.nanoTime();
    try (JobRunner runner = new JobRunner(store.jobs(), Clock.systemUTC(), 1, new Metrics())) {
      runner.submit(
          job("first", Duration.ofMillis(200)),
          progress -> {
            // Deaf to the interrupt, as a long regex match was (waiting, not spinning, so that
            // the test does not starve the runner on a machine of two cores).
            long until = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(1_200);
            for (long left; (left = until - System.nanoTime()) > 0; ) {
              try {
                TimeUnit.NANOSECONDS.sleep(left);
              } catch (InterruptedException ignored) {
                // the deadline's interrupt, not heard
              }
            }
            firstEnded.set(System.nanoTime());
          },
          failures::add);
      Thread.sleep(50);
      runner.submit(
          job("second", Duration.ofSeconds(30)),
          progress -> {
            secondStarted.set(System.nanoTime());
            firstHadEnded.set(firstEnded.get() != 0);
            secondDone.countDown();
          },
          failures::add);
      assertThat(secondDone.await(10, TimeUnit.SECONDS)).isTrue();
    }
    System.out.printf(
        "the second job started %d ms after the first was submitted; the first had ended: %s%n",
        TimeUnit.NANOSECONDS.toMillis(secondStarted.get() - submitted), firstHadEnded.get());
    assertThat(failures).singleElement().asString().contains("was stopped");
    assertThat(firstHadEnded).as("the first job had ended when the second started").isTrue();
  }

  /** Work that reports progress stops at its deadline at its next report, whatever it is. */
  @Test
  void workThatReportsProgressStopsAtItsDeadline() throws Exception {
    AtomicLong stoppedAt = new AtomicLong();
    long started = System.nanoTime();
    try (JobRunner runner = new JobRunner(store.jobs(), Clock.systemUTC(), 1, new Metrics())) {
      CountDownLatch ended = new CountDownLatch(1);
      runner.submit(
          job("reporting", Duration.ofMillis(300)),
          progress -> {
            try {
              for (long step = 0; ; step++) {
                progress.update("step " + step, 0, 1);
              }
            } finally {
              stoppedAt.set(System.nanoTime());
              ended.countDown();
            }
          },
          message -> {});
      assertThat(ended.await(10, TimeUnit.SECONDS)).isTrue();
    }
    // Work that never ends without its deadline: the bound tells "stopped" from "ran on", not how
    // fast (a 3 s bound failed at a load average of 13).
    assertThat(TimeUnit.NANOSECONDS.toMillis(stoppedAt.get() - started)).isLessThan(10_000);
  }

  private static JobRow job(String id, Duration timeout) {
    Instant now = Instant.now().truncatedTo(ChronoUnit.MILLIS);
    return new JobRow(
        id,
        "key-" + id + ":1",
        null,
        "sha256:" + "0".repeat(64),
        "test",
        "{}",
        "content",
        JobRow.Status.QUEUED,
        "queued",
        0,
        1,
        null,
        now,
        now,
        now.plus(timeout));
  }
}
