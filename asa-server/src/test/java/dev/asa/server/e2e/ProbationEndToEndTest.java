package dev.asa.server.e2e;

import static dev.asa.server.e2e.PoolAgreements.activate;
import static dev.asa.server.e2e.PoolAgreements.pooled;
import static dev.asa.server.e2e.PoolAgreements.verification;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.asa.client.AsaClient;
import dev.asa.crypto.KeyFile;
import dev.asa.integrity.Calibration;
import dev.asa.integrity.Deviation;
import dev.asa.integrity.PoolMember;
import dev.asa.integrity.TrackRecord;
import dev.asa.server.AsaServer;
import dev.asa.server.ServerKey;
import dev.asa.server.config.ServerConfig;
import dev.asa.server.store.Store;
import dev.asa.server.store.Stores;
import dev.asa.testing.Fixtures;
import dev.asa.testing.MutableClock;
import java.math.BigDecimal;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 53, item 2: qualification rests on real work judged in agreement with others, not on
 * canaries alone. Through the real server and registry: evaluators qualified by canaries are on
 * probation (the registry says so); while anyone off probation is eligible, none of them judges an
 * agreement alone, and on a panel they hold a minority of the seats, listed last; the panel's
 * consensus gives them the scores of real work beside others that end probation.
 */
class ProbationEndToEndTest {
  private static final List<String> SEASONED = List.of("seasoned-1", "seasoned-2");
  private static final List<String> NEWCOMERS = List.of("newcomer-1", "newcomer-2", "newcomer-3");

  @TempDir Path dataDir;
  private final MutableClock clock = new MutableClock(Instant.parse("2026-12-01T10:00:00Z"));
  private AsaServer server;
  private AsaClient anonymous;

  @BeforeEach
  void start() throws Exception {
    // A fixed server key and clock: the draws are the same each run.
    KeyFile.write(dataDir.resolve(ServerKey.FILE_NAME), Fixtures.key("probation-server"));
    server =
        AsaServer.start(
            ServerConfig.defaults()
                .withPort(0)
                .withDataDir(dataDir)
                .withClock(clock)
                .withOperatorKey(Fixtures.key("operator").publicKey())
                .withRateLimit(10_000, 10_000)
                .withTimerPolling(false));
    anonymous = AsaClient.connect(URI.create(server.url("127.0.0.1")));
    for (String who : concat(SEASONED, NEWCOMERS)) {
      as(who)
          .registerEvaluator(
              AsaClient.evaluatorRegistration("api_key", who, "Judge " + who, List.of("general")));
    }
    try (Store store = Stores.open(null, dataDir)) {
      for (String who : concat(SEASONED, NEWCOMERS)) {
        // All clear the canary bar; only the seasoned have judged real work beside others.
        Map<String, Deviation> consensus =
            SEASONED.contains(who)
                ? Map.of("accuracy", new Deviation(12, new BigDecimal("36"), BigDecimal.ZERO))
                : Map.of();
        TrackRecord record =
            new TrackRecord(
                60,
                20,
                19,
                new Calibration(
                    Map.of("accuracy", new Deviation(20, new BigDecimal("80"), BigDecimal.ZERO)),
                    consensus),
                Map.of());
        store
            .evaluators()
            .update(
                keyOf(who),
                m -> new PoolMember(m.profile(), record, m.standing()),
                clock.instant());
      }
    }
  }

  @AfterEach
  void stop() {
    server.close();
  }

  private AsaClient as(String who) {
    return anonymous.withKey(Fixtures.key(who), clock);
  }

  private static String keyOf(String who) {
    return Fixtures.key(who).publicKey().toBase64Url();
  }

  private static List<String> concat(List<String> a, List<String> b) {
    List<String> out = new ArrayList<>(a);
    out.addAll(b);
    return out;
  }

  private List<String> assigned(String id) {
    List<String> names = new ArrayList<>();
    as("alice")
        .agreement(id)
        .at("/agreement/metadata/assigned_evaluators/evaluators")
        .forEach(e -> names.add(e.at("/identity/value").asText()));
    return names;
  }

  @Test
  void theRegistryTellsANewcomerItIsOnProbationAndWhatEndsIt() {
    JsonNode newcomer = as("operator").evaluator(keyOf("newcomer-1"));
    assertThat(newcomer.path("qualified").asBoolean()).isTrue();
    assertThat(newcomer.path("probation").asText())
        .contains("has 0 scores of real work compared with other evaluators'")
        .contains("needs 12");
    assertThat(as("operator").evaluator(keyOf("seasoned-1")).has("probation")).isFalse();
    assertThat(
            as("operator")
                .adminConfig()
                .at("/evaluators/qualification/min_consensus_samples")
                .asInt())
        .isEqualTo(12);
  }

  @Test
  void nobodyOnProbationJudgesAloneWhileAnEvaluatorOffItCan() {
    Set<String> drawn = new HashSet<>();
    for (int i = 0; i < 12; i++) {
      String id = "asa-alone-%02d".formatted(i);
      activate(as("alice"), as("bob"), pooled(id));
      List<String> names = assigned(id);
      assertThat(names).hasSize(1);
      drawn.add(names.get(0));
    }
    assertThat(drawn).as("only the seasoned, both of them").isEqualTo(new HashSet<>(SEASONED));
  }

  @Test
  void onAPanelNewcomersHoldAMinorityAndEarnTheirWayOffProbation() {
    String id = "asa-panel";
    ObjectNode doc = pooled(id);
    verification(doc).putObject("evaluators").put("count", 3).put("method", "median");
    activate(as("alice"), as("bob"), doc);
    List<String> panel = assigned(id);
    assertThat(panel).hasSize(3);
    assertThat(panel.subList(0, 2)).containsExactlyInAnyOrderElementsOf(SEASONED);
    String newcomer = panel.get(2);
    assertThat(NEWCOMERS).contains(newcomer);
    JsonNode payload = PoolAgreements.event(as("alice"), id, "evaluator_assigned").path("payload");
    List<String> purposes = new ArrayList<>();
    payload.path("draws").forEach(d -> purposes.add(d.path("purpose").asText()));
    assertThat(purposes).containsExactly("evaluator-probation", "evaluator");
    List<String> onProbation = new ArrayList<>();
    payload.path("on_probation").forEach(k -> onProbation.add(k.asText()));
    assertThat(onProbation)
        .containsExactlyInAnyOrderElementsOf(NEWCOMERS.stream().map(n -> keyOf(n)).toList());

    as("alice").fund(id);
    clock.advance(Duration.ofMinutes(5));
    as("bob").deliver(id, EvaluatorWorkQueueEndToEndTest.DELIVERED, "markdown");
    int[] accuracy = {88, 90, 60};
    for (int i = 0; i < 3; i++) {
      AsaClient member = as(panel.get(i));
      for (JsonNode t : member.evaluatorTasks().path("tasks")) {
        member.answerTask(
            t.path("task_id").asText(), EvaluatorWorkQueueEndToEndTest.scores(accuracy[i], 85, 90));
      }
    }
    assertThat(as("alice").agreement(id).path("state").asText()).isEqualTo("VERIFIED");
    // The newcomer's scores were compared with the others' median: real work beside others.
    JsonNode record = as("operator").evaluator(keyOf(newcomer)).path("track_record");
    int consensus = 0;
    for (JsonNode d : record.at("/calibration/from_consensus")) {
      consensus += d.path("samples").asInt();
    }
    assertThat(consensus).as(record.toString()).isGreaterThanOrEqualTo(3);
  }
}
