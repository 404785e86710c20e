package dev.asa.server.archive;

import dev.asa.server.timers.DuePoller;
import java.time.Clock;
import java.time.Duration;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code --retention-days}: archives, every hour, the agreements that ended longer ago than the
 * retention. A run that finds nothing leaves no file; a run that fails is logged and tried again at
 * the next hour (what it committed is closed by the next run's recovery).
 */
public final class ArchiveSchedule {
  private static final Logger log = LoggerFactory.getLogger(ArchiveSchedule.class);

  /** How long a stopping server waits for a run in progress. */
  static final Duration PATIENCE = Duration.ofSeconds(30);

  private ArchiveSchedule() {}

  /**
   * The schedule, as the {@link DuePoller}'s kind {@code archive-schedule}. When the poller closes,
   * no new run starts and one in progress ends on its own, waited for up to 30 s (stop the {@link
   * Archiver} first to cut it short after its batch). It is never interrupted: an interrupt closes
   * the archive file's channel in the middle of a write, leaving the archive for the next start-up
   * to close.
   *
   * @param firstAfter when the first run comes (a minute after start-up: the server serves first)
   * @param every the period between runs
   */
  public static DuePoller.Kind due(
      Archiver archiver, Duration retention, Clock clock, Duration firstAfter, Duration every) {
    log.info(
        "retention: agreements that ended more than {} days ago are archived every {} minutes",
        retention.toDays(),
        every.toMinutes());
    return new DuePoller.Kind(
        "archive-schedule",
        firstAfter,
        every,
        new DuePoller.OnClose.Finish(
            PATIENCE,
            () ->
                log.warn(
                    "retention: a run did not end within 30 s; start-up will close its archive")),
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
        });
  }
}
