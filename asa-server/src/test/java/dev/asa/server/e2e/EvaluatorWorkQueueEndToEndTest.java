package dev.asa.server.e2e;

import static dev.asa.server.e2e.PoolAgreements.activate;
import static dev.asa.server.e2e.PoolAgreements.event;
import static dev.asa.server.e2e.PoolAgreements.pooled;
import static dev.asa.server.e2e.PoolAgreements.verification;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.asa.client.AsaApiException;
import dev.asa.client.AsaClient;
import dev.asa.integrity.QualificationPolicy;
import dev.asa.json.Json;
import dev.asa.server.AsaServer;
import dev.asa.server.config.ServerConfig;
import dev.asa.server.pool.AssignmentConfig;
import dev.asa.testing.Fixtures;
import dev.asa.testing.MutableClock;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The evaluator work queue through real HTTP: real work and canaries arrive alike and settle
 * together; an evaluator that scores known-bad canaries as good drops out of the pool; a failed
 * canary voids the result and a backup judges; a silent evaluator is replaced by a backup whose
 * verdict moves the money. With the attacks: another evaluator's task, a second answer, a late
 * answer, scores that do not fit the task, the agreement route used beside the queue.
 */
class EvaluatorWorkQueueEndToEndTest {
  static final String DELIVERED =
      "# Federated learning\n\nDifferential privacy bounds leakage; secure aggregation hides"
          + " updates.\n";

  @TempDir Path dataDir;
  private final MutableClock clock = new MutableClock(Instant.parse("2026-11-24T10:00:00Z"));
  private final InMemoryPool pool = new InMemoryPool(QualificationPolicy.DEFAULTS);
  private AsaServer server;
  private AsaClient anonymous;
  private AsaClient client;
  private AsaClient provider;

  @BeforeEach
  void start() {
    server =
        AsaServer.start(
            ServerConfig.defaults()
                .withPort(0)
                .withDataDir(dataDir)
                .withClock(clock)
                .withOperatorKey(Fixtures.key("operator").publicKey())
                .withRateLimit(10_000, 10_000)
                .withTimerPolling(false)
                .withAssignment(AssignmentConfig.DEFAULTS.withPool(pool)));
    anonymous = AsaClient.connect(URI.create(server.url("127.0.0.1")));
    client = as("alice");
    provider = as("bob");
    // One known-bad canary posing as general work: every dimension deserves a low score.
    ObjectNode canary = Json.object();
    canary.put("id", "general-bad-01");
    canary.put("service_type", "general");
    canary.putObject("request").put("description", "Explain how TLS certificates are checked");
    canary
        .putObject("deliverable")
        .put("content", "# Certificates\n\nCertificates are used and browsers check them.\n")
        .put("format", "markdown");
    canary.set(
        "criteria",
        dev.asa.template.Templates.get("general").orElseThrow().defaults().get("quality_criteria"));
    canary
        .putObject("known_scores")
        .put("accuracy", 20)
        .put("completeness", 15)
        .put("relevance", 30);
    canary.put("tolerance", 15);
    as("operator").loadCanaries(Json.mapper().createArrayNode().add(canary));
  }

  @AfterEach
  void stop() {
    server.close();
  }

  private CanaryPlacements placements() {
    return new CanaryPlacements(dataDir);
  }

  private AsaClient as(String name) {
    return anonymous.withKey(Fixtures.key(name), clock);
  }

  /** A pooled agreement with a canary beside every delivery. */
  private static ObjectNode withCanaries(String id, String failureAction) {
    ObjectNode doc = pooled(id);
    verification(doc)
        .putObject("canary_tasks")
        .put("enabled", true)
        .put("frequency", "1_per_1_deliveries")
        .put("failure_action", failureAction);
    return doc;
  }

  /** An answer scoring every dimension of the general criteria. */
  static ObjectNode scores(int accuracy, int completeness, int relevance) {
    ObjectNode r = Json.object();
    var dims = r.putArray("dimensions");
    dims.addObject().put("name", "accuracy").put("score", accuracy).put("evidence", "checked");
    dims.addObject()
        .put("name", "completeness")
        .put("score", completeness)
        .put("evidence", "covered");
    dims.addObject().put("name", "relevance").put("score", relevance).put("evidence", "on topic");
    dims.addObject().put("name", "timeliness").put("score", true).put("evidence", "on time");
    return r;
  }

  private static List<JsonNode> tasks(AsaClient evaluator) {
    List<JsonNode> out = new ArrayList<>();
    evaluator.evaluatorTasks().path("tasks").forEach(out::add);
    return out;
  }

  private static boolean isReal(JsonNode task) {
    return task.path("deliverable").path("content").asText().equals(DELIVERED);
  }

  /** Answers each open task: the real work honestly, the canary as {@code canaryAnswer}. */
  private static void answerAll(
      AsaClient evaluator, ObjectNode realAnswer, ObjectNode canaryAnswer) {
    for (JsonNode t : tasks(evaluator)) {
      ObjectNode answer = isReal(t) ? realAnswer : canaryAnswer;
      JsonNode ack = evaluator.answerTask(t.path("task_id").asText(), answer);
      assertThat(ack.path("status").asText()).isEqualTo("received");
    }
  }

  private void deliver(String id) {
    client.fund(id);
    clock.advance(Duration.ofMinutes(5));
    provider.deliver(id, DELIVERED, "markdown");
  }

  private String state(String id) {
    return client.agreement(id).path("state").asText();
  }

  private static List<String> eventTypes(AsaClient reader, String id) {
    List<String> types = new ArrayList<>();
    reader.events(id).path("events").forEach(e -> types.add(e.path("type").asText()));
    return types;
  }

  private static AsaApiException refused(Runnable call) {
    try {
      call.run();
    } catch (AsaApiException e) {
      return e;
    }
    throw new AssertionError("the call was not refused");
  }

  private static void assertRefused(int status, String pointer, Runnable call) {
    AsaApiException e = refused(call);
    assertThat(e.status()).as(e.body()).isEqualTo(status);
    if (pointer != null) {
      assertThat(e.errors())
          .as(e.body())
          .anySatisfy(f -> assertThat(f.pointer()).isEqualTo(pointer));
    }
  }

  @Test
  void aCanaryAndTheRealWorkArriveAlikeAndSettleTogether() {
    String name = placements().besideFor("judge", 1);
    pool.register(InMemoryPool.qualified(name));
    AsaClient judge = as(name);
    String id = "asa-queue-alike";
    activate(client, provider, withCanaries(id, "flag_and_continue"));
    deliver(id);

    List<JsonNode> given = tasks(judge);
    assertThat(given).hasSize(2);
    Set<String> shape = new HashSet<>();
    given.get(0).fieldNames().forEachRemaining(shape::add);
    assertThat(shape)
        .containsExactlyInAnyOrder(
            "task_id",
            "service_type",
            "request",
            "deliverable",
            "criteria",
            "dimensions",
            "deadline",
            "created_at");
    for (JsonNode t : given) {
      Set<String> fields = new HashSet<>();
      t.fieldNames().forEachRemaining(fields::add);
      assertThat(fields).as("every task has the same members").isEqualTo(shape);
      assertThat(t.path("deadline").asText()).isEqualTo(given.get(0).path("deadline").asText());
      assertThat(t.path("task_id").asText()).startsWith("tsk-").doesNotContain(id);
      assertThat(t.toString()).doesNotContain("general-bad-01").doesNotContain("known_scores");
      assertThat(t.path("dimensions"))
          .extracting(JsonNode::asText)
          .containsExactly("accuracy", "completeness", "relevance", "timeliness");
    }
    assertThat(given).filteredOn(EvaluatorWorkQueueEndToEndTest::isReal).hasSize(1);

    // With canaries on, the agreement route is closed to the evaluator: it answers in its queue.
    assertRefused(
        409, null, () -> judge.verify(id, LifecycleEndToEndTest.judgedScores(88, 82, 94)));

    JsonNode real = given.stream().filter(EvaluatorWorkQueueEndToEndTest::isReal).findFirst().get();
    JsonNode canary = given.stream().filter(t -> !isReal(t)).findFirst().get();
    judge.answerTask(real.path("task_id").asText(), scores(88, 82, 94));
    // Held: nothing anyone can see changes until the canary beside it is answered too.
    assertThat(state(id)).isEqualTo("DELIVERED");
    assertThat(eventTypes(client, id)).doesNotContain("canary_checked", "verified");
    assertThat(pool.memberNamed(name).record().canaryTasks()).isEqualTo(20);
    assertThat(tasks(judge)).singleElement().satisfies(t -> assertThat(isReal(t)).isFalse());

    judge.answerTask(canary.path("task_id").asText(), scores(22, 20, 25));
    assertThat(state(id)).isEqualTo("VERIFIED");
    JsonNode checked = event(client, id, "canary_checked").path("payload");
    assertThat(checked.path("passed").asBoolean()).isTrue();
    assertThat(checked.path("evaluator").asText())
        .isEqualTo(Fixtures.key(name).publicKey().toBase64Url());
    assertThat(checked.toString()).doesNotContain("general-bad-01").doesNotContain("task_id");
    assertThat(eventTypes(client, id))
        .containsSubsequence("delivered", "canary_checked", "verified");
    assertThat(pool.memberNamed(name).record().canaryTasks()).isEqualTo(21);
    assertThat(pool.memberNamed(name).record().canaryPasses()).isEqualTo(20);
    assertThat(tasks(judge)).isEmpty();
    JsonNode result = client.verification(id);
    assertThat(result.path("evaluator").path("identity").path("value").asText()).isEqualTo(name);
  }

  @Test
  void anEvaluatorThatScoresKnownBadCanariesAsGoodDropsOutOfThePool() {
    // 19 of 20 canaries passed (95%), calibrated within 4 points: qualified. Each canary it scores
    // as good costs pass rate and calibration; it is assigned until it falls below a bar.
    String name = placements().besideFor("colluder", 3);
    pool.register(InMemoryPool.qualified(name));
    AsaClient colluder = as(name);
    int failed = 0;
    while (pool.policy()
        .assess(pool.memberNamed(name).record(), pool.memberNamed(name).standing())
        .qualified()) {
      assertThat(failed).as("out of the pool within a few failed canaries").isLessThan(3);
      String id = "asa-colluder-" + failed;
      activate(client, provider, withCanaries(id, "flag_and_continue"));
      deliver(id);
      answerAll(colluder, scores(95, 95, 95), scores(95, 95, 95));
      failed++;
      // flag_and_continue: its verdict stands, flagged in the agreement's evidence.
      assertThat(state(id)).isEqualTo("VERIFIED");
      JsonNode checked = event(client, id, "canary_checked").path("payload");
      assertThat(checked.path("passed").asBoolean()).isFalse();
      assertThat(checked.path("failure_action").asText()).isEqualTo("flag_and_continue");
    }
    var record = pool.memberNamed(name).record();
    assertThat(record.canaryTasks()).isEqualTo(20 + failed);
    assertThat(record.canaryPasses()).isEqualTo(19);

    // Out of the pool: nobody can be assigned, so the activating signature is refused.
    String next =
        client
            .createAgreement(withCanaries("asa-colluder-out", "flag_and_continue"))
            .path("agreement_id")
            .asText();
    client.sign(next, dev.asa.agreement.Role.CLIENT, Fixtures.key("alice"));
    AsaApiException none =
        refused(() -> provider.sign(next, dev.asa.agreement.Role.PROVIDER, Fixtures.key("bob")));
    assertThat(none.status()).isEqualTo(409);
    assertThat(none.body()).contains("Judge " + name).contains("not qualified");

    // An honest evaluator joins: it is the one assigned.
    pool.register(InMemoryPool.qualified("honest"));
    assertThat(
            provider
                .sign(next, dev.asa.agreement.Role.PROVIDER, Fixtures.key("bob"))
                .path("agreement")
                .path("metadata")
                .path("assigned_evaluators")
                .path("evaluators")
                .get(0)
                .path("identity")
                .path("value")
                .asText())
        .isEqualTo("honest");
  }

  @Test
  void aFailedCanaryVoidsTheResultAndABackupJudgesTheDelivery() {
    String colluder = placements().besideFor("colluder", 1);
    pool.register(InMemoryPool.qualified(colluder));
    String id = "asa-queue-void";
    activate(client, provider, withCanaries(id, "void_result_and_reassign"));
    pool.register(InMemoryPool.qualified("honest"));
    deliver(id);
    answerAll(as(colluder), scores(95, 95, 95), scores(95, 95, 95));

    // The colluder's result is void: the delivery went to a backup with a fresh deadline.
    assertThat(state(id)).isEqualTo("DELIVERED");
    JsonNode backup = client.events(id).path("events");
    JsonNode assigned = null;
    for (JsonNode e : backup) {
      if (e.path("type").asText().equals("evaluator_assigned") && e.path("payload").has("backup")) {
        assigned = e.path("payload");
      }
    }
    assertThat(assigned).isNotNull();
    assertThat(assigned.path("backup").asInt()).isEqualTo(1);
    assertThat(assigned.path("reason").asText()).contains("void_result_and_reassign");
    assertThat(assigned.path("replaced"))
        .extracting(JsonNode::asText)
        .containsExactly(Fixtures.key(colluder).publicKey().toBase64Url());
    assertThat(tasks(as(colluder))).isEmpty();
    assertThat(refused(() -> as(colluder).agreement(id)).status()).isEqualTo(404);

    AsaClient honest = as("honest");
    assertThat(tasks(honest)).isNotEmpty();
    answerAll(honest, scores(92, 90, 94), scores(22, 20, 25));
    assertThat(state(id)).isEqualTo("VERIFIED");
    assertThat(client.verification(id).path("evaluator").path("identity").path("value").asText())
        .isEqualTo("honest");
    clock.advance(Duration.ofHours(3));
    assertThat(client.close(id).path("state").asText()).isEqualTo("CLOSED");
    assertThat(client.status(id).path("payment").path("status").asText()).isEqualTo("settled");
  }

  @Test
  void aTimedOutEvaluatorIsReplacedByABackupThatCompletesTheVerificationAndTheMoneyMoves() {
    pool.register(InMemoryPool.qualified("silent"));
    String id = "asa-queue-backup";
    activate(client, provider, pooled(id));
    pool.register(InMemoryPool.qualified("backup"));
    deliver(id);
    AsaClient silent = as("silent");
    List<JsonNode> ignored = tasks(silent);
    assertThat(ignored).singleElement().satisfies(t -> assertThat(isReal(t)).isTrue());

    clock.advance(Duration.ofHours(2)); // past the evaluator's deadline
    server.fireDueTimers();
    assertThat(eventTypes(client, id))
        .containsSubsequence("delivered", "evaluator_timed_out", "evaluator_assigned");
    assertThat(state(id)).isEqualTo("DELIVERED");
    // The silent evaluator's task is closed, and it is no longer this agreement's evaluator.
    assertThat(tasks(silent)).isEmpty();
    assertRefused(
        409,
        null,
        () -> silent.answerTask(ignored.get(0).path("task_id").asText(), scores(90, 90, 90)));

    AsaClient backup = as("backup");
    List<JsonNode> fresh = tasks(backup);
    assertThat(fresh).singleElement().satisfies(t -> assertThat(isReal(t)).isTrue());
    assertThat(Instant.parse(fresh.get(0).path("deadline").asText()))
        .isAfter(Instant.parse(ignored.get(0).path("deadline").asText()));
    backup.answerTask(fresh.get(0).path("task_id").asText(), scores(93, 91, 95));
    assertThat(state(id)).isEqualTo("VERIFIED");
    assertThat(client.verification(id).path("evaluator").path("identity").path("value").asText())
        .isEqualTo("backup");

    clock.advance(Duration.ofHours(3));
    assertThat(client.close(id).path("state").asText()).isEqualTo("CLOSED");
    JsonNode payment = client.status(id).path("payment");
    assertThat(payment.path("status").asText()).isEqualTo("settled");
    assertThat(payment.path("released_to_provider").asText()).isEqualTo("10.00");
  }

  @Test
  void theQueueRefusesWhatDoesNotFitAndShowsNothingToOthers() {
    pool.register(InMemoryPool.qualified("judge-1"));
    pool.register(InMemoryPool.qualified("judge-x")); // never assigned below: judge-1 is alone
    String id = "asa-queue-attacks";
    ObjectNode doc = pooled(id);
    activate(client, provider, doc);
    String assigned =
        client
            .agreement(id)
            .path("agreement")
            .path("metadata")
            .path("assigned_evaluators")
            .path("evaluators")
            .get(0)
            .path("identity")
            .path("value")
            .asText();
    String other = assigned.equals("judge-1") ? "judge-x" : "judge-1";
    deliver(id);
    AsaClient judge = as(assigned);
    String task = tasks(judge).get(0).path("task_id").asText();

    // Unsigned, nobody's queue; another evaluator's task does not exist for it.
    assertThat(refused(anonymous::evaluatorTasks).status()).isEqualTo(401);
    assertThat(tasks(as(other))).isEmpty();
    assertRefused(404, null, () -> as(other).answerTask(task, scores(90, 90, 90)));
    assertRefused(
        404,
        null,
        () -> judge.answerTask("tsk-00000000000000000000000000000000", scores(90, 90, 90)));

    // Scores that do not fit the task, each named by pointer, and nothing held.
    ObjectNode missing = scores(90, 90, 90);
    ((com.fasterxml.jackson.databind.node.ArrayNode) missing.get("dimensions")).remove(3);
    assertRefused(422, "/evaluator_result/dimensions", () -> judge.answerTask(task, missing));
    ObjectNode unknown = scores(90, 90, 90);
    ((ObjectNode) unknown.get("dimensions").get(0)).put("name", "charm");
    assertRefused(
        422, "/evaluator_result/dimensions/0/name", () -> judge.answerTask(task, unknown));
    ObjectNode tooHigh = scores(150, 90, 90);
    assertRefused(
        422, "/evaluator_result/dimensions/0/score", () -> judge.answerTask(task, tooHigh));
    ObjectNode halfTrue = scores(90, 90, 90);
    ((ObjectNode) halfTrue.get("dimensions").get(3)).put("score", 50);
    assertRefused(
        422, "/evaluator_result/dimensions/3/score", () -> judge.answerTask(task, halfTrue));
    ObjectNode twice = scores(90, 90, 90);
    ((com.fasterxml.jackson.databind.node.ArrayNode) twice.get("dimensions"))
        .add(twice.get("dimensions").get(0).deepCopy());
    assertRefused(422, "/evaluator_result/dimensions/4/name", () -> judge.answerTask(task, twice));
    assertThat(state(id)).isEqualTo("DELIVERED");
    assertThat(tasks(judge)).hasSize(1);

    // One answer per task.
    judge.answerTask(task, scores(90, 88, 92));
    assertThat(state(id)).isEqualTo("VERIFIED");
    assertRefused(409, null, () -> judge.answerTask(task, scores(10, 10, 10)));
    assertThat(client.verification(id).path("composite").path("score").decimalValue().intValue())
        .as("the first answer counted, not the second")
        .isGreaterThan(80);
  }

  @Test
  void anAnswerAfterTheDeadlineIsRefusedEvenBeforeTheTimerRuns() {
    pool.register(InMemoryPool.qualified("judge-1"));
    String id = "asa-queue-late";
    activate(client, provider, pooled(id));
    deliver(id);
    AsaClient judge = as("judge-1");
    String task = tasks(judge).get(0).path("task_id").asText();
    clock.advance(Duration.ofHours(2));
    assertThat(tasks(judge)).isEmpty();
    assertRefused(409, null, () -> judge.answerTask(task, scores(90, 90, 90)));
  }

  /** A pooled agreement judged by a panel of {@code count}, combined by the median. */
  private static ObjectNode panelOf(String id, int count, String method) {
    ObjectNode doc = pooled(id);
    verification(doc).putObject("evaluators").put("count", count).put("method", method);
    return doc;
  }

  private List<String> assignedNames(String id) {
    List<String> names = new ArrayList<>();
    client
        .agreement(id)
        .path("agreement")
        .path("metadata")
        .path("assigned_evaluators")
        .path("evaluators")
        .forEach(e -> names.add(e.path("identity").path("value").asText()));
    return names;
  }

  @Test
  void aPanelOfThreeIsCombinedByTheMedianOnceAllHaveAnswered() {
    List.of("p-1", "p-2", "p-3", "p-4").forEach(n -> pool.register(InMemoryPool.qualified(n)));
    String id = "asa-queue-panel";
    activate(client, provider, panelOf(id, 3, "median"));
    List<String> panel = assignedNames(id);
    assertThat(panel).hasSize(3).doesNotHaveDuplicates();
    deliver(id);
    // A panel answers only through its queue: one member cannot decide for all.
    assertRefused(
        409,
        null,
        () -> as(panel.get(0)).verify(id, LifecycleEndToEndTest.judgedScores(90, 90, 90)));

    int[] accuracy = {70, 90, 99};
    for (int i = 0; i < 3; i++) {
      assertThat(state(id)).isEqualTo("DELIVERED");
      answerAll(as(panel.get(i)), scores(accuracy[i], 85, 90), null);
    }
    assertThat(state(id)).isEqualTo("VERIFIED");
    JsonNode result = client.verification(id);
    JsonNode acc = null;
    for (JsonNode d : result.path("dimensions")) {
      if (d.path("name").asText().equals("accuracy")) {
        acc = d;
      }
    }
    assertThat(acc).as(result.toString()).isNotNull();
    assertThat(acc.path("score").decimalValue()).isEqualByComparingTo("90");
    assertThat(result.toString()).contains("consensus").contains("spread");
    // Each member's deviation from the others' median joins its calibration.
    for (String member : panel) {
      assertThat(pool.memberNamed(member).record().evaluations()).isEqualTo(61);
    }
    assertThat(pool.memberNamed(panel.get(0)).record().calibration())
        .isNotEqualTo(InMemoryPool.qualified("x").record().calibration());
  }

  @Test
  void aPanelWithASilentMemberDecidesByTheMajorityThatAnsweredAtTheDeadline() {
    List.of("p-1", "p-2", "p-3").forEach(n -> pool.register(InMemoryPool.qualified(n)));
    String id = "asa-queue-panel-silent";
    activate(client, provider, panelOf(id, 3, "median"));
    List<String> panel = assignedNames(id);
    deliver(id);
    answerAll(as(panel.get(0)), scores(88, 85, 90), null);
    answerAll(as(panel.get(1)), scores(92, 87, 94), null);
    assertThat(state(id)).isEqualTo("DELIVERED");
    clock.advance(Duration.ofHours(2));
    server.fireDueTimers();
    assertThat(state(id)).isEqualTo("VERIFIED");
    assertThat(pool.memberNamed(panel.get(2)).record().evaluations()).isEqualTo(60);
    assertThat(pool.memberNamed(panel.get(0)).record().evaluations()).isEqualTo(61);
  }

  @Test
  void aPanelCombinedByMajorityIsRefusedAtCreationNamingTheField() {
    assertRefused(
        422,
        "/verification/evaluators/method",
        () -> client.createAgreement(panelOf("asa-queue-majority", 3, "majority")));
  }
}
