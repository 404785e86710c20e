package dev.asa.server.store.archive;

import dev.asa.server.store.agreements.AgreementRow;
import dev.asa.server.store.agreements.AgreementStore;
import dev.asa.server.store.agreements.EventRecord;
import dev.asa.server.store.agreements.EventStore;
import dev.asa.server.store.db.Database;
import dev.asa.server.store.db.Dialect;
import dev.asa.server.store.db.EpochMillis;
import dev.asa.server.store.db.PackedText;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.jdbi.v3.core.Handle;
import org.jdbi.v3.core.mapper.RowMapper;

/**
 * Archival after retention: which ended agreements may leave the hot tables, and moving a batch of
 * them out in one transaction with the record of where they went.
 *
 * <p>Why the archive's length is in the database: the file and the tables cannot commit together,
 * so the transaction that deletes a batch also records the file's new length, after the batch was
 * written and flushed. A kill before the commit leaves the batch in the tables and its bytes past
 * the recorded length, where the next write cuts them off; a kill after leaves it in the file
 * alone. Either way each agreement is in exactly one place.
 */
public final class ArchiveStore {

  /** The states an agreement never leaves: only these are archived. */
  private static final String FINAL = "('closed', 'rejected', 'expired')";

  // Oldest first, after a cursor, so that agreements skipped (a message still to send, a linked
  // agreement still running) are not scanned again by the next batch.
  private static final String CANDIDATES =
      "SELECT a.id, a.row_seq FROM agreements a"
          + " WHERE a.row_seq > :after AND a.state IN "
          + FINAL
          + " AND a.updated_at < :before"
          + " AND NOT EXISTS (SELECT 1 FROM outbox o"
          + "   WHERE o.agreement_id = a.id AND o.status = 'pending')"
          + " AND NOT EXISTS (SELECT 1 FROM verification_jobs j"
          + "   WHERE j.agreement_id = a.id AND j.status IN ('queued', 'running'))"
          + " AND NOT EXISTS (SELECT 1 FROM agreement_links l JOIN agreements b"
          + "   ON b.id = l.child_id OR b.id = l.parent_id"
          + "   WHERE (l.parent_id = a.id OR l.child_id = a.id) AND b.id <> a.id"
          + "   AND b.state NOT IN "
          + FINAL
          + ")"
          + " ORDER BY a.row_seq LIMIT :limit";

  private static final String LOCK_SQLITE =
      "SELECT row_seq, id, version, state, document, facts, service_type, client_identity,"
          + " provider_identity, evaluator_identity, created_at, updated_at, amount, currency"
          + " FROM agreements WHERE id = :id";
  // PostgreSQL: the row lock makes a concurrent change of this agreement (an anchor recorded on a
  // closed agreement, say) wait for the batch and then find the agreement gone (a 409), instead of
  // writing an event the batch has not archived.
  private static final String LOCK_POSTGRES = LOCK_SQLITE + " FOR UPDATE";

  /**
   * The tables that name an agreement, with the columns archived (never a content column) and the
   * order their rows are read in. Deleted in the reverse order of this list's dependencies, see
   * {@link #DELETES}.
   */
  private static final Map<String, String> TABLES = tables();

  private static Map<String, String> tables() {
    Map<String, String> t = new LinkedHashMap<>();
    t.put(
        "deliverables",
        "SELECT attempt, content_hash, content_url, format, size_bytes, delivered_at"
            + " FROM deliverables WHERE agreement_id = :id ORDER BY attempt");
    t.put(
        "verifications",
        "SELECT id, deliverable_hash, result, composite, created_at"
            + " FROM verifications WHERE agreement_id = :id ORDER BY created_at, row_seq");
    // The legs as the archive has always had them: the transfer id (Transfer.id) put together.
    t.put(
        "ledger_entries",
        "SELECT a.id || '/' || l.kind AS transfer_id, l.leg, l.kind, l.account, l.direction,"
            + " l.currency, l.amount, l.at FROM ledger_entries l JOIN agreements a"
            + " ON a.row_seq = l.agreement_seq WHERE a.id = :id ORDER BY l.at, l.kind, l.leg");
    t.put(
        "escrow_authorizations",
        "SELECT binding, body, created_at FROM escrow_authorizations WHERE agreement_id = :id");
    t.put(
        "outbox",
        "SELECT id, kind, destination, body, created_at, status, attempts, last_error,"
            + " delivered_at FROM outbox WHERE agreement_id = :id ORDER BY created_at, id");
    t.put(
        "verification_jobs",
        "SELECT id, deliverable_hash, caller, status, stage, error, created_at, updated_at"
            + " FROM verification_jobs WHERE agreement_id = :id ORDER BY created_at, id");
    t.put(
        "seals",
        "SELECT id, sealer_key, commitment, seal, envelope, hardening, validation, created_at,"
            + " revealed_at FROM seals WHERE agreement_id = :id");
    t.put(
        "seal_reads",
        "SELECT r.seal_id, r.caller, r.route, r.at FROM seal_reads r JOIN seals s"
            + " ON s.id = r.seal_id WHERE s.agreement_id = :id ORDER BY r.at");
    t.put(
        "chain_transactions",
        "SELECT message_id, chain_id, sender, nonce, call, tx_hash, raw_tx, signed_at, status,"
            + " block_number, confirmations, observed_at, replaced_hashes, gas_used"
            + " FROM chain_transactions WHERE agreement_id = :id ORDER BY signed_at, message_id");
    t.put(
        "agreement_links",
        "SELECT parent_id, child_id FROM agreement_links"
            + " WHERE parent_id = :id OR child_id = :id ORDER BY parent_id, child_id");
    return t;
  }

  /** Deleted in this order (children before the rows they reference). */
  private static final List<String> DELETES =
      List.of(
          "DELETE FROM seal_reads WHERE seal_id IN (SELECT id FROM seals WHERE agreement_id = :id)",
          "DELETE FROM seals WHERE agreement_id = :id",
          "DELETE FROM verification_jobs WHERE agreement_id = :id",
          "DELETE FROM verifications WHERE agreement_id = :id",
          "DELETE FROM deliverables WHERE agreement_id = :id",
          "DELETE FROM outbox WHERE agreement_id = :id",
          "DELETE FROM escrow_authorizations WHERE agreement_id = :id",
          "DELETE FROM ledger_entries"
              + " WHERE agreement_seq IN (SELECT row_seq FROM agreements WHERE id = :id)",
          "DELETE FROM timers WHERE agreement_id = :id",
          "DELETE FROM chain_transactions WHERE agreement_id = :id",
          "DELETE FROM agreement_links WHERE parent_id = :id OR child_id = :id",
          "DELETE FROM agreement_events WHERE agreement_id = :id",
          "DELETE FROM agreement_trails"
              + " WHERE agreement_seq IN (SELECT row_seq FROM agreements WHERE id = :id)");

  private static final String DELETE_AGREEMENT = "DELETE FROM agreements WHERE id = :id";

  private static final String INSERT_ARCHIVE =
      "INSERT INTO archives (name, state, closed_before, started_at, agreements, bytes)"
          + " VALUES (:name, 'writing', :closed_before, :started_at, 0, :bytes)";
  private static final String ARCHIVE_COLUMNS =
      "name, state, closed_before, started_at, completed_at, agreements, bytes, file_sha256";
  private static final String SELECT_ARCHIVE =
      "SELECT " + ARCHIVE_COLUMNS + " FROM archives WHERE name = :name";
  private static final String SELECT_ARCHIVES =
      "SELECT " + ARCHIVE_COLUMNS + " FROM archives ORDER BY started_at DESC, name LIMIT :limit";
  private static final String SELECT_WRITING =
      "SELECT " + ARCHIVE_COLUMNS + " FROM archives WHERE state = 'writing' ORDER BY started_at";
  // The committed length must still be the one the batch was appended after: two writers of one
  // archive would otherwise both believe their batch followed the same bytes.
  private static final String GROW =
      "UPDATE archives SET bytes = :bytes, agreements = agreements + :added"
          + " WHERE name = :name AND state = 'writing' AND bytes = :committed";
  private static final String COMPLETE =
      "UPDATE archives SET state = 'complete', completed_at = :completed_at, bytes = :bytes,"
          + " file_sha256 = :file_sha256 WHERE name = :name AND state = 'writing'";
  private static final String INSERT_TOMBSTONE =
      "INSERT INTO archived_agreements (id, archive, parties, archived_at)"
          + " VALUES (:id, :archive, :parties, :archived_at)";
  private static final String SELECT_TOMBSTONE =
      "SELECT id, archive, parties, archived_at FROM archived_agreements WHERE id = :id";
  private static final String COUNT_ARCHIVED =
      "SELECT count(*) FROM archived_agreements WHERE archive = :archive";

  private static final RowMapper<ArchiveRow> ARCHIVE =
      (rs, context) ->
          new ArchiveRow(
              rs.getString("name"),
              ArchiveRow.Status.valueOf(rs.getString("state").toUpperCase(Locale.ROOT)),
              EpochMillis.instant(rs, "closed_before"),
              EpochMillis.instant(rs, "started_at"),
              rs.getObject("completed_at") == null ? null : EpochMillis.instant(rs, "completed_at"),
              rs.getLong("agreements"),
              rs.getLong("bytes"),
              rs.getString("file_sha256"));

  private static final RowMapper<Tombstone> TOMBSTONE =
      (rs, context) -> {
        String parties = rs.getString("parties");
        return new Tombstone(
            rs.getString("id"),
            rs.getString("archive"),
            parties.isEmpty() ? Set.of() : Set.of(parties.split(" ")),
            EpochMillis.instant(rs, "archived_at"));
      };

  private final Database database;

  public ArchiveStore(Database database) {
    this.database = database;
  }

  /** An agreement the next batch may take, with its place in the table (the scan's cursor). */
  public record Candidate(String id, long rowSeq) {}

  /**
   * Up to {@code limit} agreements that ended before {@code closedBefore}, oldest first after the
   * cursor: in a final state, with no message still to send, no verification still running and no
   * linked agreement still running.
   *
   * @param afterRowSeq the cursor: 0 for the first batch, then the last candidate's
   */
  public List<Candidate> candidates(Instant closedBefore, long afterRowSeq, int limit) {
    return database.read(
        "listing agreements to archive",
        h ->
            h.createQuery(CANDIDATES)
                .bind("after", afterRowSeq)
                .bind("before", closedBefore.toEpochMilli())
                .bind("limit", limit)
                .map((rs, ctx) -> new Candidate(rs.getString("id"), rs.getLong("row_seq")))
                .list());
  }

  /** Records a new archive whose file holds {@code headerBytes} already (its header line). */
  public void begin(String name, Instant closedBefore, Instant startedAt, long headerBytes) {
    database.write(
        "recording archive " + name,
        h ->
            h.createUpdate(INSERT_ARCHIVE)
                .bind("name", name)
                .bind("closed_before", closedBefore.toEpochMilli())
                .bind("started_at", startedAt.toEpochMilli())
                .bind("bytes", headerBytes)
                .execute());
  }

  /**
   * Moves the agreements out of the hot tables into the archive, in one transaction: each is read
   * again under lock and taken only if it still ended before the cutoff; the sink makes the batch
   * durable; then its rows are deleted, a tombstone per agreement says where it went, and the
   * archive's committed length grows. If anything throws, nothing moved.
   *
   * @return how many agreements moved (0 when none was still eligible: the sink was not called)
   * @throws IllegalStateException when the archive's committed length is no longer the one read
   *     (another writer of the same archive), or the archive is closed
   */
  public int moveOut(
      String archive, List<String> ids, Instant closedBefore, Instant now, ArchiveSink sink) {
    return database.write(
        "archiving " + ids.size() + " agreements into " + archive,
        h -> {
          ArchiveRow row =
              h.createQuery(SELECT_ARCHIVE)
                  .bind("name", archive)
                  .map(ARCHIVE)
                  .findOne()
                  .orElseThrow(() -> new IllegalArgumentException("no archive " + archive));
          if (row.status() != ArchiveRow.Status.WRITING) {
            throw new IllegalStateException("archive " + archive + " is closed");
          }
          List<ArchivedRows> batch = new ArrayList<>();
          List<Long> rowSeqs = new ArrayList<>();
          for (String id : ids) {
            read(h, id, closedBefore, rowSeqs).ifPresent(batch::add);
          }
          if (batch.isEmpty()) {
            return 0;
          }
          ArchiveSink.Written written = sink.write(row.bytes(), batch);
          for (int i = 0; i < batch.size(); i++) {
            AgreementRow a = batch.get(i).agreement();
            for (String delete : DELETES) {
              h.createUpdate(delete).bind("id", a.id()).execute();
            }
            AgreementStore.deleteParties(
                h,
                rowSeqs.get(i),
                AgreementStore.parties(
                    a.clientIdentity(), a.providerIdentity(), a.evaluatorIdentity()));
            h.createUpdate(DELETE_AGREEMENT).bind("id", a.id()).execute();
            Set<String> readers = written.readers().getOrDefault(a.id(), Set.of());
            h.createUpdate(INSERT_TOMBSTONE)
                .bind("id", a.id())
                .bind("archive", archive)
                .bind("parties", String.join(" ", new LinkedHashSet<>(readers)))
                .bind("archived_at", now.toEpochMilli())
                .execute();
          }
          int grown =
              h.createUpdate(GROW)
                  .bind("bytes", written.bytes())
                  .bind("added", batch.size())
                  .bind("name", archive)
                  .bind("committed", row.bytes())
                  .execute();
          if (grown != 1) {
            throw new IllegalStateException(
                "archive " + archive + " grew while this batch was written (two writers?)");
          }
          return batch.size();
        });
  }

  /** Closes the archive: its file is complete, {@code bytes} long with the manifest. */
  public void complete(String archive, long bytes, String fileSha256, Instant completedAt) {
    database.write(
        "closing archive " + archive,
        h -> {
          int n =
              h.createUpdate(COMPLETE)
                  .bind("name", archive)
                  .bind("bytes", bytes)
                  .bind("file_sha256", fileSha256)
                  .bind("completed_at", completedAt.toEpochMilli())
                  .execute();
          if (n != 1) {
            throw new IllegalStateException("archive " + archive + " is not being written");
          }
          return null;
        });
  }

  public Optional<ArchiveRow> find(String name) {
    return database.read(
        "reading archive " + name,
        h -> h.createQuery(SELECT_ARCHIVE).bind("name", name).map(ARCHIVE).findOne());
  }

  /** The newest archives first. */
  public List<ArchiveRow> list(int limit) {
    return database.read(
        "listing archives",
        h -> h.createQuery(SELECT_ARCHIVES).bind("limit", limit).map(ARCHIVE).list());
  }

  /** Archives a run left unfinished (a kill, a stop): what recovery closes. */
  public List<ArchiveRow> writing() {
    return database.read(
        "listing unfinished archives", h -> h.createQuery(SELECT_WRITING).map(ARCHIVE).list());
  }

  /** Where an archived agreement went; empty for an id never archived. */
  public Optional<Tombstone> tombstone(String id) {
    return database.read(
        "reading the tombstone of " + id,
        h -> h.createQuery(SELECT_TOMBSTONE).bind("id", id).map(TOMBSTONE).findOne());
  }

  /** How many tombstones name the archive (what its committed part holds). */
  public long countArchived(String archive) {
    return database.read(
        "counting the agreements of archive " + archive,
        h -> h.createQuery(COUNT_ARCHIVED).bind("archive", archive).mapTo(Long.class).one());
  }

  private Optional<ArchivedRows> read(
      Handle h, String id, Instant closedBefore, List<Long> rowSeqs) {
    String lock = database.dialect() == Dialect.POSTGRESQL ? LOCK_POSTGRES : LOCK_SQLITE;
    Optional<Map.Entry<Long, AgreementRow>> found =
        h.createQuery(lock)
            .bind("id", id)
            .map((rs, ctx) -> Map.entry(rs.getLong("row_seq"), AgreementStore.ROW.map(rs, ctx)))
            .findOne();
    if (found.isEmpty()) {
      return Optional.empty(); // archived by another run, or never here
    }
    AgreementRow agreement = found.get().getValue();
    if (!agreement.state().isFinal() || !agreement.updatedAt().isBefore(closedBefore)) {
      return Optional.empty(); // changed since it was listed
    }
    List<EventRecord> events = EventStore.logIn(h, id);
    Map<String, List<Map<String, Object>>> tables = new LinkedHashMap<>();
    TABLES.forEach((table, sql) -> tables.put(table, rows(h, table, sql, id)));
    rowSeqs.add(found.get().getKey());
    return Optional.of(new ArchivedRows(agreement, events, tables));
  }

  private static List<Map<String, Object>> rows(Handle h, String table, String sql, String id) {
    return h.createQuery(sql)
        .bind("id", id)
        .map((rs, ctx) -> {
          var meta = rs.getMetaData();
          Map<String, Object> row = new LinkedHashMap<>();
          for (int c = 1; c <= meta.getColumnCount(); c++) {
            String column = meta.getColumnLabel(c).toLowerCase(Locale.ROOT);
            row.put(column, value(table, column, rs.getObject(c)));
          }
          return row;
        })
        .list();
  }

  /** A column's value as the archive keeps it: text, a whole number, or null. */
  private static Object value(String table, String column, Object raw) {
    if (raw == null) {
      return null;
    }
    if (table.equals("outbox") && column.equals("body")) {
      byte[] body =
          raw instanceof byte[] b
              ? PackedText.unpack(b).getBytes(java.nio.charset.StandardCharsets.UTF_8)
              : raw.toString().getBytes(java.nio.charset.StandardCharsets.UTF_8);
      return dev.asa.crypto.Digest.sha256(body).toString(); // a webhook can carry a deliverable
    }
    return switch (raw) {
      case byte[] b -> PackedText.unpack(b);
      case Integer i -> i.longValue();
      case Long l -> l;
      case Short s -> s.longValue();
      case java.math.BigDecimal d -> d.toPlainString();
      default -> raw.toString();
    };
  }

  /**
   * Whether the database has a single writer (SQLite), so that a long archive run should leave it
   * idle between batches for requests to be served.
   */
  public boolean hasOneWriter() {
    return database.dialect() == Dialect.SQLITE;
  }
}
