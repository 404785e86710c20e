package dev.asa.server.e2e;

import dev.asa.server.config.ServerConfig;
import java.nio.file.Path;
import org.junit.jupiter.api.io.TempDir;

/** {@link CollateralContract} on the default store, SQLite. */
class CollateralSqliteTest extends CollateralContract {
  @TempDir static Path dataDir;

  @Override
  ServerConfig withStore(ServerConfig config) {
    return config.withDataDir(dataDir);
  }
}
