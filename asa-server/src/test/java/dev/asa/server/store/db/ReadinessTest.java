package dev.asa.server.store.db;

import static org.assertj.core.api.Assertions.assertThat;

import dev.asa.server.store.Store;
import dev.asa.server.store.Stores;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link Store#readiness()}: the database answers, and this build's migrations are all applied (a
 * migration missing from a running server's database is in {@code OperationsRoutesTest}).
 */
class ReadinessTest {
  @TempDir Path dataDir;

  @Test
  void aFreshlyMigratedStoreIsReady() {
    try (Store store = Stores.open(null, dataDir)) {
      Readiness r = store.readiness();
      assertThat(r.ready()).isTrue();
      assertThat(r.database()).isEqualTo(new Readiness.Check(true, "ok"));
      assertThat(r.migrations()).isEqualTo(new Readiness.Check(true, "ok"));
    }
  }

  @Test
  void aStoreWhoseDatabaseIsGoneIsNotReadyAndSaysSoWithoutThrowing() {
    Store store = Stores.open(null, dataDir);
    store.close();
    Readiness r = store.readiness();
    assertThat(r.ready()).isFalse();
    assertThat(r.database().ok()).isFalse();
    assertThat(r.database().detail())
        .startsWith("the database does not answer: ")
        .contains("closed");
    assertThat(r.migrations().ok()).isFalse();
  }
}
