package dev.asa.server.e2e;

import dev.asa.server.config.ServerConfig;
import dev.asa.server.store.db.TestPostgres;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.io.TempDir;

/** {@link VerdictPathContract} on PostgreSQL, in a fresh schema. */
class VerdictPathPostgresTest extends VerdictPathContract {
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
