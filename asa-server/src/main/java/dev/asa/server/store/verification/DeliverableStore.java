package dev.asa.server.store.verification;

import dev.asa.server.store.db.Database;
import dev.asa.server.store.db.EpochMillis;
import dev.asa.server.store.db.PlainStatements;
import dev.asa.server.store.db.SqlErrors;
import java.util.Optional;
import org.jdbi.v3.core.Handle;
import org.jdbi.v3.core.mapper.RowMapper;

/**
 * Delivered work, one row per attempt. The content is kept only until it has been verified (then
 * erased by a {@code Write.EraseDeliverableContent}); the hash stays forever as evidence.
 */
public final class DeliverableStore {

  private static final String COLUMNS =
      "agreement_id, attempt, content_hash, content_url, format, content, size_bytes, delivered_at";
  // Positional: each runs with PlainStatements, on the path of the changes that deliver and verify.
  // INSERT is bound in the order of COLUMNS; the others take the agreement id.
  private static final String INSERT =
      "INSERT INTO deliverables (" + COLUMNS + ") VALUES (?, ?, ?, ?, ?, ?, ?, ?)";
  private static final String ERASE_CONTENT =
      "UPDATE deliverables SET content = NULL WHERE agreement_id = ? AND content IS NOT NULL";
  private static final String SELECT_LATEST =
      "SELECT "
          + COLUMNS
          + " FROM deliverables WHERE agreement_id = ? ORDER BY attempt DESC LIMIT 1";

  private static final RowMapper<DeliverableRow> ROW =
      (rs, context) ->
          new DeliverableRow(
              rs.getString("agreement_id"),
              rs.getInt("attempt"),
              rs.getString("content_hash"),
              rs.getString("content_url"),
              rs.getString("format"),
              rs.getString("content"),
              rs.getLong("size_bytes"),
              EpochMillis.instant(rs, "delivered_at"));

  private final Database database;

  public DeliverableStore(Database database) {
    this.database = database;
  }

  /** The deliverable with the highest attempt number. */
  public Optional<DeliverableRow> latest(String agreementId) {
    return database.read(
        "reading the deliverable of agreement " + agreementId,
        handle ->
            PlainStatements.query(
                handle,
                SELECT_LATEST,
                PlainStatements.strings(agreementId),
                rows -> rows.next() ? Optional.of(ROW.map(rows, null)) : Optional.empty()));
  }

  /** Inserts a deliverable; the (agreement, attempt) pair must be new (a {@code Write}). */
  public static void put(Handle handle, DeliverableRow row) {
    SqlErrors.naming(
        () ->
            "deliverable attempt "
                + row.attempt()
                + " of agreement "
                + row.agreementId()
                + " already exists",
        () ->
            PlainStatements.update(
                handle,
                INSERT,
                statement -> {
                  int i = 1;
                  statement.setString(i++, row.agreementId());
                  statement.setInt(i++, row.attempt());
                  statement.setString(i++, row.contentHash());
                  statement.setString(i++, row.contentUrl());
                  statement.setString(i++, row.format());
                  statement.setString(i++, row.content());
                  statement.setLong(i++, row.sizeBytes());
                  statement.setLong(i, row.deliveredAt().toEpochMilli());
                }));
  }

  /** Erases the content of every attempt of the agreement; hashes and sizes stay. */
  public static void eraseContent(Handle handle, String agreementId) {
    PlainStatements.update(handle, ERASE_CONTENT, PlainStatements.strings(agreementId));
  }
}
