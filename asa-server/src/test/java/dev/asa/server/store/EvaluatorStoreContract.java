package dev.asa.server.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.asa.agreement.Identity;
import dev.asa.integrity.Calibration;
import dev.asa.integrity.CanaryCheck;
import dev.asa.integrity.Deviation;
import dev.asa.integrity.EvaluatorProfile;
import dev.asa.integrity.PoolMember;
import dev.asa.integrity.Standing;
import dev.asa.integrity.TrackRecord;
import dev.asa.server.store.db.DuplicateKeyException;
import dev.asa.server.store.pool.CanarySetRow;
import dev.asa.server.store.pool.CanarySetStore;
import dev.asa.server.store.pool.EvaluatorRow;
import dev.asa.server.store.pool.EvaluatorStore;
import dev.asa.testing.Fixtures;
import java.math.BigDecimal;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * What {@link EvaluatorStore} and {@link CanarySetStore} must do on every database, run against
 * each by a subclass. Tests may share a database, so each uses keys of its own (derived from a
 * random prefix) and service types of its own.
 */
abstract class EvaluatorStoreContract {

  static final Instant T0 = Instant.parse("2026-03-01T10:00:00Z");

  protected Store store;
  private final String run = UUID.randomUUID().toString().substring(0, 8);

  protected abstract Store openStore();

  @BeforeEach
  void openTheStore() {
    store = openStore();
  }

  @AfterEach
  void closeTheStore() {
    store.close();
  }

  /** A name unique to this test run, for keys (Fixtures derives a key from a name). */
  String name(String n) {
    return run + "-" + n;
  }

  /** A service type unique to this test run (lower-case snake_case). */
  String type(String t) {
    return t + "_" + run.replaceAll("[^a-z0-9]", "x").replaceAll("^[0-9]", "t");
  }

  EvaluatorProfile profile(String n, String... serviceTypes) {
    return new EvaluatorProfile(
        Fixtures.key(name(n)).publicKey(),
        new Identity("api_key", name(n), null),
        "Judge " + n,
        "Org of " + n,
        List.of(serviceTypes),
        "judge-model-1",
        new BigDecimal("0.30"),
        List.of("medicine"));
  }

  String keyOf(String n) {
    return Fixtures.key(name(n)).publicKey().toBase64Url();
  }

  EvaluatorRow registered(String n, String... serviceTypes) {
    return store.evaluators().register(profile(n, serviceTypes), T0);
  }

  TrackRecord record(String n) {
    return store.evaluators().find(keyOf(n)).orElseThrow().member().record();
  }

  static CanaryCheck canary(String id, int known, int score) {
    return new CanaryCheck(
        id,
        true,
        List.of(
            new CanaryCheck.DimensionCheck(
                "accuracy", BigDecimal.valueOf(known), BigDecimal.valueOf(score), BigDecimal.TEN)));
  }

  static PoolMember withRecord(PoolMember m, TrackRecord r) {
    return new PoolMember(m.profile(), r, m.standing());
  }

  // ---- records written with the settlement (issue 60) ----

  @Test
  void recordsWrittenBesideOtherWritesCommitWithThemOrNotAtAll() {
    registered("ada", type("research"));
    TrackRecord before = record("ada");
    Write canaryOutcome = new Write.RecordCanary(keyOf("ada"), canary("c1", 50, 55), T0);
    Write assessment = new Write.RecordAssessment(List.of(keyOf("ada")), "provider-" + run, T0);
    // The settlement's own write fails (here: ending a task that does not exist): the record
    // changes with it or not at all, never alone.
    Write failing =
        new Write.EndTask(
            "task-" + run, dev.asa.server.store.verification.TaskRow.Status.SETTLED, "x", T0);
    assertThatThrownBy(() -> store.writes().apply(List.of(canaryOutcome, assessment, failing)))
        .isInstanceOf(DuplicateKeyException.class);
    assertThat(record("ada")).isEqualTo(before);

    store.writes().apply(List.of(assessment, canaryOutcome));
    TrackRecord after = record("ada");
    assertThat(after.canaryTasks()).isEqualTo(before.canaryTasks() + 1);
    assertThat(after.canaryPasses()).isEqualTo(before.canaryPasses() + 1);
    assertThat(after.evaluations()).isGreaterThan(before.evaluations());
    // A key no evaluator holds (an evaluator the agreement named) is nothing, not an error.
    store.writes().apply(List.of(new Write.RecordCanary(keyOf("nobody"), canary("c2", 1, 1), T0)));
    assertThat(store.evaluators().find(keyOf("nobody"))).isEmpty();
  }

  // ---- registration ----

  @Test
  void aRegisteredEvaluatorIsFoundActiveWithAnEmptyRecord() {
    String research = type("research");
    EvaluatorRow row = registered("ada", research, type("code"));

    EvaluatorRow found = store.evaluators().find(keyOf("ada")).orElseThrow();
    assertThat(found).isEqualTo(row);
    assertThat(found.member().profile()).isEqualTo(profile("ada", research, type("code")));
    assertThat(found.member().record()).isEqualTo(TrackRecord.NEW);
    assertThat(found.member().standing()).isEqualTo(Standing.ACTIVE);
    assertThat(found.registeredAt()).isEqualTo(T0);
    assertThat(found.version()).isEqualTo(1);
    assertThat(store.evaluators().find(keyOf("nobody"))).isEmpty();
  }

  @Test
  void registeringAKeyTwiceIsRefusedAndTheFirstRegistrationStays() {
    registered("ada", type("research"));
    assertThatThrownBy(() -> store.evaluators().register(profile("ada", type("code")), T0))
        .isInstanceOf(DuplicateKeyException.class)
        .hasMessageContaining(keyOf("ada"))
        .hasMessageContaining("already registered");
    assertThat(store.evaluators().find(keyOf("ada")).orElseThrow().member().profile())
        .isEqualTo(profile("ada", type("research")));
    assertThat(store.evaluators().ofServiceType(type("code"))).isEmpty();
  }

  @Test
  void listsPageInKeyOrderAndFilterByServiceType() {
    String research = type("research");
    String code = type("code");
    List<String> researchKeys = new ArrayList<>();
    for (int i = 0; i < 7; i++) {
      String n = "judge" + i;
      if (i % 3 == 0) {
        registered(n, code);
      } else {
        registered(n, research, code);
        researchKeys.add(keyOf(n));
      }
    }
    researchKeys.sort(null);

    List<String> paged = new ArrayList<>();
    String after = null;
    while (true) {
      List<EvaluatorRow> page = store.evaluators().list(research, after, 2);
      if (page.isEmpty()) {
        break;
      }
      assertThat(page.size()).isLessThanOrEqualTo(2);
      page.forEach(r -> paged.add(r.keyId()));
      after = page.getLast().keyId();
    }
    assertThat(paged).isEqualTo(researchKeys);
    assertThat(store.evaluators().ofServiceType(research))
        .extracting(EvaluatorRow::keyId)
        .isEqualTo(researchKeys);
    assertThat(store.evaluators().ofServiceType(code)).hasSize(7);
    assertThat(store.evaluators().ofServiceType(type("translation"))).isEmpty();
    assertThat(store.evaluators().list(null, null, 1000))
        .extracting(EvaluatorRow::keyId)
        .containsAll(researchKeys)
        .isSorted();
    assertThat(store.evaluators().count()).isGreaterThanOrEqualTo(7);
  }

  // ---- track record and standing ----

  @Test
  void anUpdateKeepsCountsAndCalibrationExactly() {
    registered("ada", type("research"));
    TrackRecord expected = TrackRecord.NEW;
    Random r = new Random(14_101);
    for (int i = 0; i < 40; i++) {
      CanaryCheck check = canary("c" + i, 20 + r.nextInt(60), r.nextInt(101));
      expected = expected.withCanary(check);
      store
          .evaluators()
          .update(
              keyOf("ada"), m -> withRecord(m, m.record().withCanary(check)), T0.plusSeconds(i));
    }
    Calibration consensus =
        new Calibration(
            Map.of(), Map.of("writing", Deviation.of(new BigDecimal("71.125"), BigDecimal.TEN)));
    expected = expected.withCalibration(consensus);
    EvaluatorRow row =
        store
            .evaluators()
            .update(
                keyOf("ada"),
                m -> withRecord(m, m.record().withCalibration(consensus)),
                T0.plusSeconds(99));

    assertThat(row.member().record()).isEqualTo(expected);
    assertThat(record("ada")).isEqualTo(expected);
    assertThat(record("ada").calibration().fromConsensus().get("writing").absoluteSum())
        .isEqualTo(new BigDecimal("61.125"));
    EvaluatorRow found = store.evaluators().find(keyOf("ada")).orElseThrow();
    assertThat(found.version()).isEqualTo(42);
    assertThat(found.updatedAt()).isEqualTo(T0.plusSeconds(99));
    assertThat(found.registeredAt()).isEqualTo(T0);
  }

  @Test
  void anUpdateMayNotTouchTheProfileOrTheStreaksAndNeedsAnEvaluator() {
    registered("ada", type("research"));
    store.evaluators().recordAssessment(List.of(keyOf("ada")), "provider-p", T0);
    assertThatThrownBy(() ->
            store
                .evaluators()
                .update(
                    keyOf("ada"),
                    m -> withRecord(m, m.record().withProviderAssessedByAnother("provider-p")),
                    T0))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("streaks");
    assertThatThrownBy(() ->
            store
                .evaluators()
                .update(
                    keyOf("ada"),
                    m -> new PoolMember(profile("ada", type("code")), m.record(), m.standing()),
                    T0))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("not its profile");
    assertThatThrownBy(() -> store.evaluators().update(keyOf("nobody"), m -> m, T0))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("no evaluator is registered with key " + keyOf("nobody"));
    // Nothing of the refused updates was written.
    assertThat(record("ada").consecutiveFor("provider-p")).isEqualTo(1);
    assertThat(store.evaluators().find(keyOf("ada")).orElseThrow().version()).isEqualTo(2);
  }

  @Test
  void anExceptionOfTheChangeAbortsTheUpdate() {
    registered("ada", type("research"));
    assertThatThrownBy(() ->
            store
                .evaluators()
                .update(
                    keyOf("ada"),
                    m -> {
                      throw new IllegalStateException("refused by the caller");
                    },
                    T0.plusSeconds(5)))
        .isInstanceOf(IllegalStateException.class)
        .hasMessage("refused by the caller");
    EvaluatorRow row = store.evaluators().find(keyOf("ada")).orElseThrow();
    assertThat(row.version()).isEqualTo(1);
    assertThat(row.updatedAt()).isEqualTo(T0);
  }

  @Test
  void theStandingIsSuspendedWithANoteAndReinstated() {
    registered("ada", type("research"));
    store
        .evaluators()
        .update(
            keyOf("ada"),
            m -> new PoolMember(m.profile(), m.record(), Standing.suspended("scored spam 95")),
            T0);
    assertThat(store.evaluators().find(keyOf("ada")).orElseThrow().member().standing())
        .isEqualTo(Standing.suspended("scored spam 95"));
    store
        .evaluators()
        .update(keyOf("ada"), m -> new PoolMember(m.profile(), m.record(), Standing.ACTIVE), T0);
    assertThat(store.evaluators().find(keyOf("ada")).orElseThrow().member().standing())
        .isEqualTo(Standing.ACTIVE);
  }

  // ---- rotation ----

  @Test
  void anAssessmentGrowsItsEvaluatorsStreakAndEndsEveryOtherOnThatProvider() {
    String research = type("research");
    registered("ada", research);
    registered("bea", research);
    registered("cyd", research);
    String ada = keyOf("ada");
    String bea = keyOf("bea");
    String cyd = keyOf("cyd");

    store.evaluators().recordAssessment(List.of(ada), "prov-p", T0);
    store.evaluators().recordAssessment(List.of(ada), "prov-p", T0);
    store.evaluators().recordAssessment(List.of(ada), "prov-q", T0);
    assertThat(record("ada").consecutiveByProvider()).isEqualTo(Map.of("prov-p", 2, "prov-q", 1));
    assertThat(record("ada").evaluations()).isEqualTo(3);

    // A panel of two: both grow, ada's streak on p ends.
    store.evaluators().recordAssessment(List.of(bea, cyd), "prov-p", T0);
    assertThat(record("ada").consecutiveByProvider()).isEqualTo(Map.of("prov-q", 1));
    assertThat(record("bea").consecutiveByProvider()).isEqualTo(Map.of("prov-p", 1));
    assertThat(record("cyd").consecutiveByProvider()).isEqualTo(Map.of("prov-p", 1));
    store.evaluators().recordAssessment(List.of(cyd, bea, cyd), "prov-p", T0);
    assertThat(record("bea").consecutiveFor("prov-p")).isEqualTo(2);
    assertThat(record("cyd").evaluations()).isEqualTo(2);

    // An evaluator the agreement named, not registered: counts nothing, ends every streak on p.
    store.evaluators().recordAssessment(List.of("named-evaluator-key"), "prov-p", T0);
    assertThat(record("bea").consecutiveByProvider()).isEmpty();
    assertThat(record("cyd").consecutiveByProvider()).isEmpty();
    assertThat(record("ada").consecutiveByProvider()).isEqualTo(Map.of("prov-q", 1));
    assertThat(store.evaluators().find("named-evaluator-key")).isEmpty();

    assertThatThrownBy(() -> store.evaluators().recordAssessment(List.of(), "prov-p", T0))
        .isInstanceOf(IllegalArgumentException.class);
  }

  /**
   * Random assessments (single evaluators, panels, unregistered keys) and canaries over a small
   * pool and a few providers, each applied to the store and to a model built from {@link
   * TrackRecord}'s own transitions: the store's records always equal the model's.
   */
  @Test
  void theStoreFollowsTheTrackRecordModelOverRandomHistories() {
    String research = type("research");
    List<String> names = List.of("e0", "e1", "e2", "e3", "e4");
    Map<String, TrackRecord> model = new TreeMap<>();
    for (String n : names) {
      registered(n, research);
      model.put(keyOf(n), TrackRecord.NEW);
    }
    List<String> providers = List.of("p0", "p1", "p2");
    Random r = new Random(14_102);
    for (int step = 0; step < 150; step++) {
      int kind = r.nextInt(10);
      if (kind < 7) {
        String provider = providers.get(r.nextInt(providers.size()));
        List<String> assessors = new ArrayList<>();
        int panel = kind < 5 ? 1 : 1 + r.nextInt(3);
        for (int i = 0; i < panel; i++) {
          assessors.add(
              r.nextInt(8) == 0 ? "unregistered-" + r.nextInt(2) : keyOf(names.get(r.nextInt(5))));
        }
        store.evaluators().recordAssessment(assessors, provider, T0.plusSeconds(step));
        for (String key : model.keySet()) {
          TrackRecord before = model.get(key);
          model.put(
              key,
              assessors.contains(key)
                  ? before.withEvaluationOf(provider)
                  : before.withProviderAssessedByAnother(provider));
        }
      } else {
        String key = keyOf(names.get(r.nextInt(5)));
        CanaryCheck check = canary("c" + step, r.nextInt(101), r.nextInt(101));
        store
            .evaluators()
            .update(key, m -> withRecord(m, m.record().withCanary(check)), T0.plusSeconds(step));
        model.put(key, model.get(key).withCanary(check));
      }
      if (step % 25 == 24) {
        Map<String, TrackRecord> stored = new HashMap<>();
        store
            .evaluators()
            .ofServiceType(research)
            .forEach(row -> stored.put(row.keyId(), row.member().record()));
        assertThat(stored).as("seed 14102, step %d", step).isEqualTo(model);
      }
    }
  }

  // ---- concurrency ----

  /**
   * Many threads updating one evaluator and recording assessments of one provider at once: every
   * update counts, and only the evaluator of the last assessment keeps a streak on that provider.
   * Panels in opposite key orders on two providers never deadlock.
   */
  @Test
  void concurrentUpdatesAndAssessmentsLoseNothing() throws Exception {
    String research = type("research");
    List<String> keys = new ArrayList<>();
    for (int i = 0; i < 4; i++) {
      registered("c" + i, research);
      keys.add(keyOf("c" + i));
    }
    int threads = 6;
    int rounds = 15;
    ExecutorService pool = Executors.newFixedThreadPool(threads);
    try {
      CountDownLatch go = new CountDownLatch(1);
      List<Future<?>> work = new ArrayList<>();
      for (int t = 0; t < threads; t++) {
        int thread = t;
        work.add(
            pool.submit(() -> {
              go.await();
              for (int i = 0; i < rounds; i++) {
                String evaluator = keys.get((thread + i) % keys.size());
                // One canary for evaluator 0 per round, whoever assessed.
                store
                    .evaluators()
                    .update(
                        keys.get(0),
                        m -> withRecord(m, m.record().withCanary(canary("x", 50, 55))),
                        T0);
                store.evaluators().recordAssessment(List.of(evaluator), "shared-provider", T0);
                store
                    .evaluators()
                    .recordAssessment(
                        thread % 2 == 0
                            ? List.of(keys.get(1), keys.get(2))
                            : List.of(keys.get(2), keys.get(1)),
                        "panel-provider-" + (thread % 2),
                        T0);
              }
              return null;
            }));
      }
      go.countDown();
      for (Future<?> f : work) {
        f.get(120, TimeUnit.SECONDS);
      }
    } finally {
      pool.shutdownNow();
    }
    List<TrackRecord> records = keys.stream().map(this::recordOfKey).toList();
    assertThat(records.get(0).canaryTasks()).isEqualTo(threads * rounds);
    // Every assessment counted: threads * rounds single ones, and two per panel.
    assertThat(records.stream().mapToInt(TrackRecord::evaluations).sum())
        .isEqualTo(threads * rounds * 3 + threads * rounds);
    // Exactly one evaluator holds a streak on the shared provider: the last one to assess it.
    assertThat(records.stream().filter(rec -> rec.consecutiveFor("shared-provider") > 0))
        .hasSize(1);
    for (String provider : List.of("panel-provider-0", "panel-provider-1")) {
      assertThat(recordOfKey(keys.get(1)).consecutiveFor(provider)).isEqualTo(threads / 2 * rounds);
      assertThat(recordOfKey(keys.get(2)).consecutiveFor(provider)).isEqualTo(threads / 2 * rounds);
    }
  }

  private TrackRecord recordOfKey(String key) {
    return store.evaluators().find(key).orElseThrow().member().record();
  }

  // ---- the canary set ----

  @Test
  void theCanarySetIsReplacedWholeAndVersioned() {
    // The table holds one set per database; tests sharing one see each other's, so compare
    // versions relative to the first replacement.
    CanarySetRow first = store.canarySets().replace("[{\"id\":\"a\"}]", 1, "sha256:aa", "op", T0);
    assertThat(store.canarySets().version()).hasValue(first.version());
    CanarySetRow second =
        store
            .canarySets()
            .replace(
                "[{\"id\":\"a\"},{\"id\":\"b\"}]",
                2,
                "sha256:bb",
                "--canaries f",
                T0.plusSeconds(1));
    assertThat(second.version()).isEqualTo(first.version() + 1);
    assertThat(store.canarySets().current()).contains(second);
    assertThat(second)
        .isEqualTo(
            new CanarySetRow(
                "[{\"id\":\"a\"},{\"id\":\"b\"}]",
                2,
                "sha256:bb",
                T0.plusSeconds(1),
                "--canaries f",
                first.version() + 1));
  }
}
