package dev.asa.server.fuzz;

import dev.asa.server.store.db.TestPostgres;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;

/**
 * {@link HttpFuzzTest} on PostgreSQL, in a fresh schema: every case and every regression test of
 * the SQLite run. PostgreSQL refuses some text SQLite keeps (a NUL character), so a body that
 * reaches the store unchecked shows here as a 500 first.
 */
class HttpFuzzPostgresTest extends HttpFuzzTest {
  static TestPostgres schema;

  @BeforeAll
  static void startOnPostgres() {
    schema = TestPostgres.freshSchema();
    startWith("PostgreSQL", config -> config.withDataDir(dataDir).withDbUrl(schema.url()));
  }

  /** The server first (runs before {@link HttpFuzzTest#stop()}, which then has nothing to do). */
  @AfterAll
  static void dropSchema() throws Exception {
    stop();
    if (schema != null) {
      schema.close();
    }
  }
}
