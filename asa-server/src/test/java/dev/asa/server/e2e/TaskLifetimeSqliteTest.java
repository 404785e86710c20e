package dev.asa.server.e2e;

import dev.asa.server.config.ServerConfig;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import org.junit.jupiter.api.io.TempDir;

/** {@link TaskLifetimeContract} on the default store, SQLite. */
class TaskLifetimeSqliteTest extends TaskLifetimeContract {
  @TempDir Path dataDir;

  @Override
  ServerConfig withStore(ServerConfig config) {
    return config.withDataDir(dataDir);
  }

  @Override
  Connection database() throws Exception {
    return DriverManager.getConnection("jdbc:sqlite:" + dataDir.resolve("asa.db"));
  }
}
