package dev.asa.server.timers;

import dev.asa.server.store.AgreementStore;
import dev.asa.server.store.TimerRow;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Fires durable timers. Timers live in the store (written in the same transaction as the change
 * that sets them), so they survive restarts; a node claims a due timer with a lease before acting,
 * so with several nodes on one PostgreSQL each timer is acted on once. The action itself must be
 * idempotent (it re-checks the agreement's state), because a node can die after acting and before
 * marking the timer done; the lease then expires and another node fires it again, harmlessly.
 */
public final class Timers implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(Timers.class);
  static final Duration LEASE = Duration.ofSeconds(60);
  static final int BATCH = 100;

  /** What a timer does when it fires. */
  public interface Handler {
    void fire(TimerRow timer);
  }

  private final AgreementStore store;
  private final Clock clock;
  private final Handler handler;
  private final String node = "node-" + UUID.randomUUID();
  private final ScheduledExecutorService poller =
      Executors.newSingleThreadScheduledExecutor(r -> {
        Thread t = new Thread(r, "asa-timers");
        t.setDaemon(true);
        return t;
      });

  public Timers(AgreementStore store, Clock clock, Handler handler) {
    this.store = store;
    this.clock = clock;
    this.handler = handler;
  }

  /** Polls for due timers every {@code every}. */
  public void start(Duration every) {
    poller.scheduleWithFixedDelay(
        () -> {
          try {
            pollOnce();
          } catch (RuntimeException e) {
            log.warn("polling timers failed; will retry", e);
          }
        },
        every.toMillis(),
        every.toMillis(),
        TimeUnit.MILLISECONDS);
  }

  /** Fires every timer due now; returns how many fired. Tests call it after moving the clock. */
  public synchronized int pollOnce() {
    int fired = 0;
    List<TimerRow> due;
    do {
      due = store.claimDueTimers(clock.instant(), node, LEASE, BATCH);
      for (TimerRow timer : due) {
        try {
          handler.fire(timer);
          store.finishTimer(timer.id(), node, clock.instant());
          fired++;
        } catch (RuntimeException e) {
          // Left claimed: when the lease runs out the timer is due again (on this node or another).
          log.warn("timer {} failed; it will be retried after its lease", timer.id(), e);
        }
      }
    } while (due.size() == BATCH);
    return fired;
  }

  @Override
  public void close() {
    poller.shutdownNow();
  }
}
