package dev.asa.server.work;

import static org.assertj.core.api.Assertions.assertThat;

import dev.asa.document.Agreement;
import dev.asa.document.AgreementDrafts;
import dev.asa.json.Json;
import dev.asa.lifecycle.State;
import dev.asa.server.store.agreements.AgreementRow;
import dev.asa.testing.Fixtures;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.ConcurrentHashMap;
import org.junit.jupiter.api.Test;

class AgreementCacheTest {

  private static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");

  private static Agreement agreement(String id) {
    return AgreementDrafts.propose(Fixtures.general(), T0, () -> id);
  }

  private static AgreementRow row(Agreement a, long version) {
    return new AgreementRow(
        a.id(),
        version,
        State.PROPOSED,
        Json.write(a.toJson()),
        "",
        "general",
        "client",
        "provider",
        "evaluator",
        T0,
        T0);
  }

  @Test
  void anEntryServesOnlyItsOwnVersion() {
    AgreementCache cache = new AgreementCache(10);
    Agreement a = agreement("asa-cache-1");
    cache.remember(a.id(), 3, a);
    assertThat(cache.of(row(a, 3))).isSameAs(a);
    Agreement reread = cache.of(row(a, 4)); // the row moved on: parsed again, never the old entry
    assertThat(reread).isNotSameAs(a);
    assertThat(cache.of(row(a, 4))).isSameAs(reread);
  }

  @Test
  void anOlderVersionNeverReplacesANewerOne() {
    AgreementCache cache = new AgreementCache(10);
    Agreement newer = agreement("asa-cache-2");
    Agreement older = agreement("asa-cache-2");
    cache.remember(newer.id(), 5, newer);
    cache.remember(older.id(), 4, older);
    assertThat(cache.of(row(newer, 5))).isSameAs(newer);
    Agreement parsed =
        cache.of(row(older, 4)); // not kept: a reader of a stale row parses, and keeps nothing
    assertThat(parsed).isNotSameAs(older);
    assertThat(cache.of(row(newer, 5))).isSameAs(newer);
  }

  @Test
  void fullEvictsSomeEntriesInsteadOfForgettingAll() {
    AgreementCache cache = new AgreementCache(100);
    Agreement a = agreement("asa-cache-3");
    for (int i = 0; i < 1_000; i++) {
      cache.remember("asa-" + i, 1, a);
      assertThat(cache.size()).isLessThanOrEqualTo(100);
    }
    assertThat(cache.size())
        .isEqualTo(100); // the old cache would hold 1 to 100 here, after clearing
  }

  /** Concurrent writers of random versions: what is kept is the highest version written, per id. */
  @Test
  void concurrentWritersKeepTheNewestVersion() throws Exception {
    long seed = new Random().nextLong();
    System.out.println("AgreementCacheTest seed " + seed);
    AgreementCache cache = new AgreementCache(1_000);
    Agreement[] byVersion = new Agreement[50];
    for (int v = 0; v < byVersion.length; v++) {
      byVersion[v] = agreement("asa-cache-4");
    }
    ConcurrentHashMap<Long, Boolean> written = new ConcurrentHashMap<>();
    List<Thread> threads = new ArrayList<>();
    for (int t = 0; t < 4; t++) {
      Random r = new Random(seed + t);
      threads.add(
          Thread.ofPlatform()
              .start(() -> {
                for (int i = 0; i < 2_000; i++) {
                  int v = r.nextInt(byVersion.length);
                  cache.remember("asa-cache-4", v, byVersion[v]);
                  written.put((long) v, true);
                }
              }));
    }
    for (Thread t : threads) {
      t.join();
    }
    int newest = written.keySet().stream().mapToInt(Long::intValue).max().orElseThrow();
    assertThat(cache.of(row(byVersion[newest], newest)))
        .as("seed %d", seed)
        .isSameAs(byVersion[newest]);
  }
}
