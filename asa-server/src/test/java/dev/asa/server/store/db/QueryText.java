package dev.asa.server.store.db;

import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;

/** What a query returns as text, for tests that read a plan or a schema rather than rows. */
public final class QueryText {

  private QueryText() {}

  /**
   * The last column of every row {@code query} returns, one line each: the plan of an {@code
   * EXPLAIN} (PostgreSQL's single column, SQLite's detail column), or the SQL of a schema entry.
   */
  public static String of(Statement s, String query) throws SQLException {
    List<String> lines = new ArrayList<>();
    try (ResultSet rs = s.executeQuery(query)) {
      int columns = rs.getMetaData().getColumnCount();
      while (rs.next()) {
        lines.add(rs.getString(columns));
      }
    }
    return String.join("\n", lines);
  }
}
