package dev.asa.server.agreements;

import dev.asa.server.store.Store;
import dev.asa.server.store.Stores;
import java.nio.file.Path;

/** {@link CollateralProperty} on SQLite (one writer: races serialise on the store). */
class CollateralPropertySqliteTest extends CollateralProperty {
  @Override
  Store open(Path dir) {
    return Stores.open(null, dir);
  }

  @Override
  int defaultAgreements() {
    return 300;
  }
}
