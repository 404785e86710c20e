package dev.asa.server.store.db;

import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;

/**
 * Logs a failure that repeats once, with its stack trace, and then at most one line per interval
 * saying how many more there were: a disk that filled up answers every request with the same
 * failure, and a stack trace for each (80 MB in four minutes, issue 60) would fill again the space
 * just freed. Failures are the same when their keys are (e.g. the problem type they are answered
 * with).
 */
public final class RepeatedFailures {
  private final Logger log;
  private final long intervalNanos;
  private final ConcurrentHashMap<String, Window> windows = new ConcurrentHashMap<>();

  /** The failures of one key since it was last logged. */
  private static final class Window {
    volatile long loggedAt;
    final AtomicLong since = new AtomicLong();

    Window(long loggedAt) {
      this.loggedAt = loggedAt;
    }
  }

  public RepeatedFailures(Logger log, Duration interval) {
    this.log = Objects.requireNonNull(log, "log");
    this.intervalNanos = interval.toNanos();
  }

  /**
   * Logs {@code message} as a warning: with {@code e}'s stack trace the first time for {@code key},
   * then as one line per interval counting the repeats in between.
   */
  public void warn(String key, String message, Throwable e) {
    long now = System.nanoTime();
    Window fresh = new Window(now);
    Window w = windows.putIfAbsent(key, fresh);
    if (w == null) {
      log.warn("{} (logged once; repeats are counted)", message, e);
      return;
    }
    long repeats = w.since.incrementAndGet();
    long loggedAt = w.loggedAt;
    if (now - loggedAt >= intervalNanos) {
      synchronized (w) {
        if (w.loggedAt == loggedAt) {
          w.loggedAt = now;
          long count = w.since.getAndSet(0);
          log.warn(
              "{} ({} times in the last {} s; last: {})",
              message,
              Math.max(count, repeats > 0 ? 1 : 0),
              Duration.ofNanos(now - loggedAt).toSeconds(),
              String.valueOf(e));
        }
      }
    }
  }
}
