package dev.asa.server.e2e;

import dev.asa.server.config.ServerConfig;
import dev.asa.server.store.db.TestPostgres;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link InputHardeningContract} on PostgreSQL, in a fresh schema. Before issue 12 a NUL in an
 * identity or a URL id reached the database here, which refused to bind it: a 500 where SQLite
 * stored it.
 */
class InputHardeningPostgresTest extends InputHardeningContract {
  @TempDir static Path dataDir;
  TestPostgres schema;

  @Override
  ServerConfig withStore(ServerConfig config) {
    schema = TestPostgres.freshSchema();
    return config.withDataDir(dataDir).withDbUrl(schema.url());
  }

  @AfterAll
  void dropSchema() throws Exception {
    if (schema != null) {
      schema.close();
    }
  }
}
