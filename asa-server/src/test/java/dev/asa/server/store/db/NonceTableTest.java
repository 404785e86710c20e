package dev.asa.server.store.db;

import static org.assertj.core.api.Assertions.assertThat;

import dev.asa.server.store.Store;
import dev.asa.server.store.Stores;
import dev.asa.testing.MutableClock;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The request-nonce table (V008) on SQLite, and its atomic insert on PostgreSQL. */
class NonceTableTest {

  private static final Instant NOW = Instant.ofEpochSecond(1_800_000_000);
  private static final Duration SKEW = Duration.ofSeconds(300);
  private static final String KEY = "11qYAYKxCrfVS_7TyWQHOg7hcvPapiMlrwIaaPcHURo";

  @TempDir Path dir;
  final MutableClock clock = new MutableClock(NOW);

  @Test
  void aPairIsFirstUsedOnceEvenAfterTheStoreIsReopened() {
    try (Store store = open()) {
      NonceTable nonces = nonces(store);
      assertThat(nonces.firstUse(KEY, "nonce-0000000001", NOW)).isTrue();
      assertThat(nonces.firstUse(KEY, "nonce-0000000001", NOW)).isFalse();
      assertThat(nonces.firstUse(KEY, "nonce-0000000002", NOW)).isTrue();
      assertThat(nonces.firstUse("another-key", "nonce-0000000001", NOW)).isTrue();
    }
    try (Store reopened = open()) {
      assertThat(nonces(reopened).firstUse(KEY, "nonce-0000000001", NOW)).isFalse();
    }
  }

  @Test
  void aPairIsKeptForItsWindowThenTakenOverAndPruned() {
    try (Store store = open()) {
      NonceTable nonces = nonces(store);
      nonces.firstUse(KEY, "nonce-0000000001", NOW);
      clock.advance(Duration.ofSeconds(300)); // created is exactly at the skew limit: still valid
      assertThat(nonces.firstUse(KEY, "nonce-0000000001", NOW)).isFalse();

      clock.advance(Duration.ofSeconds(1)); // the verifier refuses created as stale from here on
      // A row past its expiry, not yet pruned, does not block the pair (it can only come back with
      // a fresh created, which the same rule then protects).
      assertThat(nonces.firstUse(KEY, "nonce-0000000001", clock.instant())).isTrue();
      assertThat(nonces.firstUse(KEY, "nonce-0000000001", clock.instant())).isFalse();

      nonces.firstUse(KEY, "nonce-0000000002", clock.instant());
      clock.advance(Duration.ofSeconds(301));
      assertThat(nonces.size()).isEqualTo(2);
      assertThat(nonces.prune()).isEqualTo(2);
      assertThat(nonces.size()).isZero();
    }
  }

  @Test
  void expiredRowsArePrunedByTheRequestsThemselves() {
    try (Store store = open()) {
      NonceTable nonces = nonces(store);
      for (int i = 0; i < 50; i++) {
        nonces.firstUse(KEY, "nonce-old-" + (1_000_000 + i), clock.instant());
      }
      clock.advance(SKEW.plus(NonceTable.PRUNE_EVERY).plusSeconds(1));
      nonces.firstUse(KEY, "nonce-new-0000001", clock.instant());
      assertThat(nonces.size()).isEqualTo(1);
    }
  }

  /** Two servers on one PostgreSQL schema record the same pair at once: exactly one wins. */
  @Test
  void twoNodesRacingForOnePairOnPostgresqlOneWins() throws Exception {
    try (TestPostgres pg = TestPostgres.freshSchema();
        Store node1 = Stores.open(pg.url(), null);
        Store node2 = Stores.open(pg.url(), null)) {
      List<NonceTable> tables = List.of(nonces(node1), nonces(node2));
      ExecutorService pool = Executors.newFixedThreadPool(8);
      try {
        for (int round = 0; round < 20; round++) {
          String nonce = "race-nonce-" + (100_000 + round);
          CountDownLatch go = new CountDownLatch(1);
          List<Future<Boolean>> racers = new ArrayList<>();
          for (int i = 0; i < 8; i++) {
            NonceTable table = tables.get(i % 2);
            racers.add(
                pool.submit(() -> {
                  go.await();
                  return table.firstUse(KEY, nonce, NOW);
                }));
          }
          go.countDown();
          int winners = 0;
          for (Future<Boolean> racer : racers) {
            winners += racer.get(30, TimeUnit.SECONDS) ? 1 : 0;
          }
          assertThat(winners).as("winners of round %d", round).isEqualTo(1);
        }
      } finally {
        pool.shutdownNow();
      }
    }
  }

  private Store open() {
    return Stores.open(null, dir);
  }

  private NonceTable nonces(Store store) {
    return store.nonces(clock, SKEW);
  }
}
