package dev.asa.server.verification.engine;

import dev.asa.evaluators.Deadline;
import dev.asa.evaluators.EvaluationException;
import dev.asa.evaluators.Progress;
import dev.asa.server.metrics.Metrics;
import dev.asa.server.store.verification.JobRow;
import dev.asa.server.store.verification.JobStore;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs verification jobs in the background, a bounded number at a time, each within its deadline
 * ({@code evaluator_timeout_seconds}): a job still running at its deadline is interrupted and fails
 * with a message saying so. Progress goes to the job's row, at most a few times a second, so {@code
 * GET /verifications/{id}} shows it from any node.
 *
 * <p>An interrupt stops only work that looks for it ({@link dev.asa.evaluators.Deadline}), so a job
 * keeps its slot until its thread has really ended: the bound on concurrent evaluations is a bound
 * on the cores they burn, and a job answered "stopped" while its thread computes on would let the
 * next job start beside it.
 */
public final class JobRunner implements AutoCloseable {

  private static final Logger LOG = LoggerFactory.getLogger(JobRunner.class);
  private static final Duration PROGRESS_INTERVAL = Duration.ofMillis(250);

  /** How long an interrupted job may take to notice before its overstay is logged. */
  private static final Duration STOP_GRACE = Duration.ofSeconds(1);

  /** A job's work: evaluate, then commit the result (and finish the job) in one transaction. */
  @FunctionalInterface
  public interface Work {
    void run(Progress progress) throws Exception;
  }

  private final JobStore store;
  private final Clock clock;
  private final Semaphore slots;
  private final Metrics metrics;
  private final ExecutorService threads = Executors.newVirtualThreadPerTaskExecutor();

  /**
   * The evaluations themselves run on platform threads (as many as the slots allow): they compute
   * for seconds, load classes and native code, and call into the ONNX runtime, each of which pins a
   * virtual thread to its carrier; on two carriers, two such jobs left no carrier for HTTP requests
   * (issue 60: a 20 ms write took 8.86 s). The waiting (for a slot, for the deadline) stays
   * virtual.
   */
  private final ExecutorService computing =
      Executors.newThreadPerTaskExecutor(
          Thread.ofPlatform().name("asa-evaluation-", 0).daemon(true).factory());

  /**
   * @param concurrency how many evaluations run at once; the rest wait, queued
   * @param metrics where queued, running and finished jobs are counted
   */
  public JobRunner(JobStore store, Clock clock, int concurrency, Metrics metrics) {
    if (concurrency < 1) {
      throw new IllegalArgumentException("concurrency must be at least 1");
    }
    this.store = store;
    this.clock = clock;
    this.slots = new Semaphore(concurrency, true);
    this.metrics = metrics;
  }

  /**
   * Starts a job. {@code onFailure} gets a message a person can act on when the work throws or runs
   * out of time; it must record the failure (the job's row is still unfinished then).
   */
  public void submit(JobRow job, Work work, Consumer<String> onFailure) {
    metrics.jobQueued();
    threads.submit(() -> run(job, work, onFailure));
  }

  private void run(JobRow job, Work work, Consumer<String> onFailure) {
    try {
      slots.acquire();
    } catch (InterruptedException e) {
      metrics.jobAbandoned();
      Thread.currentThread().interrupt();
      return; // shutting down: the job stays queued and resumes after a restart
    }
    metrics.jobStarted();
    long started = System.nanoTime();
    String outcome = "failed";
    try {
      ProgressRecorder progress = new ProgressRecorder(job.id());
      progress.update("started", 0, 1);
      CountDownLatch ended = new CountDownLatch(1);
      Future<?> running =
          computing.submit(() -> {
            try {
              work.run(progress);
              return null;
            } finally {
              ended.countDown();
            }
          });
      long remaining = Duration.between(clock.instant(), job.deadlineAt()).toMillis();
      try {
        running.get(Math.max(remaining, 1), TimeUnit.MILLISECONDS);
        outcome = "completed";
      } catch (TimeoutException e) {
        outcome = "timed_out";
        running.cancel(true);
        long seconds = Duration.between(job.createdAt(), job.deadlineAt()).toSeconds();
        onFailure.accept(
            "the evaluation did not finish within evaluator_timeout_seconds ("
                + seconds
                + " s) and was stopped");
        if (!ended.await(STOP_GRACE.toMillis(), TimeUnit.MILLISECONDS)) {
          LOG.warn(
              "verification job {} still computes {} after its deadline; its slot stays taken"
                  + " until it ends",
              job.id(),
              STOP_GRACE);
          ended.await();
        }
      } catch (ExecutionException e) {
        Throwable cause = e.getCause();
        onFailure.accept(
            cause.getMessage() == null ? cause.getClass().getSimpleName() : cause.getMessage());
        if (!(cause instanceof RuntimeException) && !(cause instanceof EvaluationException)) {
          LOG.warn("verification job {} failed", job.id(), cause);
        }
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } catch (RuntimeException e) {
      LOG.error("verification job {} could not be finished", job.id(), e);
    } finally {
      metrics.jobFinished(outcome, System.nanoTime() - started);
      slots.release();
    }
  }

  /** Writes progress to the job's row, skipping updates that come faster than every 250 ms. */
  private final class ProgressRecorder implements Progress {
    private final String jobId;
    private Instant lastWrite = Instant.EPOCH;

    ProgressRecorder(String jobId) {
      this.jobId = jobId;
    }

    @Override
    public synchronized void update(String stage, int done, int total) {
      // Every evaluator reports progress between its steps, on the job's own thread: the place
      // where any of them, even one that never looks for an interrupt, stops at its deadline.
      Deadline.check();
      Instant now = clock.instant();
      boolean finalStep = done >= total;
      if (!finalStep && Duration.between(lastWrite, now).compareTo(PROGRESS_INTERVAL) < 0) {
        return;
      }
      lastWrite = now;
      try {
        store.recordProgress(
            jobId, JobRow.Status.RUNNING, truncate(stage), done, Math.max(total, 1), now);
      } catch (RuntimeException e) {
        LOG.debug(
            "progress of job {} not recorded", jobId, e); // progress is advisory; the result is not
      }
    }

    private static String truncate(String stage) {
      return stage.length() <= 200 ? stage : stage.substring(0, 197) + "...";
    }
  }

  @Override
  public void close() {
    threads.shutdownNow();
    computing.shutdownNow();
  }
}
