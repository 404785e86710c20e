package dev.asa.server.store;

import java.util.List;
import java.util.Optional;
import org.jdbi.v3.core.Handle;
import org.jdbi.v3.core.mapper.RowMapper;

/** Verification results. */
public final class VerificationStore {

  private static final String COLUMNS = "id, agreement_id, deliverable_hash, result, created_at";
  private static final String INSERT =
      "INSERT INTO verifications ("
          + COLUMNS
          + ") VALUES (:id, :agreement_id, :deliverable_hash, :result, :created_at)";
  private static final String SELECT = "SELECT " + COLUMNS + " FROM verifications WHERE id = :id";
  private static final String SELECT_OF_AGREEMENT =
      "SELECT "
          + COLUMNS
          + " FROM verifications WHERE agreement_id = :agreement_id"
          + " ORDER BY created_at, row_seq";

  private static final RowMapper<VerificationRow> ROW =
      (rs, context) ->
          new VerificationRow(
              rs.getString("id"),
              rs.getString("agreement_id"),
              rs.getString("deliverable_hash"),
              rs.getString("result"),
              EpochMillis.instant(rs, "created_at"));

  private final Database database;

  VerificationStore(Database database) {
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

  /** Inserts a verification; its id must be new (a {@link Write}). */
  static void put(Handle handle, VerificationRow row) {
    SqlErrors.naming(
        () -> "verification " + row.id() + " already exists",
        () ->
            handle
                .createUpdate(INSERT)
                .bind("id", row.id())
                .bind("agreement_id", row.agreementId())
                .bind("deliverable_hash", row.deliverableHash())
                .bind("result", row.result())
                .bind("created_at", row.createdAt().toEpochMilli())
                .execute());
  }
}
