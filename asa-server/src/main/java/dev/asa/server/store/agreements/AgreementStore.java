package dev.asa.server.store.agreements;

import dev.asa.lifecycle.State;
import dev.asa.server.store.db.Database;
import dev.asa.server.store.db.EpochMillis;
import dev.asa.server.store.db.ListCursor;
import dev.asa.server.store.db.PackedDigest;
import dev.asa.server.store.db.PackedText;
import dev.asa.server.store.db.PackedText.Dictionary;
import dev.asa.server.store.db.Page;
import dev.asa.server.store.db.PlainStatements;
import dev.asa.server.store.db.SqlErrors;
import dev.asa.server.store.db.StaleVersionException;
import dev.asa.server.store.db.StoredText;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import org.jdbi.v3.core.Handle;
import org.jdbi.v3.core.mapper.RowMapper;
import org.jdbi.v3.core.statement.Query;

/**
 * The agreements: one row each, the current document plus the columns the server queries by, with
 * who takes part (for listings) and which agreement was sub-contracted from which.
 *
 * <p>A creation or a change lands atomically with its events and side writes ({@code Writes} opens
 * the transaction), and a change only if the stored version is still the one the change was decided
 * from (optimistic concurrency): {@link StaleVersionException} otherwise, and nothing is written.
 */
public final class AgreementStore {

  private static final String COLUMNS =
      "a.id, a.version, a.state, a.document, a.facts, a.service_type, a.client_identity,"
          + " a.provider_identity, a.evaluator_identity, a.created_at, a.updated_at, a.amount,"
          + " a.currency";

  // Positional, as every statement on the path of a change (run with PlainStatements): bound by
  // bindInsert in this order.
  private static final String INSERT =
      "INSERT INTO agreements (id, version, state, document, facts, service_type, client_identity,"
          + " provider_identity, evaluator_identity, created_at, updated_at, amount, currency)"
          + " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING row_seq";
  // created_at is deliberately not updated: it is when the agreement came to be. Positional (run
  // with PlainStatements, on every change): bound by bindUpdate in this order.
  private static final String UPDATE =
      "UPDATE agreements SET version = ?, state = ?, document = ?, facts = ?, service_type = ?,"
          + " client_identity = ?, provider_identity = ?, evaluator_identity = ?, updated_at = ?,"
          + " amount = ?, currency = ? WHERE id = ? AND version = ? RETURNING row_seq";
  // The same, leaving the document as it is: a change that did not touch it (see update).
  private static final String UPDATE_KEEPING_DOCUMENT = UPDATE.replace(" document = ?,", "");
  private static final String INSERT_PARTY =
      "INSERT INTO agreement_parties (identity_value, row_seq, agreement_id, role)"
          + " VALUES (?, ?, ?, ?)";
  private static final String DELETE_PARTY =
      "DELETE FROM agreement_parties WHERE identity_value = ? AND row_seq = ?";
  private static final String INSERT_LINK =
      "INSERT INTO agreement_links (parent_id, child_id) VALUES (:parent_id, :child_id)";

  private static final String SELECT = "SELECT " + COLUMNS + " FROM agreements a WHERE a.id = :id";
  // The row and the newest event of its log in one statement: what a change decides on and what
  // its events chain to, read together (one snapshot, one round trip). An ended agreement's log is
  // packed (EventStore), so no event row joins and the caller reads the trail instead.
  // Positional (run with PlainStatements, before every change): the id.
  private static final String SELECT_FOR_CHANGE =
      "SELECT "
          + COLUMNS
          + ", h.seq AS head_seq, h.hash AS head_hash FROM agreements a"
          + " LEFT JOIN agreement_events h ON h.agreement_id = a.id"
          + " AND h.seq = (SELECT max(seq) FROM agreement_events WHERE agreement_id = a.id)"
          + " WHERE a.id = ?";
  private static final String SELECT_CHILDREN =
      "SELECT "
          + COLUMNS
          + " FROM agreement_links l JOIN agreements a ON a.id = l.child_id"
          + " WHERE l.parent_id = :parent_id ORDER BY a.row_seq";
  // The state as a literal: the index (V027) holds CLOSED agreements only, and a partial index is
  // used where the WHERE clause implies its condition, which a bound parameter does not.
  static final String SELECT_RECENT_CLOSED_BY_TYPE =
      "SELECT "
          + COLUMNS
          + " FROM agreements a WHERE a.service_type = :service_type AND a.state = 'closed'"
          + " ORDER BY a.row_seq DESC LIMIT :limit";
  // The inner query is a backwards range scan of the parties primary key (identity_value,
  // row_seq) that stops after limit + 1 rows; each is then joined to its agreement by primary key.
  // The LIMIT sits inside on purpose: written as a plain join, PostgreSQL may pick a merge join
  // that walks the agreements index from the newest row down to the cursor, which on a deep page
  // of a busy party reads hundreds of thousands of rows (measured: 370 ms vs 0.7 ms at 1M rows).
  // The filter's conditions sit in the ON clause of a LEFT JOIN, so every scanned row comes back
  // (with NULL columns when the filter leaves it out): the page ends where the scan ended, and a
  // page may hold fewer items than the limit. %s is the filter's conditions.
  private static final String LIST_BY_PARTY =
      "SELECT p.row_seq AS listed_seq, "
          + COLUMNS
          + " FROM (SELECT row_seq FROM agreement_parties"
          + " WHERE identity_value = :identity_value AND row_seq < :below"
          + " ORDER BY row_seq DESC LIMIT :limit) p"
          + " LEFT JOIN agreements a ON a.row_seq = p.row_seq%s"
          + " ORDER BY p.row_seq DESC";
  // Every agreement, newest first: a backwards scan of the primary key from the cursor, keeping
  // the rows the filter's conditions (%s) keep, so pages are full.
  private static final String LIST_ALL =
      "SELECT a.row_seq AS listed_seq, "
          + COLUMNS
          + " FROM agreements a WHERE a.row_seq < :below%s"
          + " ORDER BY a.row_seq DESC LIMIT :limit";
  private static final String COUNT_BY_STATE =
      "SELECT a.state, count(*) AS n FROM agreements a WHERE 1 = 1%s GROUP BY a.state";
  private static final String OF_PARTY =
      " AND a.row_seq IN (SELECT row_seq FROM agreement_parties"
          + " WHERE identity_value = :identity_value)";

  /** An agreement as read from its row (the archive reads the rows it moves out with it). */
  public static final RowMapper<AgreementRow> ROW =
      (rs, context) ->
          new AgreementRow(
              rs.getString("id"),
              rs.getLong("version"),
              State.fromWire(rs.getString("state")),
              StoredText.stored(rs.getBytes("document")),
              StoredText.stored(rs.getBytes("facts")),
              rs.getString("service_type"),
              rs.getString("client_identity"),
              rs.getString("provider_identity"),
              rs.getString("evaluator_identity"),
              EpochMillis.instant(rs, "created_at"),
              EpochMillis.instant(rs, "updated_at"),
              rs.getString("amount"),
              rs.getString("currency"));

  private final Database database;

  public AgreementStore(Database database) {
    this.database = database;
  }

  /**
   * Inserts a new agreement and who takes part in it, inside the caller's transaction (the one
   * {@code Writes.createAgreement} opens for it, its first events and side writes).
   *
   * @throws dev.asa.server.store.db.DuplicateKeyException when an agreement has its id already
   */
  public static void insert(Handle handle, AgreementRow row) {
    long rowSeq =
        SqlErrors.naming(
            () -> "agreement " + row.id() + " already exists",
            () ->
                PlainStatements.query(
                    handle,
                    INSERT,
                    statement -> bindInsert(statement, row),
                    rows -> {
                      rows.next();
                      return rows.getLong(1);
                    }));
    insertParties(handle, row, rowSeq, parties(row));
  }

  /**
   * Replaces an agreement's row, inside the caller's transaction (the one {@code Writes.commit}
   * opens for the change, its events and side writes), if the stored version still equals the
   * version of {@code previous}, the row as the caller read it. {@code createdAt} of the stored row
   * never changes.
   *
   * @return the agreement's state before the change
   * @throws StaleVersionException when the stored version is another (or there is no such
   *     agreement); the caller's transaction then rolls back whatever it wrote
   */
  public static State update(Handle handle, AgreementRow previous, AgreementRow row) {
    // One statement: the version condition is what guarantees "one winner" (on PostgreSQL a
    // concurrent writer blocks on the row lock, then re-evaluates it against the new version), and
    // a row stored at that version is the row the caller read at it (every change writes a new
    // version), so its parties and state need no second read.
    //
    // A document that is the previous row's very value (a change of state or facts: Views.rowAfter
    // reuses it) is not packed and written again, unless the row now ends: then it is packed
    // smallest, for good. Identity, not equal text: telling a new text from the stored one would
    // unpack the stored one, at every change that signs or edits the document.
    boolean keepDocument =
        !row.state().isFinal() && row.storedDocument().isSameValueAs(previous.storedDocument());
    byte[] document = keepDocument ? null : packedDocument(row);
    Optional<Long> rowSeq =
        PlainStatements.query(
            handle,
            keepDocument ? UPDATE_KEEPING_DOCUMENT : UPDATE,
            statement -> bindUpdate(statement, row, document, previous.version()),
            rows -> rows.next() ? Optional.of(rows.getLong(1)) : Optional.empty());
    if (rowSeq.isEmpty()) {
      throw new StaleVersionException(row.id(), previous.version());
    }
    Map<String, String> oldParties = parties(previous);
    Map<String, String> newParties = parties(row);
    if (!oldParties.equals(newParties)) {
      deleteParties(handle, rowSeq.get(), oldParties);
      insertParties(handle, row, rowSeq.get(), newParties);
    }
    return previous.state();
  }

  public Optional<AgreementRow> find(String id) {
    return database.lookup(
        "reading agreement " + id,
        handle -> handle.createQuery(SELECT).bind("id", id).map(ROW).findOne());
  }

  /**
   * An agreement's row as {@link #find} reads it, with the head of its event log where the log is
   * in rows (empty once it is packed into the agreement's trail, or before its first event).
   */
  public Optional<ForChange> findForChange(String id) {
    return database.lookup(
        "reading agreement " + id,
        handle ->
            PlainStatements.query(
                handle,
                SELECT_FOR_CHANGE,
                PlainStatements.strings(id),
                rows -> rows.next() ? Optional.of(FOR_CHANGE.map(rows, null)) : Optional.empty()));
  }

  /** A row and the head of its event log, if in rows. */
  public record ForChange(AgreementRow row, Optional<ChainHead> head) {
    public ForChange {
      Objects.requireNonNull(row, "row");
      Objects.requireNonNull(head, "head");
    }
  }

  private static final RowMapper<ForChange> FOR_CHANGE =
      (rs, context) -> {
        AgreementRow row = ROW.map(rs, context);
        long seq = rs.getLong("head_seq");
        return new ForChange(
            row,
            rs.wasNull()
                ? Optional.empty()
                : Optional.of(new ChainHead(seq, PackedDigest.unpack(rs.getBytes("head_hash")))));
      };

  /**
   * The agreements sub-contracted from {@code parentId} (linked at their creation), oldest first.
   */
  public List<AgreementRow> children(String parentId) {
    return database.read(
        "reading the sub-contracts of agreement " + parentId,
        handle -> handle.createQuery(SELECT_CHILDREN).bind("parent_id", parentId).map(ROW).list());
  }

  /** The newest CLOSED agreements of a service type (for the market median), newest first. */
  public List<AgreementRow> recentClosed(String serviceType, int limit) {
    return database.read(
        "reading recent closed agreements of type " + serviceType,
        handle ->
            handle
                .createQuery(SELECT_RECENT_CLOSED_BY_TYPE)
                .bind("service_type", serviceType)
                .bind("limit", limit)
                .map(ROW)
                .list());
  }

  /**
   * Agreements where {@code identityValue} is the client, provider or evaluator, newest first.
   *
   * @param cursor null for the first page, else the {@code nextCursor} of the previous page
   * @param limit page size, at least 1
   */
  public Page<AgreementRow> listByParty(String identityValue, String cursor, int limit) {
    return listByParty(identityValue, AgreementFilter.NONE, cursor, limit);
  }

  /**
   * As {@link #listByParty(String, String, int)}, keeping the agreements the filter keeps. A page
   * covers {@code limit} of the party's agreements and holds those of them the filter keeps, so it
   * may hold fewer than {@code limit} (even none) and still have a next cursor.
   */
  public Page<AgreementRow> listByParty(
      String identityValue, AgreementFilter filter, String cursor, int limit) {
    Objects.requireNonNull(identityValue, "identityValue");
    String sql = LIST_BY_PARTY.formatted(conditions(filter));
    return page(
        "listing the agreements of " + identityValue,
        cursor,
        limit,
        (handle, below) ->
            bindFilter(handle.createQuery(sql), filter)
                .bind("identity_value", identityValue)
                .bind("below", below));
  }

  /**
   * Every agreement the filter keeps, newest first (the operator's listing). Pages are full: only
   * the last holds fewer than {@code limit}.
   */
  public Page<AgreementRow> listAll(AgreementFilter filter, String cursor, int limit) {
    String sql = LIST_ALL.formatted(conditions(filter));
    return page(
        "listing the agreements",
        cursor,
        limit,
        (handle, below) -> bindFilter(handle.createQuery(sql), filter).bind("below", below));
  }

  /**
   * How many agreements the filter keeps in each state (its own state member ignored), in one
   * query; of those where {@code identityValue} takes part when it is not null. States without
   * agreements are absent.
   */
  public Map<State, Long> countByState(String identityValue, AgreementFilter filter) {
    AgreementFilter anyState = filter.anyState();
    String sql =
        COUNT_BY_STATE.formatted(conditions(anyState) + (identityValue == null ? "" : OF_PARTY));
    return database.read(
        "counting agreements by state",
        handle -> {
          Query query = bindFilter(handle.createQuery(sql), anyState);
          if (identityValue != null) {
            query.bind("identity_value", identityValue);
          }
          Map<State, Long> counts = new EnumMap<>(State.class);
          query
              .map((rs, context) ->
                  Map.entry(State.fromWire(rs.getString("state")), rs.getLong("n")))
              .forEach(e -> counts.put(e.getKey(), e.getValue()));
          return counts;
        });
  }

  /** A listing query, given the row position to continue below (the limit is bound here). */
  private interface ListingQuery {
    Query prepare(Handle handle, long below);
  }

  /**
   * One page of a listing: one row more than the limit is read to learn whether another page
   * follows; a row whose agreement columns are NULL was scanned but left out by the filter.
   */
  private Page<AgreementRow> page(String doing, String cursor, int limit, ListingQuery listing) {
    if (limit < 1) {
      throw new IllegalArgumentException("limit must be at least 1, not " + limit);
    }
    long below = ListCursor.decode(cursor);
    List<Listed> rows =
        database.read(
            doing,
            handle ->
                listing
                    .prepare(handle, below)
                    .bind("limit", limit + 1L)
                    .map((rs, context) ->
                        new Listed(
                            rs.getLong("listed_seq"),
                            rs.getString("id") == null ? null : ROW.map(rs, context)))
                    .list());
    List<Listed> page = rows.size() <= limit ? rows : rows.subList(0, limit);
    List<AgreementRow> items = page.stream().map(Listed::row).filter(Objects::nonNull).toList();
    return new Page<>(
        items, rows.size() <= limit ? null : ListCursor.encode(page.getLast().rowSeq()));
  }

  /** The filter's conditions on {@code a}, each {@code " AND ..."}, in a fixed order. */
  private static String conditions(AgreementFilter f) {
    StringBuilder sql = new StringBuilder();
    if (f.state() != null) {
      sql.append(" AND a.state = :f_state");
    }
    if (f.serviceType() != null) {
      sql.append(" AND a.service_type = :f_service_type");
    }
    if (f.createdAfter() != null) {
      sql.append(" AND a.created_at > :f_created_after");
    }
    if (f.createdBefore() != null) {
      sql.append(" AND a.created_at < :f_created_before");
    }
    // Amounts are decimal text; both databases compare them as numbers (as StoreStatistics sums).
    if (f.minAmount() != null) {
      sql.append(" AND CAST(a.amount AS NUMERIC) >= CAST(:f_min_amount AS NUMERIC)");
    }
    if (f.maxAmount() != null) {
      sql.append(" AND CAST(a.amount AS NUMERIC) <= CAST(:f_max_amount AS NUMERIC)");
    }
    if (f.currency() != null) {
      sql.append(" AND a.currency = :f_currency");
    }
    return sql.toString();
  }

  private static Query bindFilter(Query query, AgreementFilter f) {
    if (f.state() != null) {
      query.bind("f_state", f.state().wireName());
    }
    if (f.serviceType() != null) {
      query.bind("f_service_type", f.serviceType());
    }
    if (f.createdAfter() != null) {
      query.bind("f_created_after", f.createdAfter().toEpochMilli());
    }
    if (f.createdBefore() != null) {
      query.bind("f_created_before", f.createdBefore().toEpochMilli());
    }
    if (f.minAmount() != null) {
      query.bind("f_min_amount", f.minAmount().toPlainString());
    }
    if (f.maxAmount() != null) {
      query.bind("f_max_amount", f.maxAmount().toPlainString());
    }
    if (f.currency() != null) {
      query.bind("f_currency", f.currency());
    }
    return query;
  }

  /** Records that a child agreement is sub-contracted from its parent (a {@code Write}). */
  public static void link(Handle handle, String parentId, String childId) {
    SqlErrors.naming(
        () -> childId + " is already linked to " + parentId,
        () ->
            handle
                .createUpdate(INSERT_LINK)
                .bind("parent_id", parentId)
                .bind("child_id", childId)
                .execute());
  }

  private record Listed(long rowSeq, AgreementRow row) {}

  /** Binds {@link #UPDATE}'s parameters, or {@link #UPDATE_KEEPING_DOCUMENT}'s without one. */
  private static void bindUpdate(
      PreparedStatement statement, AgreementRow row, byte[] documentOrNull, long expectedVersion)
      throws SQLException {
    int i = 1;
    statement.setLong(i++, row.version());
    statement.setString(i++, row.state().wireName());
    if (documentOrNull != null) {
      statement.setBytes(i++, documentOrNull);
    }
    statement.setBytes(i++, packedFacts(row));
    statement.setString(i++, row.serviceType());
    statement.setString(i++, row.clientIdentity());
    statement.setString(i++, row.providerIdentity());
    statement.setString(i++, row.evaluatorIdentity());
    statement.setLong(i++, row.updatedAt().toEpochMilli());
    statement.setString(i++, row.amount());
    statement.setString(i++, row.currency());
    statement.setString(i++, row.id());
    statement.setLong(i, expectedVersion);
  }

  /**
   * The document as stored. A row in a final state is about to be kept as it is for good, so its
   * JSON is packed smallest (about 16% fewer bytes for about 50 us more, once); a row that will
   * change again is packed fastest. The facts the same way ({@link #packedFacts}).
   */
  private static byte[] packedDocument(AgreementRow row) {
    Dictionary forDocument = Dictionary.forDocument(row.serviceType());
    return row.state().isFinal()
        ? PackedText.packSmallest(row.document(), forDocument)
        : PackedText.pack(row.document(), forDocument);
  }

  /** The facts as stored: packed, and smallest once the agreement has ended. */
  private static byte[] packedFacts(AgreementRow row) {
    return row.state().isFinal()
        ? PackedText.packSmallest(row.facts(), Dictionary.VOCABULARY)
        : PackedText.pack(row.facts(), Dictionary.VOCABULARY);
  }

  /** Binds {@link #INSERT}'s parameters. */
  private static void bindInsert(PreparedStatement statement, AgreementRow row)
      throws SQLException {
    int i = 1;
    statement.setString(i++, row.id());
    statement.setLong(i++, row.version());
    statement.setString(i++, row.state().wireName());
    statement.setBytes(i++, packedDocument(row));
    statement.setBytes(i++, packedFacts(row));
    statement.setString(i++, row.serviceType());
    statement.setString(i++, row.clientIdentity());
    statement.setString(i++, row.providerIdentity());
    statement.setString(i++, row.evaluatorIdentity());
    statement.setLong(i++, row.createdAt().toEpochMilli());
    statement.setLong(i++, row.updatedAt().toEpochMilli());
    statement.setString(i++, row.amount());
    statement.setString(i, row.currency());
  }

  /** identity value -> its roles in the agreement ("client", "client,evaluator"...). */
  private static Map<String, String> parties(AgreementRow row) {
    return parties(row.clientIdentity(), row.providerIdentity(), row.evaluatorIdentity());
  }

  /** Identity value to its roles, for an agreement with these parties (null or empty: none). */
  public static Map<String, String> parties(String client, String provider, String evaluator) {
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
      Handle handle, AgreementRow row, long rowSeq, Map<String, String> parties) {
    if (parties.isEmpty()) {
      return;
    }
    SqlErrors.naming(
        () -> "party rows of agreement " + row.id() + " already exist",
        () -> {
          PlainStatements.batch(
              handle,
              INSERT_PARTY,
              List.copyOf(parties.entrySet()),
              (statement, party) -> {
                statement.setString(1, party.getKey());
                statement.setLong(2, rowSeq);
                statement.setString(3, row.id());
                statement.setString(4, party.getValue());
              });
          return null;
        });
  }

  /** Deletes the party rows of an agreement (its row position), inside the caller's transaction. */
  public static void deleteParties(Handle handle, long rowSeq, Map<String, String> parties) {
    if (parties.isEmpty()) {
      return;
    }
    PlainStatements.batch(
        handle,
        DELETE_PARTY,
        List.copyOf(parties.keySet()),
        (statement, identity) -> {
          statement.setString(1, identity);
          statement.setLong(2, rowSeq);
        });
  }
}
