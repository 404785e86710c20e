package dev.asa.server.store.db;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.WeakHashMap;
import org.jdbi.v3.core.statement.DefaultStatementBuilder;
import org.jdbi.v3.core.statement.StatementContext;
import org.sqlite.SQLiteConnection;

/**
 * Hands JDBI the prepared statements of the SQLite reader connection a read borrowed: one {@link
 * CachingStatementBuilder} per physical connection, so each SQL text is prepared once per
 * connection and kept with it, as the writer's are. One instance serves every reader handle.
 *
 * <p>Why: a request reads a dozen or more times, and each read prepared its statement again (about
 * 10 us of SQLite's native time each, which a Java profile does not even show). The statements are
 * prepared on the physical connection under the pool's proxy, so the pool does not close them when
 * the connection goes back. The pool therefore keeps its reader connections for the life of the
 * database (a fixed size, never retired for age or idleness: see {@link SqliteDatabase}), and
 * {@link #closeAll} closes the statements before the pool closes the connections. A connection the
 * pool drops as broken takes its statements' memory with it when it is collected (weak keys).
 *
 * <p>A connection is used by one thread at a time (the borrower), so its builder is too. A cached
 * statement is reset when JDBI closes its result set, which ends the read's snapshot: a later read
 * on the connection sees the latest commit.
 */
final class ReaderStatementBuilder extends DefaultStatementBuilder
    implements PlainStatements.KeepsStatements {

  private final Map<Connection, CachingStatementBuilder> byConnection =
      Collections.synchronizedMap(new WeakHashMap<>());

  @Override
  public PreparedStatement create(Connection connection, String sql, StatementContext context)
      throws SQLException {
    if (!connection.isWrapperFor(SQLiteConnection.class)) {
      return super.create(connection, sql, context);
    }
    Connection physical = connection.unwrap(SQLiteConnection.class);
    return builderOf(physical).create(physical, sql, context);
  }

  @Override
  public PreparedStatement kept(Connection connection, String sql) throws SQLException {
    Connection physical = connection.unwrap(SQLiteConnection.class);
    return builderOf(physical).kept(physical, sql);
  }

  /** Keeps a cached statement open for the connection's next read; closes any other. */
  @Override
  public void close(Connection connection, String sql, Statement statement) throws SQLException {
    if (!connection.isWrapperFor(SQLiteConnection.class)) {
      super.close(connection, sql, statement);
      return;
    }
    Connection physical = connection.unwrap(SQLiteConnection.class);
    builderOf(physical).close(physical, sql, statement);
  }

  /** Closes every kept statement: the database is closing. */
  void closeAll() {
    List<Map.Entry<Connection, CachingStatementBuilder>> all;
    synchronized (byConnection) {
      all = new ArrayList<>(byConnection.entrySet());
      byConnection.clear();
    }
    for (Map.Entry<Connection, CachingStatementBuilder> e : all) {
      try {
        e.getValue().close(e.getKey());
      } catch (RuntimeException ignored) {
        // the connection is going away too; nothing is left to release
      }
    }
  }

  private CachingStatementBuilder builderOf(Connection physical) {
    return byConnection.computeIfAbsent(physical, c -> new CachingStatementBuilder());
  }
}
