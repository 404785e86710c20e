package dev.asa.server.store.idempotency;

import dev.asa.server.store.db.Database;
import dev.asa.server.store.db.EpochMillis;
import dev.asa.server.store.db.SqlErrors;
import java.util.Optional;
import org.jdbi.v3.core.Handle;
import org.jdbi.v3.core.mapper.RowMapper;

/**
 * The remembered responses to POSTs that carried an {@code Idempotency-Key}, stored by a {@code
 * Write.PutIdempotency} in the transaction of the change they answer.
 */
public final class IdempotencyStore {

  private static final String COLUMNS =
      "scope, key, request_hash, status, response_body, created_at";
  private static final String INSERT =
      "INSERT INTO idempotency_keys ("
          + COLUMNS
          + ") VALUES (:scope, :key, :request_hash, :status, :response_body, :created_at)";
  private static final String SELECT =
      "SELECT " + COLUMNS + " FROM idempotency_keys WHERE scope = :scope AND key = :key";

  private static final RowMapper<IdempotencyRow> ROW =
      (rs, context) ->
          new IdempotencyRow(
              rs.getString("scope"),
              rs.getString("key"),
              rs.getString("request_hash"),
              rs.getInt("status"),
              rs.getString("response_body"),
              EpochMillis.instant(rs, "created_at"));

  private final Database database;

  public IdempotencyStore(Database database) {
    this.database = database;
  }

  public Optional<IdempotencyRow> find(String scope, String key) {
    return database.read(
        "reading idempotency key " + key,
        handle ->
            handle.createQuery(SELECT).bind("scope", scope).bind("key", key).map(ROW).findOne());
  }

  /**
   * Inserts a record; a taken (scope, key) means another request won the race (a {@code Write}).
   */
  public static void put(Handle handle, IdempotencyRow row) {
    SqlErrors.naming(
        () -> "idempotency key '" + row.key() + "' is already used in scope '" + row.scope() + "'",
        () ->
            handle
                .createUpdate(INSERT)
                .bind("scope", row.scope())
                .bind("key", row.key())
                .bind("request_hash", row.requestHash())
                .bind("status", row.status())
                .bind("response_body", row.responseBody())
                .bind("created_at", row.createdAt().toEpochMilli())
                .execute());
  }
}
