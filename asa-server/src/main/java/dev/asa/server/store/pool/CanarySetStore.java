package dev.asa.server.store.pool;

import dev.asa.server.store.db.Database;
import dev.asa.server.store.db.EpochMillis;
import java.time.Instant;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalLong;
import org.jdbi.v3.core.mapper.RowMapper;

/**
 * The operator's canary set: one row, replaced whole. Its version lets every node notice a
 * replacement made on another with one small query ({@link #version}), and read the set again only
 * then.
 */
public final class CanarySetStore {

  private static final String COLUMNS =
      "canaries, canary_count, digest, loaded_at, loaded_by, version";
  private static final String SELECT = "SELECT " + COLUMNS + " FROM canary_sets WHERE id = 1";
  private static final String SELECT_VERSION = "SELECT version FROM canary_sets WHERE id = 1";
  private static final String REPLACE =
      "INSERT INTO canary_sets (id, "
          + COLUMNS
          + ") VALUES (1, :canaries, :canary_count, :digest, :loaded_at, :loaded_by, 1)"
          + " ON CONFLICT (id) DO UPDATE SET canaries = excluded.canaries,"
          + " canary_count = excluded.canary_count, digest = excluded.digest,"
          + " loaded_at = excluded.loaded_at, loaded_by = excluded.loaded_by,"
          + " version = canary_sets.version + 1";

  private static final RowMapper<CanarySetRow> ROW =
      (rs, context) ->
          new CanarySetRow(
              rs.getString("canaries"),
              rs.getInt("canary_count"),
              rs.getString("digest"),
              EpochMillis.instant(rs, "loaded_at"),
              rs.getString("loaded_by"),
              rs.getLong("version"));

  private final Database database;

  public CanarySetStore(Database database) {
    this.database = database;
  }

  /** The set in force, if one was ever loaded. */
  public Optional<CanarySetRow> current() {
    return database.read(
        "reading the canary set", handle -> handle.createQuery(SELECT).map(ROW).findOne());
  }

  /** The version of the set in force; empty when none was ever loaded. */
  public OptionalLong version() {
    return database.read(
        "reading the canary set's version",
        handle ->
            handle
                .createQuery(SELECT_VERSION)
                .mapTo(Long.class)
                .findOne()
                .map(OptionalLong::of)
                .orElse(OptionalLong.empty()));
  }

  /**
   * Replaces the set in force (or loads the first); returns it as stored, with its new version.
   *
   * @param canaries the JSON array of the canaries
   */
  public CanarySetRow replace(
      String canaries, int count, String digest, String loadedBy, Instant at) {
    Objects.requireNonNull(canaries, "canaries");
    return database.write(
        "replacing the canary set",
        handle -> {
          handle
              .createUpdate(REPLACE)
              .bind("canaries", canaries)
              .bind("canary_count", count)
              .bind("digest", digest)
              .bind("loaded_at", at.toEpochMilli())
              .bind("loaded_by", loadedBy)
              .execute();
          return handle.createQuery(SELECT).map(ROW).one();
        });
  }
}
