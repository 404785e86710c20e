package dev.asa.server.timers;

import dev.asa.server.store.db.RepeatedFailures;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The server's one poller of due work: durable timers, the outbox, the retention schedule. One
 * scheduler thread ({@code asa-due-work}) keeps each kind's time; when a kind falls due, its run
 * gets a platform thread of its own, named after the kind ({@code asa-timers}, {@code asa-outbox},
 * {@code archive-schedule}), which ends with the run. So a slow kind (an hour's archive, a webhook
 * that takes its full timeout) never delays another, an idle server keeps one thread for all of
 * them instead of one each, and a kind's next run is timed from the end of its last ({@code every}
 * later), so one kind never runs twice at once.
 *
 * <p>Platform threads, not virtual ones: a timer's action can score a deliverable with the built-in
 * evaluator, whose native code would pin a virtual thread's carrier (issue 60).
 *
 * <p>Each kind logs its own failures; a run that still throws is logged here, once and then counted
 * ({@link RepeatedFailures}), and the kind runs again at its next time.
 */
public final class DuePoller implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(DuePoller.class);
  private static final RepeatedFailures runFailures =
      new RepeatedFailures(log, Duration.ofMinutes(1));

  /**
   * One kind of due work.
   *
   * @param name the name of the thread each run gets (it shows in every log line of the run)
   * @param firstAfter when the first run comes, after {@link #start}
   * @param every the time from the end of one run to the start of the next
   * @param onClose what {@link #close} does to a run in progress
   * @param run one run: does what is due now
   */
  public record Kind(
      String name, Duration firstAfter, Duration every, OnClose onClose, Runnable run) {
    public Kind {
      Objects.requireNonNull(name, "name");
      Objects.requireNonNull(onClose, "onClose");
      Objects.requireNonNull(run, "run");
      if (firstAfter.isNegative()) {
        throw new IllegalArgumentException("firstAfter must not be negative");
      }
      if (!every.isPositive()) {
        throw new IllegalArgumentException("every must be positive");
      }
    }

    /** Runs every {@code every}, the first a period after start; interrupted at close. */
    public static Kind interruptible(String name, Duration every, Runnable run) {
      return new Kind(name, every, every, new OnClose.Interrupt(), run);
    }
  }

  /** What {@link #close} does to a run in progress. */
  public sealed interface OnClose {
    /** Interrupts it and does not wait: what it left undone is due again after a restart. */
    record Interrupt() implements OnClose {}

    /**
     * Never interrupts it (an interrupt can leave work half written, e.g. an archive file whose
     * channel it closes mid-write) and waits up to {@code patience} for it to end.
     *
     * @param overran called when the run has not ended within the patience
     */
    record Finish(Duration patience, Runnable overran) implements OnClose {
      public Finish {
        Objects.requireNonNull(patience, "patience");
        Objects.requireNonNull(overran, "overran");
      }
    }
  }

  /** A kind and its run in progress, if any. Guarded by the poller's lock. */
  private static final class Slot {
    final Kind kind;
    Thread running;

    Slot(Kind kind) {
      this.kind = kind;
    }
  }

  private final Object lock = new Object();
  private final List<Slot> slots = new ArrayList<>();
  private final ScheduledExecutorService scheduler =
      Executors.newSingleThreadScheduledExecutor(
          r -> Thread.ofPlatform().name("asa-due-work").daemon().unstarted(r));
  private boolean closed;

  private DuePoller(List<Kind> kinds) {
    for (Kind kind : kinds) {
      slots.add(new Slot(kind));
    }
  }

  /** Starts polling each kind at its own times. */
  public static DuePoller start(List<Kind> kinds) {
    DuePoller poller = new DuePoller(List.copyOf(kinds));
    synchronized (poller.lock) {
      for (Slot slot : poller.slots) {
        poller.schedule(slot, slot.kind.firstAfter());
      }
    }
    return poller;
  }

  /**
   * Called with the lock held. The future is dropped: it carries nothing, since {@link #hand} fails
   * only by running out of threads, which it logs itself.
   */
  @SuppressWarnings("FutureReturnValueIgnored")
  private void schedule(Slot slot, Duration after) {
    scheduler.schedule(() -> hand(slot), after.toNanos(), TimeUnit.NANOSECONDS);
  }

  /** On the scheduler thread: the kind is due; its run gets a thread of its own. */
  private void hand(Slot slot) {
    synchronized (lock) {
      if (closed) {
        return;
      }
      Thread thread =
          Thread.ofPlatform().name(slot.kind.name()).daemon().unstarted(() -> run(slot));
      try {
        thread.start();
      } catch (OutOfMemoryError e) {
        // No thread to be had now (the process's limit): the kind is tried again at its next time.
        runFailures.warn(
            slot.kind.name() + " no thread",
            slot.kind.name() + ": no thread for a run; it runs again at its next time",
            e);
        schedule(slot, slot.kind.every());
        return;
      }
      slot.running = thread;
    }
  }

  /** On the kind's thread: one run, then the next one scheduled from its end. */
  private void run(Slot slot) {
    try {
      slot.kind.run().run();
    } catch (RuntimeException e) {
      runFailures.warn(
          slot.kind.name() + " " + e.getClass().getName(),
          slot.kind.name() + ": a run failed; it runs again at its next time: " + e.getMessage(),
          e);
    } finally {
      synchronized (lock) {
        slot.running = null;
        if (!closed) {
          schedule(slot, slot.kind.every());
        }
      }
    }
  }

  /**
   * No run starts any more; each run in progress is interrupted or waited for, as its kind says
   * ({@link OnClose}).
   */
  @Override
  public void close() {
    record Finishing(Thread thread, OnClose.Finish finish) {}
    List<Finishing> finishing = new ArrayList<>();
    synchronized (lock) {
      if (closed) {
        return;
      }
      closed = true;
      scheduler.shutdownNow();
      for (Slot slot : slots) {
        if (slot.running != null) {
          switch (slot.kind.onClose()) {
            case OnClose.Interrupt i -> slot.running.interrupt();
            case OnClose.Finish f -> finishing.add(new Finishing(slot.running, f));
          }
        }
      }
    }
    for (Finishing f : finishing) {
      try {
        if (!f.thread().join(f.finish().patience())) {
          f.finish().overran().run();
        }
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return;
      }
    }
  }
}
