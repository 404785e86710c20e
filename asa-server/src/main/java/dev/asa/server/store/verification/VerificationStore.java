package dev.asa.server.store.verification;

import dev.asa.server.store.db.Database;
import dev.asa.server.store.db.EpochMillis;
import dev.asa.server.store.db.PackedText;
import dev.asa.server.store.db.PackedText.Dictionary;
import dev.asa.server.store.db.PlainStatements;
import dev.asa.server.store.db.SqlErrors;
import java.math.BigDecimal;
import java.util.List;
import java.util.Optional;
import org.jdbi.v3.core.Handle;
import org.jdbi.v3.core.mapper.RowMapper;

/**
 * Verification results, and what a provider's track record is made of: the latest verification of
 * each of its earlier agreements, read in one query each (the dynamic tiers' past scores, the
 * series a probabilistic guarantee is judged over).
 */
public final class VerificationStore {

  /** How many of a provider's newest agreements its track record is searched in. */
  static final int PROVIDER_SCAN = 200;

  private static final String COLUMNS =
      "v.id, v.agreement_id, v.deliverable_hash, v.result, v.composite, v.created_at";
  private static final String INSERT =
      "INSERT INTO verifications (id, agreement_id, deliverable_hash, result, composite,"
          + " created_at) VALUES (?, ?, ?, ?, ?, ?)"; // positional: put runs it with
  // PlainStatements
  private static final String SELECT =
      "SELECT " + COLUMNS + " FROM verifications v WHERE v.id = :id";
  private static final String SELECT_OF_AGREEMENT =
      "SELECT "
          + COLUMNS
          + " FROM verifications v WHERE v.agreement_id = :agreement_id"
          + " ORDER BY v.created_at, v.row_seq";
  // The provider's newest agreements where it is the provider (p: a backwards scan of the parties
  // key, as in a listing), each with its latest verification (v: the last of the order above).
  private static final String PROVIDED_AND_VERIFIED =
      " FROM (SELECT row_seq FROM agreement_parties WHERE identity_value = :provider"
          + " ORDER BY row_seq DESC LIMIT "
          + PROVIDER_SCAN
          + ") p"
          + " JOIN agreements a ON a.row_seq = p.row_seq"
          + " JOIN verifications v ON v.row_seq = (SELECT w.row_seq FROM verifications w"
          + " WHERE w.agreement_id = a.id ORDER BY w.created_at DESC, w.row_seq DESC LIMIT 1)"
          + " WHERE a.provider_identity = :provider AND a.id <> :except";
  private static final String SELECT_PAST_COMPOSITES =
      "SELECT v.composite"
          + PROVIDED_AND_VERIFIED
          + " AND v.composite IS NOT NULL ORDER BY p.row_seq DESC LIMIT :window";
  private static final String SELECT_SERIES =
      "SELECT "
          + COLUMNS
          + PROVIDED_AND_VERIFIED
          + " AND a.client_identity = :client AND a.service_type = :service_type"
          + " ORDER BY v.created_at DESC, p.row_seq LIMIT :window";

  private static final RowMapper<VerificationRow> ROW =
      (rs, context) ->
          new VerificationRow(
              rs.getString("id"),
              rs.getString("agreement_id"),
              rs.getString("deliverable_hash"),
              PackedText.unpack(rs.getBytes("result")),
              decimal(rs.getString("composite")),
              EpochMillis.instant(rs, "created_at"));

  private final Database database;

  public VerificationStore(Database database) {
    this.database = database;
  }

  public Optional<VerificationRow> find(String verificationId) {
    return database.read(
        "reading verification " + verificationId,
        handle -> handle.createQuery(SELECT).bind("id", verificationId).map(ROW).findOne());
  }

  /** The agreement's verifications, oldest first. */
  public List<VerificationRow> ofAgreement(String agreementId) {
    return database.read(
        "reading the verifications of agreement " + agreementId,
        handle ->
            handle
                .createQuery(SELECT_OF_AGREEMENT)
                .bind("agreement_id", agreementId)
                .map(ROW)
                .list());
  }

  /**
   * The provider's past composite scores: of its most recent agreements as provider, other than
   * {@code except}, with a verification that has a composite score (the latest verification of
   * each), the newest {@code window}; returned oldest first.
   */
  public List<BigDecimal> pastComposites(String provider, String except, int window) {
    requirePositive(window);
    List<BigDecimal> newestFirst =
        database.read(
            "reading the past scores of " + provider,
            handle ->
                handle
                    .createQuery(SELECT_PAST_COMPOSITES)
                    .bind("provider", provider)
                    .bind("except", except)
                    .bind("window", window)
                    .map((rs, context) -> decimal(rs.getString("composite")))
                    .list());
    return newestFirst.reversed();
  }

  /**
   * A provider's series with one client for one service type: the latest verification of each of
   * its agreements with them other than {@code except}, the newest {@code window} by verification
   * time; returned oldest first.
   */
  public List<VerificationRow> series(
      String provider, String client, String serviceType, String except, int window) {
    requirePositive(window);
    List<VerificationRow> newestFirst =
        database.read(
            "reading the series of " + provider + " with " + client,
            handle ->
                handle
                    .createQuery(SELECT_SERIES)
                    .bind("provider", provider)
                    .bind("client", client)
                    .bind("service_type", serviceType)
                    .bind("except", except)
                    .bind("window", window)
                    .map(ROW)
                    .list());
    return newestFirst.reversed();
  }

  /** Inserts a verification; its id must be new (a {@code Write}). */
  public static void put(Handle handle, VerificationRow row) {
    SqlErrors.naming(
        () -> "verification " + row.id() + " already exists",
        () ->
            PlainStatements.update(
                handle,
                INSERT,
                statement -> {
                  statement.setString(1, row.id());
                  statement.setString(2, row.agreementId());
                  statement.setString(3, row.deliverableHash());
                  statement.setBytes(
                      4, PackedText.packSmallest(row.result(), Dictionary.VOCABULARY));
                  statement.setString(
                      5, row.composite() == null ? null : row.composite().toPlainString());
                  statement.setLong(6, row.createdAt().toEpochMilli());
                }));
  }

  /** Decimals are stored as their exact text, like the ledger's amounts. */
  private static BigDecimal decimal(String text) {
    return text == null ? null : new BigDecimal(text);
  }

  private static void requirePositive(int window) {
    if (window < 1) {
      throw new IllegalArgumentException("window must be at least 1, not " + window);
    }
  }
}
