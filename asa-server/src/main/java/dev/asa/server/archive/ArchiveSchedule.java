package dev.asa.server.archive;

import java.time.Clock;
import java.time.Duration;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code --retention-days}: archives, every hour, the agreements that ended longer ago than the
 * retention. A run that finds nothing leaves no file; a run that fails is logged and tried again at
 * the next hour (what it committed is closed by the next run's recovery).
 */
public final class ArchiveSchedule implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(ArchiveSchedule.class);

  private final ScheduledExecutorService executor;

  private ArchiveSchedule(ScheduledExecutorService executor) {
    this.executor = executor;
  }

  /**
   * @param firstAfter when the first run comes (a minute after start-up: the server serves first)
   * @param every the period between runs
   */
  public static ArchiveSchedule start(
      Archiver archiver, Duration retention, Clock clock, Duration firstAfter, Duration every) {
    ScheduledExecutorService executor =
        Executors.newSingleThreadScheduledExecutor(
            r -> Thread.ofPlatform().name("archive-schedule").daemon().unstarted(r));
    executor.scheduleWithFixedDelay(
        () -> {
          try {
            archiver
                .runIfAny(clock.instant().minus(retention))
                .ifPresent(a ->
                    log.info(
                        "retention: archived {} agreements into {}", a.agreements(), a.name()));
          } catch (RuntimeException e) {
            log.error("retention: the archive run failed: {}", e.getMessage(), e);
          }
        },
        firstAfter.toMillis(),
        every.toMillis(),
        TimeUnit.MILLISECONDS);
    log.info(
        "retention: agreements that ended more than {} days ago are archived every {} minutes",
        retention.toDays(),
        every.toMinutes());
    return new ArchiveSchedule(executor);
  }

  /**
   * No new run starts; one in progress ends on its own (stop the {@link Archiver} first to cut it
   * short after its batch). Never interrupts it: an interrupt closes the archive file's channel in
   * the middle of a write, leaving the archive for the next start-up to close.
   */
  @Override
  public void close() {
    executor.shutdown();
    try {
      if (!executor.awaitTermination(30, TimeUnit.SECONDS)) {
        log.warn("retention: a run did not end within 30 s; start-up will close its archive");
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
