package dev.asa.server.store;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The prepared statements of one unit of work, on one connection. The holder owns them: callers
 * prepare, bind, execute and close their result sets, but never close a statement.
 *
 * <p>Why: the SQLite driver does not cache statements, and preparing one costs about 10 us of the
 * single writer's time, a fifth of a typical commit. The SQLite writer therefore keeps its
 * statements for the life of the connection ({@link Cached}); everywhere else statements are closed
 * when the work ends ({@link Closing}); PostgreSQL's driver caches the server-side plans itself.
 */
sealed interface Statements permits Statements.Cached, Statements.Closing {

  /**
   * A prepared statement for {@code sql}, which must be a constant (the cache is keyed by it).
   * Parameters set by an earlier use may still be bound: bind every one.
   */
  PreparedStatement prepare(String sql) throws SQLException;

  /** The connection, for the rare statement that is not prepared (migration DDL). */
  Connection connection();

  /** Keeps every statement until {@link #closeAll}; used by one thread at a time. */
  final class Cached implements Statements {
    private final Connection connection;
    private final Map<String, PreparedStatement> bySql = new HashMap<>();

    Cached(Connection connection) {
      this.connection = connection;
    }

    @Override
    public PreparedStatement prepare(String sql) throws SQLException {
      PreparedStatement statement = bySql.get(sql);
      if (statement == null) {
        statement = connection.prepareStatement(sql);
        bySql.put(sql, statement);
      } else {
        statement.clearBatch(); // a batch that failed half-way may have been left behind
      }
      return statement;
    }

    @Override
    public Connection connection() {
      return connection;
    }

    void closeAll() throws SQLException {
      for (PreparedStatement statement : bySql.values()) {
        statement.close();
      }
      bySql.clear();
    }
  }

  /** Closes the statements of one unit of work when it ends. */
  final class Closing implements Statements, AutoCloseable {
    private final Connection connection;
    private final List<PreparedStatement> open = new ArrayList<>(4);

    Closing(Connection connection) {
      this.connection = connection;
    }

    @Override
    public PreparedStatement prepare(String sql) throws SQLException {
      PreparedStatement statement = connection.prepareStatement(sql);
      open.add(statement);
      return statement;
    }

    @Override
    public Connection connection() {
      return connection;
    }

    @Override
    public void close() throws SQLException {
      SQLException first = null;
      for (PreparedStatement statement : open) {
        try {
          statement.close();
        } catch (SQLException e) {
          if (first == null) {
            first = e;
          }
        }
      }
      open.clear();
      if (first != null) {
        throw first;
      }
    }
  }
}
