package dev.asa.server.agreements;

import dev.asa.agreement.Agreement;
import dev.asa.agreement.AgreementDocuments;
import dev.asa.facts.ServerFacts;
import dev.asa.server.store.AgreementRow;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Parsed agreements by id and row version. Reading a stored document means parsing it, reading its
 * typed terms and hashing its canonical form: work worth skipping for the agreements in flight.
 * Entries are immutable and keyed by version, so a stale entry is never served: the row read from
 * the store decides which version is current, the cache only spares the parsing.
 */
final class AgreementCache {
  private record Entry(long version, Agreement agreement) {}

  private final ConcurrentHashMap<String, Entry> entries = new ConcurrentHashMap<>();
  private final int maxEntries;

  AgreementCache(int maxEntries) {
    this.maxEntries = maxEntries;
  }

  Agreement of(AgreementRow row) {
    Entry e = entries.get(row.id());
    if (e != null && e.version() == row.version()) {
      return e.agreement();
    }
    Agreement a = AgreementDocuments.readStored(row.document(), ServerFacts.fromStored(row.facts()));
    remember(row.id(), row.version(), a);
    return a;
  }

  void remember(String id, long version, Agreement agreement) {
    if (entries.size() >= maxEntries) {
      entries.clear(); // crude but bounded; agreements in flight come back on their next call
    }
    entries.merge(id, new Entry(version, agreement), (old, neu) -> neu.version() > old.version() ? neu : old);
  }
}
