package dev.asa.server.work;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import dev.asa.document.Agreement;
import dev.asa.document.AgreementDocuments;
import dev.asa.facts.ServerFacts;
import dev.asa.server.store.agreements.AgreementRow;

/**
 * Parsed agreements by id and row version. Reading a stored document means parsing it, reading its
 * typed terms and hashing its canonical form: work worth skipping for the agreements in flight.
 * Entries are immutable and keyed by version, so a stale entry is never served: the row read from
 * the store decides which version is current, the cache only spares the parsing.
 *
 * <p>Bounded by Caffeine's size policy, which keeps the agreements used often and recently and
 * drops the others one by one, rather than forgetting everything when full.
 */
final class AgreementCache {
  private record Entry(long version, Agreement agreement) {}

  private final Cache<String, Entry> entries;

  AgreementCache(int maxEntries) {
    // Eviction runs on the calling thread: it is a few pointer moves, and the bound then holds as
    // soon as a call returns instead of whenever the common pool gets to it.
    this.entries = Caffeine.newBuilder().maximumSize(maxEntries).executor(Runnable::run).build();
  }

  Agreement of(AgreementRow row) {
    Entry e = entries.getIfPresent(row.id());
    if (e != null && e.version() == row.version()) {
      return e.agreement();
    }
    Agreement a =
        AgreementDocuments.readStored(
            row.document(), row.state(), ServerFacts.fromStored(row.facts()));
    remember(row.id(), row.version(), a);
    return a;
  }

  /**
   * Keeps {@code agreement} unless a newer version is already kept: a slow reader never rolls one
   * back.
   */
  void remember(String id, long version, Agreement agreement) {
    entries
        .asMap()
        .merge(
            id,
            new Entry(version, agreement),
            (old, neu) -> neu.version() > old.version() ? neu : old);
  }

  /** The number of agreements kept (Caffeine's estimate, exact here once pending work is done). */
  long size() {
    entries.cleanUp();
    return entries.estimatedSize();
  }
}
