package dev.asa.server.store;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The evaluator store's contract against a SQLite file in a fresh directory per test. */
class SqliteEvaluatorStoreTest extends EvaluatorStoreContract {

  @TempDir Path dir;

  @Override
  protected Store openStore() {
    return Stores.open(null, dir);
  }

  @Test
  void aFreshDatabaseHasNoCanarySetAndNoEvaluator() {
    assertThat(store.canarySets().current()).isEmpty();
    assertThat(store.canarySets().version()).isEmpty();
    assertThat(store.evaluators().count()).isZero();
    assertThat(store.evaluators().list(null, null, 10)).isEmpty();
  }

  @Test
  void theRegistrySurvivesAReopen() {
    registered("ada", type("research"));
    store.evaluators().recordAssessment(java.util.List.of(keyOf("ada")), "prov", T0);
    store.canarySets().replace("[]", 0, "sha256:00", "op", T0);
    store.close();
    store = openStore();
    assertThat(record("ada").consecutiveFor("prov")).isEqualTo(1);
    assertThat(store.canarySets().version()).hasValue(1);
  }
}
