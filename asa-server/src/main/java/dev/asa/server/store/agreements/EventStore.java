package dev.asa.server.store.agreements;

import dev.asa.server.store.db.Database;
import dev.asa.server.store.db.EpochMillis;
import dev.asa.server.store.db.PackedDigest;
import dev.asa.server.store.db.PackedText;
import dev.asa.server.store.db.PackedText.Dictionary;
import dev.asa.server.store.db.SqlErrors;
import java.util.List;
import java.util.Optional;
import org.jdbi.v3.core.Handle;
import org.jdbi.v3.core.mapper.RowMapper;
import org.jdbi.v3.core.statement.PreparedBatch;

/**
 * The agreements' event logs: append-only and hash-chained. The store does not compute or check the
 * hashes (that rule lives in the core); the primary key (agreement, seq) guarantees that two
 * writers can never both append "event 5". Events are appended with the agreement change they
 * explain (see {@link AgreementStore}).
 */
public final class EventStore {

  private static final String COLUMNS =
      "agreement_id, seq, type, actor, occurred_at, payload, prev_hash, hash";
  private static final String INSERT =
      "INSERT INTO agreement_events ("
          + COLUMNS
          + ") VALUES (:agreement_id, :seq, :type, :actor, :occurred_at, :payload, :prev_hash,"
          + " :hash)";
  private static final String SELECT_LOG =
      "SELECT "
          + COLUMNS
          + " FROM agreement_events WHERE agreement_id = :agreement_id ORDER BY seq";
  private static final String SELECT_LAST =
      "SELECT "
          + COLUMNS
          + " FROM agreement_events WHERE agreement_id = :agreement_id ORDER BY seq DESC LIMIT 1";

  /** An event as read from its row (the archive reads the rows it moves out with it). */
  public static final RowMapper<EventRecord> ROW =
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

  private final Database database;

  public EventStore(Database database) {
    this.database = database;
  }

  /** The agreement's event log, ordered by seq. */
  public List<EventRecord> log(String agreementId) {
    return database.read(
        "reading the events of agreement " + agreementId,
        handle -> handle.createQuery(SELECT_LOG).bind("agreement_id", agreementId).map(ROW).list());
  }

  /** The newest event of the agreement's log (what the next event chains to). */
  public Optional<EventRecord> last(String agreementId) {
    return database.read(
        "reading the last event of agreement " + agreementId,
        handle ->
            handle.createQuery(SELECT_LAST).bind("agreement_id", agreementId).map(ROW).findOne());
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
    PreparedBatch batch = handle.prepareBatch(INSERT);
    for (EventRecord e : events) {
      batch
          .bind("agreement_id", e.agreementId())
          .bind("seq", e.seq())
          .bind("type", e.type())
          .bind("actor", PackedText.pack(e.actor(), Dictionary.VOCABULARY))
          .bind("occurred_at", e.at().toEpochMilli())
          .bind("payload", PackedText.pack(e.payload(), Dictionary.VOCABULARY))
          .bind("prev_hash", PackedDigest.pack(e.prevHash()))
          .bind("hash", PackedDigest.pack(e.hash()))
          .add();
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
        batch::execute);
  }
}
