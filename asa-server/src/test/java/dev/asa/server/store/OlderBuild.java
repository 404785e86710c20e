package dev.asa.server.store;

import dev.asa.server.store.db.Dialect;
import dev.asa.server.store.db.MigrationsTest;
import dev.asa.server.store.db.SqliteDatabase;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;

/**
 * Prepares a database the way builds before Flyway did: each script run statement by statement and
 * recorded in {@code schema_migrations (version, name, applied_at)}.
 */
public final class OlderBuild {

  private OlderBuild() {}

  /** Applies the scripts up to {@code newestVersion} (inclusive), as an older build would have. */
  public static void migrate(Connection c, Dialect dialect, int newestVersion) throws SQLException {
    if (dialect == Dialect.SQLITE) {
      SqliteDatabase.registerMigrationFunctions(c);
    }
    try (Statement s = c.createStatement()) {
      s.execute(
          "CREATE TABLE schema_migrations (version INTEGER NOT NULL PRIMARY KEY, name TEXT NOT NULL,"
              + " applied_at BIGINT NOT NULL)");
      for (String script : MigrationsTest.scripts(dialect)) {
        int version = Integer.parseInt(script.substring(1, script.indexOf("__")));
        if (version > newestVersion) {
          break;
        }
        for (String statement : statements(read(dialect, script))) {
          s.execute(statement);
        }
        String name = script.substring(script.indexOf("__") + 2, script.length() - ".sql".length());
        s.execute("INSERT INTO schema_migrations VALUES (" + version + ", '" + name + "', 0)");
      }
    }
  }

  /** Runs one statement with its values in order, as an older build's code would write a row. */
  public static void write(Connection c, String sql, Object... values) throws SQLException {
    try (PreparedStatement s = c.prepareStatement(sql)) {
      for (int i = 0; i < values.length; i++) {
        s.setObject(i + 1, values[i]);
      }
      s.executeUpdate();
    }
  }

  public static String read(Dialect dialect, String script) {
    Path file = MigrationsTest.script(dialect, script);
    try {
      return Files.readString(file, StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new IllegalStateException(file.toString(), e);
    }
  }

  /**
   * The older runner's splitting: ';' at the end of a line ends a statement; "--" lines are
   * dropped.
   */
  static List<String> statements(String script) {
    List<String> out = new ArrayList<>();
    StringBuilder current = new StringBuilder();
    for (String line : script.split("\\R")) {
      String trimmed = line.strip();
      if (trimmed.isEmpty() || trimmed.startsWith("--")) {
        continue;
      }
      current.append(line).append('\n');
      if (trimmed.endsWith(";")) {
        String sql = current.toString().strip();
        out.add(sql.substring(0, sql.length() - 1));
        current.setLength(0);
      }
    }
    if (!current.toString().isBlank()) {
      out.add(current.toString().strip());
    }
    return out;
  }
}
