package dev.asa.server.agreements;

import dev.asa.server.store.Store;
import dev.asa.server.store.Stores;
import dev.asa.server.store.db.TestPostgres;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterEach;

/**
 * {@link CollateralProperty} on PostgreSQL, in a fresh schema: a pool of connections, so racing
 * calls really run at once and meet at the agreement's row and the ledger's keys.
 */
class CollateralPropertyPostgresTest extends CollateralProperty {
  private TestPostgres schema;

  @Override
  Store open(Path dir) {
    schema = TestPostgres.freshSchema();
    return Stores.open(schema.url(), dir);
  }

  @Override
  int defaultAgreements() {
    return 150;
  }

  @AfterEach
  void dropSchema() throws Exception {
    if (schema != null) {
      schema.close();
    }
  }
}
