package dev.asa.server.store;

import dev.asa.server.store.db.TestPostgres;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;

/**
 * The settlement kill test on PostgreSQL, in a fresh schema (skipped when the server cannot be
 * reached, failing instead when {@code CI=true}).
 */
class PostgresSettlementKillTest extends SettlementKillContract {
  private static TestPostgres postgres;

  @BeforeAll
  static void createSchema() {
    postgres = TestPostgres.freshSchema();
  }

  @AfterAll
  static void dropSchema() throws Exception {
    if (postgres != null) {
      postgres.close();
    }
  }

  @Override
  protected String url() {
    return postgres.url();
  }

  @Override
  protected Store openStore() {
    return Stores.open(postgres.url(), null);
  }
}
