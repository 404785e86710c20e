package dev.asa.server.store.db;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Collections;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.Map;
import java.util.Set;
import org.jdbi.v3.core.statement.DefaultStatementBuilder;
import org.jdbi.v3.core.statement.StatementContext;

/**
 * Hands JDBI the prepared statements of one SQLite connection: each SQL text is prepared once and
 * kept for the life of the connection, instead of being prepared and closed by every statement. The
 * writer has one; each reader connection has its own, through {@link ReaderStatementBuilder}.
 *
 * <p>Why: the SQLite driver does not cache statements, and preparing one costs about 10 us, a fifth
 * of a typical commit of the single writer. PostgreSQL uses JDBI's default builder (its driver
 * caches the server-side plans itself).
 *
 * <p>Used by one thread at a time (the writer's lock, or the reader connection's borrower). A
 * cached statement may still hold the parameters of its last use; JDBI binds every one again.
 */
final class CachingStatementBuilder extends DefaultStatementBuilder
    implements PlainStatements.KeepsStatements {

  private final Map<String, PreparedStatement> bySql = new HashMap<>();
  private final Set<Statement> cached = Collections.newSetFromMap(new IdentityHashMap<>());

  @Override
  public PreparedStatement create(Connection connection, String sql, StatementContext context)
      throws SQLException {
    if (context.isReturningGeneratedKeys() || context.isConcurrentUpdatable()) {
      return super.create(connection, sql, context); // prepared differently: not worth keeping
    }
    return kept(connection, sql);
  }

  @Override
  public PreparedStatement kept(Connection connection, String sql) throws SQLException {
    PreparedStatement statement = bySql.get(sql);
    if (statement == null) {
      statement = connection.prepareStatement(sql);
      bySql.put(sql, statement);
      cached.add(statement);
    } else {
      statement.clearBatch(); // a batch that failed half-way may have been left behind
    }
    return statement;
  }

  /** Keeps a cached statement open for its next use; closes any other. */
  @Override
  public void close(Connection connection, String sql, Statement statement) throws SQLException {
    if (!cached.contains(statement)) {
      super.close(connection, sql, statement);
    }
  }

  /** Closes every cached statement: JDBI calls this when the writer's handle closes. */
  @Override
  public void close(Connection connection) {
    SQLException first = null;
    for (PreparedStatement statement : bySql.values()) {
      try {
        statement.close();
      } catch (SQLException e) {
        if (first == null) {
          first = e;
        }
      }
    }
    bySql.clear();
    cached.clear();
    if (first != null) {
      throw new IllegalStateException("cannot close the writer's statements", first);
    }
  }
}
