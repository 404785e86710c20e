package dev.asa.server.store;

import dev.asa.server.store.agreements.AgreementRow;
import dev.asa.server.store.agreements.EventRecord;
import java.util.List;
import java.util.Objects;

/**
 * One agreement change, applied atomically: the new row, the events that explain it and any side
 * writes. The change only lands if the stored version still equals {@code expectedVersion}.
 *
 * @param updated the new row; carries {@code version = expectedVersion + 1}
 */
public record Commit(
    AgreementRow updated, long expectedVersion, List<EventRecord> events, List<Write> writes) {

  public Commit {
    Objects.requireNonNull(updated, "updated");
    events = List.copyOf(events);
    writes = List.copyOf(writes);
    // A caller bug, not a concurrency conflict: refuse it before touching the database.
    if (updated.version() != expectedVersion + 1) {
      throw new IllegalArgumentException(
          "commit of agreement "
              + updated.id()
              + " must carry version "
              + (expectedVersion + 1)
              + " (expected version "
              + expectedVersion
              + " + 1), not "
              + updated.version());
    }
  }
}
