package dev.asa.server.store;

import dev.asa.lifecycle.State;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Types;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * The store's SQL, written once for both dialects (they differ only in schema scripts and in how
 * connections are handed out, see {@link Database}). Every method is one transaction or one read;
 * all statements are prepared with parameters, and owned by {@link Statements} (never closed here).
 */
final class JdbcAgreementStore implements AgreementStore {

  private static final String AGREEMENT_COLUMNS =
      "a.id, a.version, a.state, a.document, a.facts, a.service_type, a.client_identity,"
          + " a.provider_identity, a.evaluator_identity, a.created_at, a.updated_at";

  private static final String INSERT_AGREEMENT =
      "INSERT INTO agreements (id, version, state, document, facts, service_type, client_identity,"
          + " provider_identity, evaluator_identity, created_at, updated_at)"
          + " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING row_seq";
  private static final String SELECT_BEFORE_COMMIT =
      "SELECT row_seq, version, client_identity, provider_identity, evaluator_identity"
          + " FROM agreements WHERE id = ?";
  private static final String UPDATE_AGREEMENT =
      "UPDATE agreements SET version = ?, state = ?, document = ?, facts = ?, service_type = ?,"
          + " client_identity = ?, provider_identity = ?, evaluator_identity = ?, updated_at = ?"
          + " WHERE id = ? AND version = ?";
  private static final String INSERT_PARTY =
      "INSERT INTO agreement_parties (identity_value, row_seq, agreement_id, role)"
          + " VALUES (?, ?, ?, ?)";
  private static final String DELETE_PARTY =
      "DELETE FROM agreement_parties WHERE identity_value = ? AND row_seq = ?";
  private static final String INSERT_EVENT =
      "INSERT INTO agreement_events (agreement_id, seq, type, actor, occurred_at, payload,"
          + " prev_hash, hash) VALUES (?, ?, ?, ?, ?, ?, ?, ?)";
  private static final String INSERT_DELIVERABLE =
      "INSERT INTO deliverables (agreement_id, attempt, content_hash, content_url, format,"
          + " content, size_bytes, delivered_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)";
  private static final String ERASE_DELIVERABLE_CONTENT =
      "UPDATE deliverables SET content = NULL WHERE agreement_id = ? AND content IS NOT NULL";
  private static final String INSERT_VERIFICATION =
      "INSERT INTO verifications (id, agreement_id, deliverable_hash, result, created_at)"
          + " VALUES (?, ?, ?, ?, ?)";
  private static final String INSERT_LINK =
      "INSERT INTO agreement_links (parent_id, child_id) VALUES (?, ?)";
  private static final String SELECT_CHILDREN =
      "SELECT "
          + AGREEMENT_COLUMNS
          + " FROM agreement_links l JOIN agreements a ON a.id = l.child_id"
          + " WHERE l.parent_id = ? ORDER BY a.row_seq";
  private static final String UPSERT_TIMER =
      "INSERT INTO timers (id, agreement_id, kind, due_at) VALUES (?, ?, ?, ?)"
          + " ON CONFLICT (id) DO UPDATE SET due_at = excluded.due_at, done_at = NULL,"
          + " claimed_until = NULL, claimed_by = NULL, attempts = 0, last_error = NULL,"
          + " dead_at = NULL";
  private static final String TIMER_COLUMNS =
      "id, agreement_id, kind, due_at, attempts, last_error";
  private static final String SELECT_DUE_TIMERS =
      "SELECT "
          + TIMER_COLUMNS
          + " FROM timers WHERE done_at IS NULL AND dead_at IS NULL AND due_at <= ?"
          + " AND (claimed_until IS NULL OR claimed_until < ?) ORDER BY due_at LIMIT ?";
  private static final String CLAIM_TIMER =
      "UPDATE timers SET claimed_until = ?, claimed_by = ? WHERE id = ? AND done_at IS NULL"
          + " AND dead_at IS NULL AND (claimed_until IS NULL OR claimed_until < ?)";
  private static final String FINISH_TIMER =
      "UPDATE timers SET done_at = ? WHERE id = ? AND claimed_by = ?";
  private static final String FAIL_TIMER =
      "UPDATE timers SET attempts = attempts + 1, last_error = ?, due_at = COALESCE(?, due_at),"
          + " dead_at = ?, claimed_until = NULL, claimed_by = NULL"
          + " WHERE id = ? AND claimed_by = ? AND done_at IS NULL AND dead_at IS NULL";
  private static final String SELECT_TIMERS_OF =
      "SELECT "
          + TIMER_COLUMNS
          + " FROM timers WHERE agreement_id = ? AND done_at IS NULL AND dead_at IS NULL"
          + " ORDER BY due_at";
  private static final String SELECT_DEAD_TIMERS =
      "SELECT "
          + TIMER_COLUMNS
          + " FROM timers WHERE dead_at IS NOT NULL ORDER BY dead_at DESC, id LIMIT ?";
  private static final String INSERT_IDEMPOTENCY =
      "INSERT INTO idempotency_keys (scope, key, request_hash, status, response_body, created_at)"
          + " VALUES (?, ?, ?, ?, ?, ?)";

  private static final String SELECT_AGREEMENT =
      "SELECT " + AGREEMENT_COLUMNS + " FROM agreements a WHERE a.id = ?";
  private static final String SELECT_EVENTS =
      "SELECT agreement_id, seq, type, actor, occurred_at, payload, prev_hash, hash"
          + " FROM agreement_events WHERE agreement_id = ? ORDER BY seq";
  private static final String SELECT_RECENT_BY_TYPE_AND_STATE =
      "SELECT "
          + AGREEMENT_COLUMNS
          + " FROM agreements a WHERE a.service_type = ? AND a.state = ?"
          + " ORDER BY a.row_seq DESC LIMIT ?";
  private static final String SELECT_LAST_EVENT =
      "SELECT agreement_id, seq, type, actor, occurred_at, payload, prev_hash, hash"
          + " FROM agreement_events WHERE agreement_id = ? ORDER BY seq DESC LIMIT 1";
  // The inner query is a backwards range scan of the parties primary key (identity_value,
  // row_seq) that stops after limit + 1 rows; each is then joined to its agreement by primary key.
  // The LIMIT sits inside on purpose: written as a plain join, PostgreSQL may pick a merge join
  // that walks the agreements index from the newest row down to the cursor, which on a deep page
  // of a busy party reads hundreds of thousands of rows (measured: 370 ms vs 0.7 ms at 1M rows).
  private static final String LIST_BY_PARTY =
      "SELECT p.row_seq, "
          + AGREEMENT_COLUMNS
          + " FROM (SELECT row_seq FROM agreement_parties"
          + " WHERE identity_value = ? AND row_seq < ? ORDER BY row_seq DESC LIMIT ?) p"
          + " JOIN agreements a ON a.row_seq = p.row_seq"
          + " ORDER BY p.row_seq DESC";
  private static final String SELECT_LATEST_DELIVERABLE =
      "SELECT agreement_id, attempt, content_hash, content_url, format, content, size_bytes,"
          + " delivered_at FROM deliverables WHERE agreement_id = ?"
          + " ORDER BY attempt DESC LIMIT 1";
  private static final String VERIFICATION_COLUMNS =
      "id, agreement_id, deliverable_hash, result, created_at";
  private static final String SELECT_VERIFICATION =
      "SELECT " + VERIFICATION_COLUMNS + " FROM verifications WHERE id = ?";
  private static final String SELECT_VERIFICATIONS_FOR_AGREEMENT =
      "SELECT "
          + VERIFICATION_COLUMNS
          + " FROM verifications WHERE agreement_id = ?"
          + " ORDER BY created_at, row_seq";
  private static final String SELECT_IDEMPOTENCY =
      "SELECT scope, key, request_hash, status, response_body, created_at"
          + " FROM idempotency_keys WHERE scope = ? AND key = ?";

  private final Database database;

  JdbcAgreementStore(Database database) {
    this.database = database;
  }

  @Override
  public String describe() {
    return database.describe();
  }

  // ---- writes ----

  @Override
  public void create(AgreementRow row, List<EventRecord> events, List<Write> writes) {
    Objects.requireNonNull(row, "row");
    List<EventRecord> eventList = List.copyOf(events);
    List<Write> writeList = List.copyOf(writes);
    checkEventsBelongTo(row.id(), eventList);
    database.write(
        "creating agreement " + row.id(),
        sql -> {
          long rowSeq = insertAgreement(sql, row);
          insertParties(sql, row, rowSeq, parties(row));
          insertEvents(sql, row.id(), eventList);
          applyWrites(sql, writeList);
          return null;
        });
  }

  @Override
  public void commit(Commit commit) {
    AgreementRow row = commit.updated();
    long expected = commit.expectedVersion();
    checkEventsBelongTo(row.id(), commit.events());
    database.write(
        "committing agreement " + row.id(),
        sql -> {
          // Reading first costs one indexed lookup and buys two things: a stale commit is refused
          // before anything is written, and we learn the old parties without another query later.
          Before before = selectBeforeCommit(sql, row.id());
          if (before == null || before.version() != expected) {
            throw new StaleVersionException(row.id(), expected);
          }
          // The version condition is what actually guarantees "one winner": on PostgreSQL a
          // concurrent writer blocks on the row lock and then re-evaluates it against the new
          // version.
          if (updateAgreement(sql, row, expected) == 0) {
            throw new StaleVersionException(row.id(), expected);
          }
          Map<String, String> oldParties = before.parties();
          Map<String, String> newParties = parties(row);
          if (!oldParties.equals(newParties)) {
            deleteParties(sql, before.rowSeq(), oldParties);
            insertParties(sql, row, before.rowSeq(), newParties);
          }
          insertEvents(sql, row.id(), commit.events());
          applyWrites(sql, commit.writes());
          return null;
        });
  }

  @Override
  public void apply(List<Write> writes) {
    List<Write> writeList = List.copyOf(writes);
    if (writeList.isEmpty()) {
      return;
    }
    database.write(
        "applying " + writeList.size() + " write(s)",
        sql -> {
          applyWrites(sql, writeList);
          return null;
        });
  }

  private static void checkEventsBelongTo(String agreementId, List<EventRecord> events) {
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

  private static long insertAgreement(Statements sql, AgreementRow row) throws SQLException {
    PreparedStatement s = sql.prepare(INSERT_AGREEMENT);
    s.setString(1, row.id());
    s.setLong(2, row.version());
    s.setString(3, row.state().wireName());
    s.setString(4, row.document());
    s.setString(5, row.facts());
    s.setString(6, row.serviceType());
    s.setString(7, row.clientIdentity());
    s.setString(8, row.providerIdentity());
    s.setString(9, row.evaluatorIdentity());
    s.setLong(10, row.createdAt().toEpochMilli());
    s.setLong(11, row.updatedAt().toEpochMilli());
    try (ResultSet rs = executeQuery(s, () -> "agreement " + row.id() + " already exists")) {
      rs.next();
      return rs.getLong(1);
    }
  }

  private record Before(long rowSeq, long version, Map<String, String> parties) {}

  private static Before selectBeforeCommit(Statements sql, String id) throws SQLException {
    PreparedStatement s = sql.prepare(SELECT_BEFORE_COMMIT);
    s.setString(1, id);
    try (ResultSet rs = s.executeQuery()) {
      if (!rs.next()) {
        return null;
      }
      return new Before(
          rs.getLong(1), rs.getLong(2), parties(rs.getString(3), rs.getString(4), rs.getString(5)));
    }
  }

  private static int updateAgreement(Statements sql, AgreementRow row, long expected)
      throws SQLException {
    // created_at is deliberately not updated: it is when the agreement came to be.
    PreparedStatement s = sql.prepare(UPDATE_AGREEMENT);
    s.setLong(1, row.version());
    s.setString(2, row.state().wireName());
    s.setString(3, row.document());
    s.setString(4, row.facts());
    s.setString(5, row.serviceType());
    s.setString(6, row.clientIdentity());
    s.setString(7, row.providerIdentity());
    s.setString(8, row.evaluatorIdentity());
    s.setLong(9, row.updatedAt().toEpochMilli());
    s.setString(10, row.id());
    s.setLong(11, expected);
    return s.executeUpdate();
  }

  /** identity value -> its roles in the agreement ("client", "client,evaluator"...). */
  private static Map<String, String> parties(AgreementRow row) {
    return parties(row.clientIdentity(), row.providerIdentity(), row.evaluatorIdentity());
  }

  private static Map<String, String> parties(String client, String provider, String evaluator) {
    // One row per distinct identity, so an identity holding two roles is listed once.
    Map<String, String> roles = new LinkedHashMap<>();
    addRole(roles, client, "client");
    addRole(roles, provider, "provider");
    addRole(roles, evaluator, "evaluator");
    return roles;
  }

  private static void addRole(Map<String, String> roles, String identity, String role) {
    if (identity != null && !identity.isEmpty()) {
      roles.merge(identity, role, (a, b) -> a + "," + b);
    }
  }

  private static void insertParties(
      Statements sql, AgreementRow row, long rowSeq, Map<String, String> parties)
      throws SQLException {
    if (parties.isEmpty()) {
      return;
    }
    PreparedStatement s = sql.prepare(INSERT_PARTY);
    for (Map.Entry<String, String> party : parties.entrySet()) {
      s.setString(1, party.getKey());
      s.setLong(2, rowSeq);
      s.setString(3, row.id());
      s.setString(4, party.getValue());
      s.addBatch();
    }
    executeBatch(s, () -> "party rows of agreement " + row.id() + " already exist");
  }

  private static void deleteParties(Statements sql, long rowSeq, Map<String, String> parties)
      throws SQLException {
    if (parties.isEmpty()) {
      return;
    }
    PreparedStatement s = sql.prepare(DELETE_PARTY);
    for (String identity : parties.keySet()) {
      s.setString(1, identity);
      s.setLong(2, rowSeq);
      s.addBatch();
    }
    s.executeBatch();
  }

  private static void insertEvents(Statements sql, String agreementId, List<EventRecord> events)
      throws SQLException {
    if (events.isEmpty()) {
      return;
    }
    PreparedStatement s = sql.prepare(INSERT_EVENT);
    for (EventRecord e : events) {
      s.setString(1, e.agreementId());
      s.setLong(2, e.seq());
      s.setString(3, e.type());
      s.setString(4, e.actor());
      s.setLong(5, e.at().toEpochMilli());
      s.setString(6, e.payload());
      s.setString(7, e.prevHash());
      s.setString(8, e.hash());
      s.addBatch();
    }
    executeBatch(
        s,
        () ->
            "an event seq of agreement "
                + agreementId
                + " is already taken"
                + " (seqs "
                + events.getFirst().seq()
                + ".."
                + events.getLast().seq()
                + ")");
  }

  private static void applyWrites(Statements sql, List<Write> writes) throws SQLException {
    for (Write write : writes) {
      switch (write) {
        case Write.PutDeliverable put -> putDeliverable(sql, put.row());
        case Write.EraseDeliverableContent erase ->
            eraseDeliverableContent(sql, erase.agreementId());
        case Write.PutVerification put -> putVerification(sql, put.row());
        case Write.PutIdempotency put -> putIdempotency(sql, put.row());
        case Write.SetTimer timer -> {
          PreparedStatement s = sql.prepare(UPSERT_TIMER);
          s.setString(1, timer.row().id());
          s.setString(2, timer.row().agreementId());
          s.setString(3, timer.row().kind());
          s.setLong(4, timer.row().dueAt().toEpochMilli());
          s.executeUpdate();
        }
        case Write.PostTransfer post -> EscrowTables.postTransfer(sql, post.transfer());
        case Write.Enqueue enqueue -> EscrowTables.enqueue(sql, enqueue.message());
        case Write.PutAuthorization put -> EscrowTables.putAuthorization(sql, put);
        case Write.PutJob put -> JobTables.put(sql, put.row());
        case Write.FinishJob finish -> JobTables.finish(sql, finish);
        case Write.PutSeal put -> SealTables.put(sql, put.row());
        case Write.SetSealValidation set -> SealTables.setValidation(sql, set);
        case Write.RevealSeal reveal -> SealTables.reveal(sql, reveal);
        case Write.LogSealRead read -> SealTables.logRead(sql, read);
        case Write.LinkToParent link -> {
          PreparedStatement s = sql.prepare(INSERT_LINK);
          s.setString(1, link.parentId());
          s.setString(2, link.childId());
          executeUpdate(s, () -> link.childId() + " is already linked to " + link.parentId());
        }
      }
    }
  }

  private static void putDeliverable(Statements sql, DeliverableRow row) throws SQLException {
    PreparedStatement s = sql.prepare(INSERT_DELIVERABLE);
    s.setString(1, row.agreementId());
    s.setInt(2, row.attempt());
    s.setString(3, row.contentHash());
    s.setString(4, row.contentUrl());
    s.setString(5, row.format());
    s.setString(6, row.content());
    s.setLong(7, row.sizeBytes());
    s.setLong(8, row.deliveredAt().toEpochMilli());
    executeUpdate(
        s,
        () ->
            "deliverable attempt "
                + row.attempt()
                + " of agreement "
                + row.agreementId()
                + " already exists");
  }

  private static void eraseDeliverableContent(Statements sql, String agreementId)
      throws SQLException {
    PreparedStatement s = sql.prepare(ERASE_DELIVERABLE_CONTENT);
    s.setString(1, agreementId);
    s.executeUpdate();
  }

  private static void putVerification(Statements sql, VerificationRow row) throws SQLException {
    PreparedStatement s = sql.prepare(INSERT_VERIFICATION);
    s.setString(1, row.id());
    if (row.agreementId() != null) {
      s.setString(2, row.agreementId());
    } else {
      s.setNull(2, Types.VARCHAR);
    }
    s.setString(3, row.deliverableHash());
    s.setString(4, row.result());
    s.setLong(5, row.createdAt().toEpochMilli());
    executeUpdate(s, () -> "verification " + row.id() + " already exists");
  }

  private static void putIdempotency(Statements sql, IdempotencyRow row) throws SQLException {
    PreparedStatement s = sql.prepare(INSERT_IDEMPOTENCY);
    s.setString(1, row.scope());
    s.setString(2, row.key());
    s.setString(3, row.requestHash());
    s.setInt(4, row.status());
    s.setString(5, row.responseBody());
    s.setLong(6, row.createdAt().toEpochMilli());
    executeUpdate(
        s,
        () -> "idempotency key '" + row.key() + "' is already used in scope '" + row.scope() + "'");
  }

  // Each insert names its own duplicate: "verification v-1 already exists" tells the caller
  // which key clashed, which a generic constraint message would not.

  static int executeUpdate(PreparedStatement s, Supplier<String> duplicate) throws SQLException {
    try {
      return s.executeUpdate();
    } catch (SQLException e) {
      throw duplicateOr(e, duplicate);
    }
  }

  private static ResultSet executeQuery(PreparedStatement s, Supplier<String> duplicate)
      throws SQLException {
    try {
      return s.executeQuery();
    } catch (SQLException e) {
      throw duplicateOr(e, duplicate);
    }
  }

  static void executeBatch(PreparedStatement s, Supplier<String> duplicate) throws SQLException {
    try {
      s.executeBatch();
    } catch (SQLException e) {
      throw duplicateOr(e, duplicate);
    }
  }

  private static SQLException duplicateOr(SQLException e, Supplier<String> duplicate) {
    if (SqlErrors.isUniqueViolation(e)) {
      throw new DuplicateKeyException(duplicate.get(), e);
    }
    return e;
  }

  // ---- reads ----

  @Override
  public Optional<AgreementRow> find(String id) {
    return database.read(
        "reading agreement " + id,
        sql -> {
          PreparedStatement s = sql.prepare(SELECT_AGREEMENT);
          s.setString(1, id);
          try (ResultSet rs = s.executeQuery()) {
            return rs.next() ? Optional.of(agreement(rs, 1)) : Optional.empty();
          }
        });
  }

  @Override
  public List<TimerRow> claimDueTimers(Instant now, String node, Duration lease, int limit) {
    return database.write(
        "claiming due timers",
        sql -> {
          PreparedStatement select = sql.prepare(SELECT_DUE_TIMERS);
          select.setLong(1, now.toEpochMilli());
          select.setLong(2, now.toEpochMilli());
          select.setInt(3, limit);
          List<TimerRow> due = timers(select);
          List<TimerRow> claimed = new ArrayList<>();
          for (TimerRow t : due) {
            PreparedStatement claim = sql.prepare(CLAIM_TIMER);
            claim.setLong(1, now.plus(lease).toEpochMilli());
            claim.setString(2, node);
            claim.setString(3, t.id());
            claim.setLong(4, now.toEpochMilli());
            if (claim.executeUpdate() == 1) { // another node may have claimed it since the select
              claimed.add(t);
            }
          }
          return claimed;
        });
  }

  @Override
  public void finishTimer(String id, String node, Instant at) {
    database.write(
        "finishing timer " + id,
        sql -> {
          PreparedStatement s = sql.prepare(FINISH_TIMER);
          s.setLong(1, at.toEpochMilli());
          s.setString(2, id);
          s.setString(3, node);
          s.executeUpdate();
          return null;
        });
  }

  @Override
  public void failTimer(String id, String node, String error, Instant retryAt, Instant at) {
    database.write(
        "recording a failure of timer " + id,
        sql -> {
          PreparedStatement s = sql.prepare(FAIL_TIMER);
          if (error == null) {
            s.setNull(1, Types.VARCHAR);
          } else {
            s.setString(1, error);
          }
          if (retryAt == null) {
            s.setNull(2, Types.BIGINT);
            s.setLong(3, at.toEpochMilli());
          } else {
            s.setLong(2, retryAt.toEpochMilli());
            s.setNull(3, Types.BIGINT);
          }
          s.setString(4, id);
          s.setString(5, node);
          s.executeUpdate();
          return null;
        });
  }

  @Override
  public List<TimerRow> deadTimers(int limit) {
    return database.read(
        "reading dead timers",
        sql -> {
          PreparedStatement s = sql.prepare(SELECT_DEAD_TIMERS);
          s.setInt(1, limit);
          return timers(s);
        });
  }

  @Override
  public List<TimerRow> pendingTimers(String agreementId) {
    return database.read(
        "reading the timers of agreement " + agreementId,
        sql -> {
          PreparedStatement s = sql.prepare(SELECT_TIMERS_OF);
          s.setString(1, agreementId);
          return timers(s);
        });
  }

  private static List<TimerRow> timers(PreparedStatement s) throws SQLException {
    List<TimerRow> out = new ArrayList<>();
    try (ResultSet rs = s.executeQuery()) {
      while (rs.next()) {
        out.add(
            new TimerRow(
                rs.getString(1),
                rs.getString(2),
                rs.getString(3),
                Instant.ofEpochMilli(rs.getLong(4)),
                rs.getInt(5),
                rs.getString(6)));
      }
    }
    return out;
  }

  private static List<AgreementRow> agreements(PreparedStatement s) throws SQLException {
    List<AgreementRow> out = new ArrayList<>();
    try (ResultSet rs = s.executeQuery()) {
      while (rs.next()) {
        out.add(agreement(rs, 1));
      }
    }
    return out;
  }

  @Override
  public List<AgreementRow> children(String parentId) {
    return database.read(
        "reading the sub-contracts of agreement " + parentId,
        sql -> {
          PreparedStatement s = sql.prepare(SELECT_CHILDREN);
          s.setString(1, parentId);
          return agreements(s);
        });
  }

  @Override
  public List<AgreementRow> recent(String serviceType, State state, int limit) {
    return database.read(
        "reading recent " + state + " agreements of type " + serviceType,
        sql -> {
          PreparedStatement s = sql.prepare(SELECT_RECENT_BY_TYPE_AND_STATE);
          s.setString(1, serviceType);
          s.setString(2, state.wireName());
          s.setInt(3, limit);
          return agreements(s);
        });
  }

  @Override
  public List<EventRecord> events(String agreementId) {
    return database.read(
        "reading the events of agreement " + agreementId,
        sql -> readEvents(sql, SELECT_EVENTS, agreementId));
  }

  @Override
  public Optional<EventRecord> lastEvent(String agreementId) {
    return database.read(
        "reading the last event of agreement " + agreementId,
        sql -> readEvents(sql, SELECT_LAST_EVENT, agreementId).stream().findFirst());
  }

  private static List<EventRecord> readEvents(Statements sql, String query, String agreementId)
      throws SQLException {
    PreparedStatement s = sql.prepare(query);
    s.setString(1, agreementId);
    try (ResultSet rs = s.executeQuery()) {
      List<EventRecord> out = new ArrayList<>();
      while (rs.next()) {
        out.add(
            new EventRecord(
                rs.getString(1),
                rs.getLong(2),
                rs.getString(3),
                rs.getString(4),
                instant(rs, 5),
                rs.getString(6),
                rs.getString(7),
                rs.getString(8)));
      }
      return out;
    }
  }

  @Override
  public Page<AgreementRow> listByParty(String identityValue, String cursor, int limit) {
    Objects.requireNonNull(identityValue, "identityValue");
    if (limit < 1) {
      throw new IllegalArgumentException("limit must be at least 1, not " + limit);
    }
    long below = ListCursor.decode(cursor);
    return database.read(
        "listing the agreements of " + identityValue,
        sql -> {
          PreparedStatement s = sql.prepare(LIST_BY_PARTY);
          s.setString(1, identityValue);
          s.setLong(2, below);
          s.setLong(3, limit + 1L); // one extra row tells whether another page follows
          try (ResultSet rs = s.executeQuery()) {
            List<AgreementRow> items = new ArrayList<>();
            long lastRowSeq = 0;
            boolean more = false;
            while (rs.next()) {
              if (items.size() == limit) {
                more = true;
                break;
              }
              lastRowSeq = rs.getLong(1);
              items.add(agreement(rs, 2));
            }
            return new Page<>(items, more ? ListCursor.encode(lastRowSeq) : null);
          }
        });
  }

  @Override
  public Optional<DeliverableRow> latestDeliverable(String agreementId) {
    return database.read(
        "reading the deliverable of agreement " + agreementId,
        sql -> {
          PreparedStatement s = sql.prepare(SELECT_LATEST_DELIVERABLE);
          s.setString(1, agreementId);
          try (ResultSet rs = s.executeQuery()) {
            if (!rs.next()) {
              return Optional.empty();
            }
            return Optional.of(
                new DeliverableRow(
                    rs.getString(1),
                    rs.getInt(2),
                    rs.getString(3),
                    rs.getString(4),
                    rs.getString(5),
                    rs.getString(6),
                    rs.getLong(7),
                    instant(rs, 8)));
          }
        });
  }

  @Override
  public Optional<VerificationRow> verification(String verificationId) {
    return database.read(
        "reading verification " + verificationId,
        sql -> {
          PreparedStatement s = sql.prepare(SELECT_VERIFICATION);
          s.setString(1, verificationId);
          try (ResultSet rs = s.executeQuery()) {
            return rs.next() ? Optional.of(verification(rs)) : Optional.empty();
          }
        });
  }

  @Override
  public List<VerificationRow> verificationsForAgreement(String agreementId) {
    return database.read(
        "reading the verifications of agreement " + agreementId,
        sql -> {
          PreparedStatement s = sql.prepare(SELECT_VERIFICATIONS_FOR_AGREEMENT);
          s.setString(1, agreementId);
          try (ResultSet rs = s.executeQuery()) {
            List<VerificationRow> out = new ArrayList<>();
            while (rs.next()) {
              out.add(verification(rs));
            }
            return out;
          }
        });
  }

  @Override
  public Optional<IdempotencyRow> idempotency(String scope, String key) {
    return database.read(
        "reading idempotency key " + key,
        sql -> {
          PreparedStatement s = sql.prepare(SELECT_IDEMPOTENCY);
          s.setString(1, scope);
          s.setString(2, key);
          try (ResultSet rs = s.executeQuery()) {
            if (!rs.next()) {
              return Optional.empty();
            }
            return Optional.of(
                new IdempotencyRow(
                    rs.getString(1),
                    rs.getString(2),
                    rs.getString(3),
                    rs.getInt(4),
                    rs.getString(5),
                    instant(rs, 6)));
          }
        });
  }

  /** Maps the AGREEMENT_COLUMNS starting at column {@code first}. */
  private static AgreementRow agreement(ResultSet rs, int first) throws SQLException {
    return new AgreementRow(
        rs.getString(first),
        rs.getLong(first + 1),
        State.fromWire(rs.getString(first + 2)),
        rs.getString(first + 3),
        rs.getString(first + 4),
        rs.getString(first + 5),
        rs.getString(first + 6),
        rs.getString(first + 7),
        rs.getString(first + 8),
        instant(rs, first + 9),
        instant(rs, first + 10));
  }

  private static VerificationRow verification(ResultSet rs) throws SQLException {
    return new VerificationRow(
        rs.getString(1), rs.getString(2), rs.getString(3), rs.getString(4), instant(rs, 5));
  }

  private static Instant instant(ResultSet rs, int column) throws SQLException {
    return Instant.ofEpochMilli(rs.getLong(column));
  }

  @Override
  public Optional<String> authorization(String agreementId) {
    return database.read(
        "reading the payment authorization of agreement " + agreementId,
        sql -> EscrowTables.authorization(sql, agreementId));
  }

  @Override
  public Optional<JobRow> job(String id) {
    return database.read("reading verification job " + id, sql -> JobTables.byId(sql, id));
  }

  @Override
  public Optional<JobRow> jobByKey(String requestKey) {
    return database.read(
        "finding a verification job by request", sql -> JobTables.byKey(sql, requestKey));
  }

  @Override
  public List<JobRow> unfinishedJobs() {
    return database.read("reading unfinished verification jobs", JobTables::unfinished);
  }

  @Override
  public boolean recordJobProgress(
      String id, JobRow.Status status, String stage, int done, int total, Instant at) {
    return database.write(
        "recording progress of verification job " + id,
        sql -> JobTables.progress(sql, id, status, stage, done, total, at));
  }

  @Override
  public List<LedgerEntry> ledgerOfAgreement(String agreementId) {
    return database.read(
        "reading the ledger of agreement " + agreementId,
        sql -> EscrowTables.entriesOfAgreement(sql, agreementId));
  }

  @Override
  public List<LedgerEntry> ledgerOfAccount(String account, int limit) {
    return database.read(
        "reading the ledger of account " + account,
        sql -> EscrowTables.entriesOfAccount(sql, account, limit));
  }

  @Override
  public List<OutboxRow> outboxOf(String agreementId) {
    return database.read(
        "reading the outbox of agreement " + agreementId,
        sql -> EscrowTables.messagesOfAgreement(sql, agreementId));
  }

  @Override
  public List<OutboxMessage> claimDueMessages(Instant now, String node, Duration lease, int limit) {
    return database.write(
        "claiming due outbox messages", sql -> EscrowTables.claimDue(sql, now, node, lease, limit));
  }

  @Override
  public void recordAttempt(
      String messageId,
      String node,
      OutboxRow.Status status,
      Instant nextAttemptAt,
      String error,
      String response,
      Instant deliveredAt) {
    database.write(
        "recording a delivery attempt of " + messageId,
        sql -> {
          EscrowTables.recordAttempt(
              sql, messageId, node, status, nextAttemptAt, error, response, deliveredAt);
          return null;
        });
  }

  @Override
  public Optional<SealRow> seal(String id) {
    return database.read("reading seal " + id, sql -> SealTables.byId(sql, id));
  }

  @Override
  public Optional<SealRow> sealOfAgreement(String agreementId) {
    return database.read(
        "reading the seal of agreement " + agreementId,
        sql -> SealTables.byAgreement(sql, agreementId));
  }

  @Override
  public List<SealRead> sealReads(String sealId) {
    return database.read(
        "reading the read log of seal " + sealId, sql -> SealTables.reads(sql, sealId));
  }

  @Override
  public void close() {
    database.close();
  }
}
