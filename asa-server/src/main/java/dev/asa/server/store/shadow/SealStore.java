package dev.asa.server.store.shadow;

import dev.asa.server.store.db.Database;
import dev.asa.server.store.db.EpochMillis;
import dev.asa.server.store.db.PlainStatements;
import dev.asa.server.store.db.SqlErrors;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import org.jdbi.v3.core.Handle;
import org.jdbi.v3.core.mapper.RowMapper;

/**
 * Sealed Shadow Scoring criteria (at most one seal per agreement, or standalone) and the log of who
 * read a seal's criteria. Seals are written by {@code Write}s with the change they belong to.
 */
public final class SealStore {

  private static final String COLUMNS =
      "id, agreement_id, sealer_key, commitment, seal, envelope, hardening, validation,"
          + " created_at, revealed_at";
  private static final String INSERT =
      "INSERT INTO seals ("
          + COLUMNS
          + ") VALUES (:id, :agreement_id, :sealer_key, :commitment, :seal, :envelope,"
          + " :hardening, :validation, :created_at, :revealed_at)";
  private static final String SELECT_BY_ID = "SELECT " + COLUMNS + " FROM seals WHERE id = :id";
  // Positional: run with PlainStatements, at every verification of an agreement.
  private static final String SELECT_BY_AGREEMENT =
      "SELECT " + COLUMNS + " FROM seals WHERE agreement_id = ?";
  private static final String UPDATE_VALIDATION =
      "UPDATE seals SET validation = :validation WHERE id = :id";
  private static final String REVEAL =
      "UPDATE seals SET revealed_at = :at WHERE id = :id AND revealed_at IS NULL";
  private static final String INSERT_READ =
      "INSERT INTO seal_reads (seal_id, caller, route, at) VALUES (:seal_id, :caller, :route, :at)";
  private static final String SELECT_READS =
      "SELECT seal_id, caller, route, at FROM seal_reads WHERE seal_id = :seal_id ORDER BY at";

  private static final RowMapper<SealRow> ROW =
      (rs, context) ->
          new SealRow(
              rs.getString("id"),
              rs.getString("agreement_id"),
              rs.getString("sealer_key"),
              rs.getString("commitment"),
              rs.getString("seal"),
              rs.getString("envelope"),
              rs.getString("hardening"),
              rs.getString("validation"),
              EpochMillis.instant(rs, "created_at"),
              EpochMillis.nullable(rs, "revealed_at"));

  private static final RowMapper<SealRead> READ =
      (rs, context) ->
          new SealRead(
              rs.getString("seal_id"),
              rs.getString("caller"),
              rs.getString("route"),
              EpochMillis.instant(rs, "at"));

  private final Database database;

  public SealStore(Database database) {
    this.database = database;
  }

  /** A seal by its id. */
  public Optional<SealRow> find(String id) {
    return database.read(
        "reading seal " + id,
        handle -> handle.createQuery(SELECT_BY_ID).bind("id", id).map(ROW).findOne());
  }

  /** The seal of an agreement (one at most). */
  public Optional<SealRow> ofAgreement(String agreementId) {
    return database.read(
        "reading the seal of agreement " + agreementId,
        handle ->
            PlainStatements.query(
                handle,
                SELECT_BY_AGREEMENT,
                PlainStatements.strings(agreementId),
                rows -> rows.next() ? Optional.of(ROW.map(rows, null)) : Optional.empty()));
  }

  /** Who read a seal's criteria, oldest first. */
  public List<SealRead> reads(String sealId) {
    return database.read(
        "reading the read log of seal " + sealId,
        handle -> handle.createQuery(SELECT_READS).bind("seal_id", sealId).map(READ).list());
  }

  /** Inserts a seal; its id, and its agreement when it has one, must be new (a {@code Write}). */
  public static void put(Handle handle, SealRow row) {
    SqlErrors.naming(
        () ->
            "a seal with id "
                + row.id()
                + " (or for agreement "
                + row.agreementId()
                + ") already exists",
        () ->
            handle
                .createUpdate(INSERT)
                .bind("id", row.id())
                .bind("agreement_id", row.agreementId())
                .bind("sealer_key", row.sealerKey())
                .bind("commitment", row.commitment())
                .bind("seal", row.seal())
                .bind("envelope", row.envelope())
                .bind("hardening", row.hardening())
                .bind("validation", row.validation())
                .bind("created_at", row.createdAt().toEpochMilli())
                .bind("revealed_at", EpochMillis.of(row.revealedAt()))
                .execute());
  }

  /** Replaces the server's validation state of a seal; refused for a seal that does not exist. */
  public static void setValidation(Handle handle, String sealId, String validation) {
    int updated =
        handle
            .createUpdate(UPDATE_VALIDATION)
            .bind("validation", validation)
            .bind("id", sealId)
            .execute();
    if (updated != 1) {
      throw new IllegalArgumentException("no seal " + sealId);
    }
  }

  /** Sets revealed_at once; a seal already revealed keeps its first time. */
  public static void reveal(Handle handle, String sealId, Instant at) {
    handle.createUpdate(REVEAL).bind("at", at.toEpochMilli()).bind("id", sealId).execute();
  }

  /** Logs a read of a seal's criteria: who, by which route, when. */
  public static void logRead(
      Handle handle, String sealId, String caller, String route, Instant at) {
    handle
        .createUpdate(INSERT_READ)
        .bind("seal_id", sealId)
        .bind("caller", caller)
        .bind("route", route)
        .bind("at", at.toEpochMilli())
        .execute();
  }
}
