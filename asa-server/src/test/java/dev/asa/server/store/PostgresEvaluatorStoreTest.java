package dev.asa.server.store;

import dev.asa.server.store.db.TestPostgres;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;

/**
 * The evaluator store's contract against the real PostgreSQL server, in a fresh schema for the
 * class (skipped when the server cannot be reached, failing instead when {@code CI=true}).
 */
class PostgresEvaluatorStoreTest extends EvaluatorStoreContract {

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
  protected Store openStore() {
    return Stores.open(postgres.url(), null);
  }
}
