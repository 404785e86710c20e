package dev.asa.server.store.agreements;

import dev.asa.server.store.db.Database;
import dev.asa.server.store.db.EpochMillis;
import dev.asa.server.store.db.PackedDigest;
import dev.asa.server.store.db.PackedText;
import dev.asa.server.store.db.PlainStatements;
import dev.asa.server.store.db.SqlErrors;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import org.jdbi.v3.core.Handle;
import org.jdbi.v3.core.mapper.RowMapper;

/**
 * The agreements' event logs: append-only and hash-chained. The store does not compute or check the
 * hashes (that rule lives in the core); the primary key (agreement, seq) guarantees that two
 * writers can never both append "event 5". Events are appended with the agreement change they
 * explain (see {@link AgreementStore}). When a change ends an agreement, its log is packed into one
 * row of its own ({@link #pack}) and read back as it was; a later change of the ended agreement
 * (under the row's version check, like every change) appends its events as rows, and the same
 * transaction packs them with the rest.
 */
public final class EventStore {

  private static final String COLUMNS =
      "agreement_id, seq, type, actor, occurred_at, payload, prev_hash, hash";
  // Positional (a plain statement, at every change): in the order of COLUMNS.
  private static final String INSERT =
      "INSERT INTO agreement_events (" + COLUMNS + ") VALUES (?, ?, ?, ?, ?, ?, ?, ?)";
  // An agreement's events are in their rows, or, once it has ended, packed into one row of
  // agreement_trails (EventTrail). One statement reads both, so a packing that commits meanwhile
  // is seen whole or not at all.
  private static final String TRAIL_BRANCH =
      " UNION ALL SELECT a.id, NULL, NULL, NULL, NULL, NULL, NULL, NULL, t.trail"
          + " FROM agreement_trails t JOIN agreements a ON a.row_seq = t.agreement_seq"
          + " WHERE a.id = :agreement_id";
  // Positional (read in the transaction that ends an agreement, to pack it): the id, twice.
  private static final String SELECT_LOG =
      ("SELECT "
              + COLUMNS
              + ", NULL AS trail FROM agreement_events WHERE agreement_id = :agreement_id"
              + TRAIL_BRANCH)
          .replace(":agreement_id", "?");
  // No subquery with ORDER BY and LIMIT: PostgreSQL would type its NULL trail as text there,
  // which the trail branch's bytea cannot join.
  private static final String SELECT_LAST =
      "SELECT "
          + COLUMNS
          + ", NULL AS trail FROM agreement_events WHERE agreement_id = :agreement_id"
          + " AND seq = (SELECT max(seq) FROM agreement_events WHERE agreement_id = :agreement_id)"
          + TRAIL_BRANCH;
  // Positional, as SELECT_LOG: the trail, then the id; the id.
  private static final String PACK =
      "INSERT INTO agreement_trails (agreement_seq, trail)"
          + " SELECT row_seq, ? FROM agreements WHERE id = ?"
          + " ON CONFLICT (agreement_seq) DO UPDATE SET trail = excluded.trail";
  private static final String DELETE_ROWS = "DELETE FROM agreement_events WHERE agreement_id = ?";

  /** An event as read from its row. */
  private static final RowMapper<EventRecord> ROW =
      (rs, context) ->
          new EventRecord(
              rs.getString("agreement_id"),
              rs.getLong("seq"),
              rs.getString("type"),
              PackedText.unpack(rs.getBytes("actor")),
              EpochMillis.instant(rs, "occurred_at"),
              PackedText.unpack(rs.getBytes("payload")),
              PackedDigest.unpack(rs.getBytes("prev_hash")),
              PackedDigest.unpack(rs.getBytes("hash")));

  /** A row of SELECT_LOG or SELECT_LAST: one event, or the packed events of the trail. */
  private static final RowMapper<List<EventRecord>> ROW_OR_TRAIL =
      (rs, context) -> {
        byte[] trail = rs.getBytes("trail");
        return trail == null
            ? List.of(ROW.map(rs, context))
            : EventTrail.unpack(rs.getString("agreement_id"), trail);
      };

  private final Database database;

  public EventStore(Database database) {
    this.database = database;
  }

  /** The agreement's event log, ordered by seq. */
  public List<EventRecord> log(String agreementId) {
    return database.read(
        "reading the events of agreement " + agreementId, handle -> logIn(handle, agreementId));
  }

  /** The agreement's event log, ordered by seq, read in the caller's transaction. */
  public static List<EventRecord> logIn(Handle handle, String agreementId) {
    List<EventRecord> events = new ArrayList<>();
    PlainStatements.list(
            handle,
            SELECT_LOG,
            PlainStatements.strings(agreementId, agreementId),
            row -> ROW_OR_TRAIL.map(row, null))
        .forEach(events::addAll);
    events.sort(Comparator.comparingLong(EventRecord::seq));
    return events;
  }

  /** The newest event of the agreement's log (what the next event chains to). */
  public Optional<EventRecord> last(String agreementId) {
    return database.read(
        "reading the last event of agreement " + agreementId,
        handle ->
            handle
                .createQuery(SELECT_LAST)
                .bind("agreement_id", agreementId)
                .map(ROW_OR_TRAIL)
                .stream()
                .flatMap(List::stream)
                .max(Comparator.comparingLong(EventRecord::seq)));
  }

  /**
   * Packs an ended agreement's whole log into its trail and deletes its event rows, inside the
   * caller's transaction (the one that ended it): the same events, stored once.
   */
  public static void pack(Handle handle, String agreementId) {
    List<EventRecord> events = logIn(handle, agreementId);
    if (events.isEmpty()) {
      return;
    }
    byte[] trail = EventTrail.pack(events);
    PlainStatements.update(
        handle,
        PACK,
        statement -> {
          statement.setBytes(1, trail);
          statement.setString(2, agreementId);
        });
    PlainStatements.update(handle, DELETE_ROWS, PlainStatements.strings(agreementId));
  }

  /** Refuses, before anything is written, events of another agreement than the one changed. */
  public static void requireBelongTo(String agreementId, List<EventRecord> events) {
    for (EventRecord event : events) {
      if (!event.agreementId().equals(agreementId)) {
        throw new IllegalArgumentException(
            "event "
                + event.seq()
                + " belongs to agreement "
                + event.agreementId()
                + ", not to "
                + agreementId);
      }
    }
  }

  /** Appends events, inside the caller's transaction; a seq already taken is a duplicate. */
  public static void append(Handle handle, String agreementId, List<EventRecord> events) {
    if (events.isEmpty()) {
      return;
    }
    SqlErrors.naming(
        () ->
            "an event seq of agreement "
                + agreementId
                + " is already taken (seqs "
                + events.getFirst().seq()
                + ".."
                + events.getLast().seq()
                + ")",
        () -> {
          PlainStatements.batch(
              handle,
              INSERT,
              events,
              (statement, e) -> {
                statement.setString(1, e.agreementId());
                statement.setLong(2, e.seq());
                statement.setString(3, e.type());
                // Unpacked: the rows live until the agreement ends, when the log is packed whole.
                statement.setBytes(4, PackedText.unpacked(e.actor()));
                statement.setLong(5, e.at().toEpochMilli());
                statement.setBytes(6, PackedText.unpacked(e.payload()));
                statement.setBytes(7, PackedDigest.pack(e.prevHash()));
                statement.setBytes(8, PackedDigest.pack(e.hash()));
              });
          return null;
        });
  }
}
