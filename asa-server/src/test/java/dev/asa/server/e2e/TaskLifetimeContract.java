package dev.asa.server.e2e;

import static dev.asa.server.e2e.PoolAgreements.activate;
import static dev.asa.server.e2e.PoolAgreements.pooled;
import static dev.asa.server.e2e.PoolAgreements.verification;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.asa.agreement.Role;
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
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A task ends with its agreement, or with its delivery (issue 52, item 6), the same on every store.
 * Once whatever it judges has moved on (the server's own evaluator decided first and the agreement
 * closed, the provider re-delivered, a panel missed its quorum) the evaluator's task is no longer
 * listed, what it showed and the answer it held are erased from the store, and a late answer is
 * refused with 409 saying why, never "received" and silently dropped.
 */
abstract class TaskLifetimeContract {
  static final String DELIVERED =
      "# Federated learning\n\nDifferential privacy bounds leakage; secure aggregation hides"
          + " updates.\n";

  final MutableClock clock = new MutableClock(Instant.parse("2026-12-01T10:00:00Z"));
  final InMemoryPool pool = new InMemoryPool(QualificationPolicy.DEFAULTS);
  AsaServer server;
  AsaClient anonymous;
  AsaClient client;
  AsaClient provider;

  /** The server configuration with this suite's store. */
  abstract ServerConfig withStore(ServerConfig config);

  /** A connection to the store the server writes, to see what it keeps. */
  abstract Connection database() throws Exception;

  @BeforeEach
  void start() {
    server =
        AsaServer.start(
            withStore(
                ServerConfig.defaults()
                    .withPort(0)
                    .withClock(clock)
                    .withOperatorKey(Fixtures.key("operator").publicKey())
                    .withRateLimit(10_000, 10_000)
                    .withTimerPolling(false)
                    .withAssignment(AssignmentConfig.DEFAULTS.withPool(pool))));
    anonymous = AsaClient.connect(URI.create(server.url("127.0.0.1")));
    client = as("alice");
    provider = as("bob");
  }

  @AfterEach
  void stop() {
    if (server != null) {
      server.close();
      server = null;
    }
  }

  AsaClient as(String name) {
    return anonymous.withKey(Fixtures.key(name), clock);
  }

  static List<JsonNode> tasks(AsaClient evaluator) {
    List<JsonNode> out = new ArrayList<>();
    evaluator.evaluatorTasks().path("tasks").forEach(out::add);
    return out;
  }

  static ObjectNode scores(int accuracy, int completeness, int relevance) {
    return EvaluatorWorkQueueEndToEndTest.scores(accuracy, completeness, relevance);
  }

  String state(String id) {
    return client.agreement(id).path("state").asText();
  }

  /** What the store still holds of a task: its status, and whether content or answer remain. */
  record Kept(String status, boolean content, boolean answer) {}

  Kept kept(String taskId) throws Exception {
    try (Connection c = database();
        PreparedStatement s =
            c.prepareStatement(
                "SELECT status, content IS NOT NULL AS c, answer IS NOT NULL AS a"
                    + " FROM evaluator_tasks WHERE id = ?")) {
      s.setString(1, taskId);
      try (ResultSet r = s.executeQuery()) {
        assertThat(r.next()).as("task %s is stored", taskId).isTrue();
        return new Kept(r.getString("status"), r.getBoolean("c"), r.getBoolean("a"));
      }
    }
  }

  /** How many tasks of the agreement still hold content or an answer. */
  int holdingContent(String agreementId) throws Exception {
    try (Connection c = database();
        PreparedStatement s =
            c.prepareStatement(
                "SELECT count(*) FROM evaluator_tasks WHERE agreement_id = ?"
                    + " AND (content IS NOT NULL OR answer IS NOT NULL)")) {
      s.setString(1, agreementId);
      try (ResultSet r = s.executeQuery()) {
        r.next();
        return r.getInt(1);
      }
    }
  }

  /** The tasks of the agreement, each as "status content answer" (content and answer: held?). */
  List<String> taskRecords(String agreementId) throws Exception {
    try (Connection c = database();
        PreparedStatement s =
            c.prepareStatement(
                "SELECT status, content IS NOT NULL AS c, answer IS NOT NULL AS a"
                    + " FROM evaluator_tasks WHERE agreement_id = ? ORDER BY id")) {
      s.setString(1, agreementId);
      List<String> out = new ArrayList<>();
      try (ResultSet r = s.executeQuery()) {
        while (r.next()) {
          out.add(
              r.getString("status")
                  + (r.getBoolean("c") ? " content" : "")
                  + (r.getBoolean("a") ? " answer" : ""));
        }
      }
      return out;
    }
  }

  static AsaApiException refused(Runnable call) {
    try {
      call.run();
    } catch (AsaApiException e) {
      return e;
    }
    throw new AssertionError("the call was not refused");
  }

  /**
   * The general template naming eval-1 (with its key), signed by both and funded, judged on what
   * the server's structural evaluator can also score (format compliance and timeliness).
   */
  String namedAndFunded() {
    ObjectNode doc = Fixtures.general();
    ObjectNode criteria = doc.putObject("quality_criteria");
    var dimensions = criteria.putArray("dimensions");
    ObjectNode format = dimensions.addObject();
    format.put("name", "format_compliance").put("weight", 0.5).put("metric", "percentage");
    format.putObject("slo").put("operator", "gte").put("value", 50);
    ObjectNode timeliness = dimensions.addObject();
    timeliness.put("name", "timeliness").put("weight", 0.5).put("metric", "boolean");
    timeliness.putObject("slo").put("operator", "eq").put("value", true);
    criteria.put("composite_threshold", 50);
    criteria.putArray("quality_gates");
    String id = client.createAgreement(doc).path("agreement_id").asText();
    client.sign(id, Role.CLIENT, Fixtures.key("alice"));
    provider.sign(id, Role.PROVIDER, Fixtures.key("bob"));
    client.fund(id);
    return id;
  }

  @Test
  void theTaskEndsWhenTheServersEvaluatorDecidesFirstAndStaysEndedOnceTheAgreementCloses()
      throws Exception {
    String id = namedAndFunded();
    provider.deliver(id, DELIVERED, "markdown");
    AsaClient judge = as("eval-1");
    List<JsonNode> given = tasks(judge);
    assertThat(given).hasSize(1);
    String task = given.get(0).path("task_id").asText();

    // The named evaluator lets its deadline pass; with no pool evaluator to take over, the
    // server's own evaluator decides (the only way it judges an agreement that names another).
    clock.advance(Duration.ofHours(2));
    server.fireDueTimers();
    assertThat(state(id)).isEqualTo("VERIFIED");
    assertThat(tasks(judge)).as("the delivery is judged: nothing is left to list").isEmpty();
    Kept ended = kept(task);
    assertThat(ended.content()).isFalse();
    assertThat(ended.answer()).isFalse();

    clock.advance(Duration.ofHours(3)); // past the challenge window
    server.fireDueTimers();
    assertThat(state(id)).isEqualTo("CLOSED");
    assertThat(tasks(judge)).isEmpty();
    ObjectNode answer = Json.object();
    var dimensions = answer.putArray("dimensions");
    dimensions.addObject().put("name", "format_compliance").put("score", 90).put("evidence", "ok");
    dimensions.addObject().put("name", "timeliness").put("score", true).put("evidence", "on time");
    AsaApiException late = refused(() -> judge.answerTask(task, answer));
    assertThat(late.status()).as(late.body()).isEqualTo(409);
    assertThat(holdingContent(id)).isZero();
  }

  @Test
  void aTaskLeftOpenByAnOlderServerIsWithdrawnWhenMetNotShown() throws Exception {
    String id = client.createAgreement(Fixtures.general()).path("agreement_id").asText();
    client.sign(id, Role.CLIENT, Fixtures.key("alice"));
    provider.sign(id, Role.PROVIDER, Fixtures.key("bob"));
    client.fund(id);
    provider.deliver(id, DELIVERED, "markdown");
    AsaClient judge = as("eval-1");
    String task = tasks(judge).get(0).path("task_id").asText();
    // The evaluator gives its verdict on the agreement's own route, within the task's deadline.
    judge.verify(id, LifecycleEndToEndTest.judgedScores(90, 90, 90));
    assertThat(state(id)).isEqualTo("VERIFIED");
    // What a server without this rule left behind: the task still open after the agreement moved
    // on.
    try (Connection c = database();
        PreparedStatement s =
            c.prepareStatement(
                "UPDATE evaluator_tasks SET status = 'open', outcome = NULL, ended_at = NULL"
                    + " WHERE id = ?")) {
      s.setString(1, task);
      assertThat(s.executeUpdate()).isEqualTo(1);
    }

    assertThat(tasks(judge)).isEmpty();
    assertThat(kept(task).status()).as("withdrawn by the listing").isEqualTo("withdrawn");
    AsaApiException late = refused(() -> judge.answerTask(task, scores(90, 90, 90)));
    assertThat(late.status()).as(late.body()).isEqualTo(409);
    assertThat(late.detail()).contains("withdrawn").contains("VERIFIED");
  }

  @Test
  void aReDeliveryEndsTheTasksOfTheDeliveryItReplaces() throws Exception {
    String id = client.createAgreement(Fixtures.general()).path("agreement_id").asText();
    // One sealed criterion the first delivery misses, so the server's check opens a hardening
    // cycle and the provider may deliver again.
    ObjectNode seal = Json.object();
    seal.putArray("criteria")
        .addObject()
        .put("id", "sc-1")
        .put("category", "happy_path")
        .put("assertion", "Names the secret topic")
        .put("expected", "the token")
        .put("message", "Missing the required topic")
        .putObject("check")
        .put("type", "contains")
        .put("value", "zq-secret-token-x");
    client.seal(id, seal);
    client.sign(id, Role.CLIENT, Fixtures.key("alice"));
    provider.sign(id, Role.PROVIDER, Fixtures.key("bob"));
    client.fund(id);
    provider.deliver(id, DELIVERED, "markdown");
    AsaClient judge = as("eval-1");
    String first = tasks(judge).get(0).path("task_id").asText();
    // The evaluator's verdict, given on the agreement's route, misses the sealed criterion: a
    // hardening cycle opens, the delivery stays DELIVERED and the queued task with it, until the
    // provider re-delivers.
    assertThat(
            judge.verify(id, LifecycleEndToEndTest.judgedScores(90, 90, 90)).path("state").asText())
        .isEqualTo("DELIVERED");

    provider.deliver(id, DELIVERED + "\nzq-secret-token-x\n", "markdown");
    List<JsonNode> now = tasks(judge);
    assertThat(now)
        .as("only the task of the delivery in force is listed")
        .singleElement()
        .satisfies(t -> assertThat(t.path("task_id").asText()).isNotEqualTo(first))
        .satisfies(t ->
            assertThat(t.path("deliverable").path("content").asText())
                .contains("zq-secret-token-x"));
    Kept replaced = kept(first);
    assertThat(replaced.content()).isFalse();
    assertThat(replaced.answer()).isFalse();
    AsaApiException late = refused(() -> judge.answerTask(first, scores(90, 90, 90)));
    assertThat(late.status()).as(late.body()).isEqualTo(409);

    // The task of the delivery in force still works.
    judge.answerTask(now.get(0).path("task_id").asText(), scores(92, 90, 94));
    assertThat(state(id)).isEqualTo("VERIFIED");
    assertThat(holdingContent(id)).isZero();
  }

  /**
   * A panel of three pool evaluators (the whole pool, so no backup is left) judging a delivery; the
   * first member answers, the other two stay silent past the deadline.
   *
   * @return the answered task's id
   */
  String panelWithOneAnswer(String id, String timeoutAction) throws Exception {
    List.of("p-1", "p-2", "p-3").forEach(n -> pool.register(InMemoryPool.qualified(n)));
    ObjectNode doc = pooled(id);
    verification(doc).putObject("evaluators").put("count", 3).put("method", "median");
    doc.withObject("/escrow/dead_mans_switch").put("timeout_action", timeoutAction);
    activate(client, provider, doc);
    client.fund(id);
    provider.deliver(id, DELIVERED, "markdown");
    List<String> panel = new ArrayList<>();
    client
        .agreement(id)
        .at("/agreement/metadata/assigned_evaluators/evaluators")
        .forEach(e -> panel.add(e.at("/identity/value").asText()));
    AsaClient answering = as(panel.get(0));
    String answered = tasks(answering).get(0).path("task_id").asText();
    answering.answerTask(answered, scores(88, 85, 90));
    assertThat(kept(answered).answer()).isTrue();
    clock.advance(Duration.ofHours(2)); // past the deadline: one of three answered
    server.fireDueTimers();
    return answered;
  }

  @Test
  void aPanelThatMissesItsQuorumKeepsNoAnswerOfTheMinorityThroughToTheRuling() throws Exception {
    String id = "asa-task-life-panel";
    String answered = panelWithOneAnswer(id, "hold_for_backup_evaluator");
    // No pool backup is left and the server's own evaluator cannot score accuracy: a ruling.
    assertThat(state(id)).isEqualTo("DISPUTED");
    Kept minority = kept(answered);
    assertThat(minority.status()).isEqualTo("voided");
    assertThat(minority.content()).as("what the task showed").isFalse();
    assertThat(minority.answer()).as("the answer it held").isFalse();
    assertThat(holdingContent(id)).isZero();

    as("operator").rule(id, new java.math.BigDecimal("40"), "partly done");
    assertThat(state(id)).isEqualTo("CLOSED");
    assertThat(holdingContent(id)).isZero();
    for (String member : List.of("p-1", "p-2", "p-3")) {
      assertThat(tasks(as(member))).as(member).isEmpty();
    }
  }

  @Test
  void aPanelThatMissesItsQuorumAndExpiresKeepsNoTask() throws Exception {
    String id = "asa-task-life-expired";
    String answered = panelWithOneAnswer(id, "split_50_50");
    assertThat(state(id)).isEqualTo("EXPIRED");
    assertThat(kept(answered)).isEqualTo(new Kept("voided", false, false));
    assertThat(holdingContent(id)).isZero();
    for (String member : List.of("p-1", "p-2", "p-3")) {
      assertThat(tasks(as(member))).as(member).isEmpty();
    }
  }

  /**
   * Issue 60, item 5: a panel that times out with a minority answered ends every one of its tasks,
   * the answered one and the silent ones, and keeps neither content nor answer, whatever the
   * timeout action and whatever ends the agreement (a fixed split, or a ruling).
   */
  @ParameterizedTest
  @ValueSource(
      strings = {
        "hold_for_backup_evaluator",
        "split_50_50",
        "return_to_client",
        "release_to_provider"
      })
  void aPanelThatTimesOutWithAMinorityAnsweredEndsEveryTaskWithItsContent(String action)
      throws Exception {
    String id = "asa-task-life-minority-" + action.replace('_', '-');
    panelWithOneAnswer(id, action);
    if (state(id).equals("DISPUTED")) {
      as("operator").rule(id, new java.math.BigDecimal("40"), "partly done");
    }
    assertThat(state(id)).isIn("CLOSED", "EXPIRED");
    List<String> records = taskRecords(id);
    assertThat(records).as("one task per panel member").hasSize(3);
    assertThat(records)
        .as("every task ended, holding neither content nor answer")
        .allSatisfy(r -> assertThat(r).isIn("settled", "voided", "withdrawn", "expired"));
    for (String member : List.of("p-1", "p-2", "p-3")) {
      assertThat(tasks(as(member))).as(member).isEmpty();
    }
  }
}
