package dev.asa.server.store.archive;

import java.util.List;
import java.util.Map;

/**
 * Where a batch of agreements goes before it leaves the hot tables ({@link ArchiveStore#moveOut}):
 * called inside the transaction that deletes them, it must have made the batch durable (written and
 * flushed) when it returns. If it throws, nothing leaves.
 */
@FunctionalInterface
public interface ArchiveSink {

  /**
   * Appends the batch after the archive's committed length, first cutting off whatever lies past it
   * (a batch whose transaction did not commit).
   *
   * @param committedBytes the archive's length as the store last committed it
   */
  Written write(long committedBytes, List<ArchivedRows> batch);

  /**
   * @param bytes the archive's length once the batch is in
   * @param readers per agreement id, the keys that may be told where it went
   */
  record Written(long bytes, Map<String, java.util.Set<String>> readers) {}
}
