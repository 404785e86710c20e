package dev.asa.server.e2e;

import dev.asa.server.config.ServerConfig;
import dev.asa.server.store.db.TestPostgres;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.io.TempDir;

/** Archival on PostgreSQL: a fresh schema. */
class ArchivePostgresTest extends ArchiveContract {
  @TempDir Path dataDir;
  private TestPostgres schema;

  @Override
  ServerConfig withStore(ServerConfig config) {
    return config.withDataDir(dataDir).withDbUrl(schema().url());
  }

  private TestPostgres schema() {
    if (schema == null) {
      schema = TestPostgres.freshSchema();
    }
    return schema;
  }

  @Override
  Path dataDir() {
    return dataDir;
  }

  @Override
  String dbUrl() {
    return schema().url();
  }

  @Override
  Connection connect() throws SQLException {
    return schema().connection();
  }

  @AfterEach
  void dropSchema() throws Exception {
    if (schema != null) {
      schema.close();
    }
  }
}
