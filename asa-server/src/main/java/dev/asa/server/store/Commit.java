package dev.asa.server.store;

import dev.asa.server.store.agreements.AgreementRow;
import dev.asa.server.store.agreements.EventRecord;
import java.util.List;
import java.util.Objects;

/**
 * One agreement change, applied atomically: the new row, the events that explain it and any side
 * writes. The change only lands if the stored version still equals the version of {@code previous}.
 *
 * @param previous the row as read at the version the change was decided on: what the store replaces
 *     (the parties it listed and the state it was in are taken from it, not read again)
 * @param updated the new row; carries {@code version = previous.version() + 1}
 */
public record Commit(
    AgreementRow previous, AgreementRow updated, List<EventRecord> events, List<Write> writes) {

  public Commit {
    Objects.requireNonNull(previous, "previous");
    Objects.requireNonNull(updated, "updated");
    events = List.copyOf(events);
    writes = List.copyOf(writes);
    // Caller bugs, not concurrency conflicts: refused before touching the database.
    if (!updated.id().equals(previous.id())) {
      throw new IllegalArgumentException(
          "commit of agreement " + updated.id() + " over a row of agreement " + previous.id());
    }
    if (updated.version() != previous.version() + 1) {
      throw new IllegalArgumentException(
          "commit of agreement "
              + updated.id()
              + " must carry version "
              + (previous.version() + 1)
              + " (expected version "
              + previous.version()
              + " + 1), not "
              + updated.version());
    }
  }

  /** The version the stored row must still have for the change to land. */
  public long expectedVersion() {
    return previous.version();
  }
}
