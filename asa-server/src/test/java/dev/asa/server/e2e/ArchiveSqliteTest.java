package dev.asa.server.e2e;

import dev.asa.server.config.ServerConfig;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import org.junit.jupiter.api.io.TempDir;

/** Archival on SQLite: the data directory's own file. */
class ArchiveSqliteTest extends ArchiveContract {
  @TempDir Path dataDir;

  @Override
  ServerConfig withStore(ServerConfig config) {
    return config.withDataDir(dataDir);
  }

  @Override
  Path dataDir() {
    return dataDir;
  }

  @Override
  String dbUrl() {
    return "";
  }

  @Override
  Connection connect() throws SQLException {
    Connection c = DriverManager.getConnection("jdbc:sqlite:" + dataDir.resolve("asa.db"));
    try (Statement s = c.createStatement()) {
      s.execute("PRAGMA busy_timeout = 30000");
    }
    return c;
  }
}
