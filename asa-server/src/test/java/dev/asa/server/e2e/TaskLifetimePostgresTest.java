package dev.asa.server.e2e;

import dev.asa.server.config.ServerConfig;
import dev.asa.server.store.db.TestPostgres;
import java.nio.file.Path;
import java.sql.Connection;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.io.TempDir;

/** {@link TaskLifetimeContract} on PostgreSQL, in a fresh schema for each test. */
class TaskLifetimePostgresTest extends TaskLifetimeContract {
  @TempDir Path dataDir;
  TestPostgres schema;

  @Override
  ServerConfig withStore(ServerConfig config) {
    schema = TestPostgres.freshSchema();
    return config.withDataDir(dataDir).withDbUrl(schema.url());
  }

  @Override
  Connection database() throws Exception {
    return schema.connection();
  }

  @AfterEach
  void dropSchema() throws Exception {
    stop(); // the server lets go of the schema first
    if (schema != null) {
      schema.close();
    }
  }
}
