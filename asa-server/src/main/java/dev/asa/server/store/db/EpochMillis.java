package dev.asa.server.store.db;

import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.time.temporal.ChronoUnit;

/**
 * Timestamps as both schemas keep them: epoch milliseconds (UTC) in BIGINT columns, exact, compact,
 * sortable and the same in both dialects.
 */
public final class EpochMillis {

  private EpochMillis() {}

  /** The instant as the store keeps it: to the millisecond. */
  public static Instant truncate(Instant at) {
    return at.truncatedTo(ChronoUnit.MILLIS);
  }

  /** The column value of a nullable timestamp. */
  public static Long of(Instant at) {
    return at == null ? null : at.toEpochMilli();
  }

  public static Instant instant(ResultSet rs, String column) throws SQLException {
    return Instant.ofEpochMilli(rs.getLong(column));
  }

  /** A timestamp column that may be NULL. */
  public static Instant nullable(ResultSet rs, String column) throws SQLException {
    long millis = rs.getLong(column);
    return rs.wasNull() ? null : Instant.ofEpochMilli(millis);
  }
}
