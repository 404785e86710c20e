package dev.asa.server.store.db;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Types;
import java.util.ArrayList;
import java.util.List;
import org.jdbi.v3.core.Handle;
import org.jdbi.v3.core.JdbiException;

/**
 * A statement on the path of an agreement's lifecycle, run with plain JDBC on the JDBI handle's
 * connection instead of through JDBI's binding: JDBI resolves an argument factory for each bound
 * value and builds a statement context per statement, which for these cost about as much as
 * SQLite's own work on them. First the four on the path of every change (the agreement's update,
 * the read a change decides on, a write's request nonce, its events: JDBI's part of them 2.8% of
 * the server's CPU in the profile of 85b9305c), then the others a lifecycle runs (the agreement's
 * insert and parties, the ledger's legs and hold check, the evaluator's task, timers, deliverables,
 * the verification and its assessment, the seal read, the log packed when the agreement ends:
 * JDBI's own part of them 4.2% in the profile of 8a099140). Statements off that path (listings, the
 * pollers, the operator's reads) stay with JDBI, whose named parameters read better. Positional
 * parameters, bound by the caller in the order of the SQL text.
 *
 * <p>On SQLite the connection's kept statement is used (see {@link CachingStatementBuilder}); the
 * result set is always closed, which resets the statement and ends a read's snapshot. On PostgreSQL
 * the statement is prepared and closed each time (the driver keeps the server-side plan by its
 * text). Errors arrive as a {@link JdbiException}, as a JDBI statement's do, so callers and {@link
 * SqlErrors} treat both alike.
 */
public final class PlainStatements {
  private PlainStatements() {}

  /** Binds a statement's parameters. */
  @FunctionalInterface
  public interface Binder {
    void bind(PreparedStatement statement) throws SQLException;
  }

  /** Reads what a query returned. */
  @FunctionalInterface
  public interface Reader<T> {
    T read(ResultSet rows) throws SQLException;
  }

  /** A statement that returns rows (a SELECT, or a write with RETURNING). */
  public static <T> T query(Handle handle, String sql, Binder binder, Reader<T> reader) {
    return run(
        handle,
        sql,
        statement -> {
          binder.bind(statement);
          try (ResultSet rows = statement.executeQuery()) {
            return reader.read(rows);
          }
        });
  }

  /** Reads one row of a query's result. */
  @FunctionalInterface
  public interface RowReader<T> {
    T read(ResultSet row) throws SQLException;
  }

  /** A query's rows, each read by {@code reader}, in the order they came. */
  public static <T> List<T> list(Handle handle, String sql, Binder binder, RowReader<T> reader) {
    return query(
        handle,
        sql,
        binder,
        rows -> {
          List<T> read = new ArrayList<>();
          while (rows.next()) {
            read.add(reader.read(rows));
          }
          return read;
        });
  }

  /** Binds text parameters, in order: the commonest binding, an id or two. */
  public static Binder strings(String... values) {
    return statement -> {
      for (int i = 0; i < values.length; i++) {
        statement.setString(i + 1, values[i]);
      }
    };
  }

  /** A write that returns no rows; returns how many rows it changed. */
  public static int update(Handle handle, String sql, Binder binder) {
    return run(
        handle,
        sql,
        statement -> {
          binder.bind(statement);
          return statement.executeUpdate();
        });
  }

  /** Binds one item's parameters. */
  @FunctionalInterface
  public interface ItemBinder<T> {
    void bind(PreparedStatement statement, T item) throws SQLException;
  }

  /** The same write for each of {@code items}, sent as one batch; returns each one's row count. */
  public static <T> int[] batch(Handle handle, String sql, List<T> items, ItemBinder<T> binder) {
    return run(
        handle,
        sql,
        statement -> {
          for (T item : items) {
            binder.bind(statement, item);
            statement.addBatch();
          }
          return statement.executeBatch();
        });
  }

  /** Binds a nullable integer column: a number, or SQL NULL. */
  public static void setNullableLong(PreparedStatement statement, int index, Number value)
      throws SQLException {
    if (value == null) {
      statement.setNull(index, Types.BIGINT);
    } else {
      statement.setLong(index, value.longValue());
    }
  }

  private interface Execution<T> {
    T on(PreparedStatement statement) throws SQLException;
  }

  private static <T> T run(Handle handle, String sql, Execution<T> execution) {
    Connection connection = handle.getConnection();
    KeepsStatements keeps =
        handle.getStatementBuilder() instanceof KeepsStatements k ? k : null; // SQLite's
    PreparedStatement statement = null;
    try {
      statement = keeps != null ? keeps.kept(connection, sql) : connection.prepareStatement(sql);
      return execution.on(statement);
    } catch (SQLException e) {
      throw new PlainStatementException(e);
    } finally {
      if (keeps == null && statement != null) {
        try {
          statement.close();
        } catch (SQLException ignored) {
          // the statement's work is done; a failure to release it changes nothing the caller saw
        }
      }
    }
  }

  /** A driver's error, carried as JDBI carries its own. */
  static final class PlainStatementException extends JdbiException {
    private static final long serialVersionUID = 1L;

    PlainStatementException(SQLException cause) {
      super(cause.getMessage(), cause);
    }
  }

  /** A statement builder that keeps one prepared statement per SQL text and connection. */
  interface KeepsStatements {
    PreparedStatement kept(Connection connection, String sql) throws SQLException;
  }
}
