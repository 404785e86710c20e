package dev.asa.server.timers;

import dev.asa.server.metrics.Metrics;
import dev.asa.server.store.db.RepeatedFailures;
import dev.asa.server.store.db.StoreUnavailableException;
import dev.asa.server.store.timers.TimerRow;
import dev.asa.server.store.timers.TimerStore;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.SplittableRandom;
import java.util.UUID;
import java.util.random.RandomGenerator;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Fires durable timers. Timers live in the store (written in the same transaction as the change
 * that sets them), so they survive restarts; a node claims a due timer with a lease before acting,
 * so with several nodes on one PostgreSQL each timer is acted on once. The action itself must be
 * idempotent (it re-checks the agreement's state), because a node can die after acting and before
 * marking the timer done; the lease then expires and another node fires it again, harmlessly. An
 * action that throws is retried with backoff and, after {@link RetryPolicy#TIMERS}' attempts, left
 * dead (logged, and listed by {@link TimerStore#dead}).
 */
public final class Timers {
  private static final Logger log = LoggerFactory.getLogger(Timers.class);
  private static final RepeatedFailures pollFailures =
      new RepeatedFailures(log, Duration.ofMinutes(1));
  private static final Logger fired = LoggerFactory.getLogger("dev.asa.server.events.timer");
  static final Duration LEASE = Duration.ofSeconds(60);
  static final int BATCH = 100;

  /** What a timer does when it fires. */
  public interface Handler {
    void fire(TimerRow timer);
  }

  private final TimerStore store;
  private final Clock clock;
  private final Handler handler;
  private final RetryPolicy policy;
  private final RandomGenerator random;
  private final Metrics metrics;
  private final String node = "node-" + UUID.randomUUID();

  public Timers(TimerStore store, Clock clock, Handler handler, Metrics metrics) {
    this(store, clock, handler, RetryPolicy.TIMERS, new SplittableRandom(), metrics);
  }

  /**
   * @param policy when a timer whose action failed is retried, and when it is given up as dead
   * @param random the jitter of the backoff (tests pass a seeded one)
   * @param metrics where each firing's lag is recorded
   */
  public Timers(
      TimerStore store,
      Clock clock,
      Handler handler,
      RetryPolicy policy,
      RandomGenerator random,
      Metrics metrics) {
    this.store = store;
    this.clock = clock;
    this.handler = handler;
    this.policy = policy;
    this.random = random;
    this.metrics = metrics;
  }

  /**
   * Polling for due timers every {@code every}, as the {@link DuePoller}'s kind {@code asa-timers}
   * (interrupted when the server stops: a timer left claimed comes due again after its lease).
   */
  public DuePoller.Kind due(Duration every) {
    return DuePoller.Kind.interruptible(
        "asa-timers",
        every,
        () -> {
          try {
            pollOnce();
          } catch (RuntimeException e) {
            pollFailures.warn(
                e.getClass().getName(), "polling timers failed; will retry: " + e.getMessage(), e);
          }
        });
  }

  /** Fires every timer due now; returns how many fired. Tests call it after moving the clock. */
  public synchronized int pollOnce() {
    int count = 0;
    List<TimerRow> due;
    do {
      Instant claimedAt = clock.instant();
      due = store.claimDue(claimedAt, node, LEASE, BATCH);
      for (TimerRow timer : due) {
        try {
          handler.fire(timer);
          store.finish(timer, node, clock.instant());
          count++;
        } catch (RuntimeException e) {
          failed(timer, e);
          continue;
        }
        firedLate(timer, Duration.between(timer.dueAt(), claimedAt));
      }
    } while (due.size() == BATCH);
    return count;
  }

  /** Records and logs a firing, once its action and the timer's end have committed. */
  private void firedLate(TimerRow timer, Duration lag) {
    metrics.timerFired(timer.kind(), lag);
    long lagMs = Math.max(lag.toMillis(), 0);
    fired
        .atInfo()
        .setMessage("timer {} fired for agreement {}, {} ms after it was due")
        .addArgument(timer.kind())
        .addArgument(timer.agreementId())
        .addArgument(lagMs)
        .addKeyValue("event", "timer")
        .addKeyValue("kind", timer.kind())
        .addKeyValue("agreement_id", timer.agreementId())
        .addKeyValue("lag_ms", lagMs)
        .log();
  }

  /**
   * Records a failed action: retried after the policy's backoff, or dead after its last attempt. If
   * recording fails too, the timer stays claimed and comes due again when its lease runs out.
   */
  private void failed(TimerRow timer, RuntimeException e) {
    if (e instanceof StoreUnavailableException) {
      // The store, not the action, failed (a full disk, a lost database): no attempt is spent,
      // and nothing can be recorded now anyway. The timer stays claimed and comes due again when
      // its lease runs out, so timers catch up once the store serves again.
      pollFailures.warn(
          "store",
          "timer "
              + timer.id()
              + " could not fire, the store is unavailable; retried after its"
              + " lease",
          e);
      return;
    }
    int attempts = timer.attempts() + 1;
    Instant now = clock.instant();
    Optional<Instant> retryAt = policy.next(attempts, now, random);
    String error = String.valueOf(e);
    if (retryAt.isPresent()) {
      log.warn(
          "timer {} failed (attempt {} of {}); retrying at {}",
          timer.id(),
          attempts,
          policy.maxAttempts(),
          retryAt.get(),
          e);
    } else {
      log.error(
          "timer {} is dead after {} failed attempts, never to fire again until it is set again;"
              + " last error: {}",
          timer.id(),
          attempts,
          error,
          e);
    }
    try {
      store.fail(timer, node, error, retryAt.orElse(null), now);
    } catch (RuntimeException recording) {
      log.warn(
          "recording the failure of timer {} failed; it will be retried after its lease",
          timer.id(),
          recording);
    }
  }
}
