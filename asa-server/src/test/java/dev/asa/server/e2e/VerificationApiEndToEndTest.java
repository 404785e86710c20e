package dev.asa.server.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.asa.agreement.Role;
import dev.asa.client.AsaApiException;
import dev.asa.client.AsaClient;
import dev.asa.evaluators.Evaluation;
import dev.asa.evaluators.EvaluationTask;
import dev.asa.evaluators.Evaluator;
import dev.asa.evaluators.ScriptedEvaluator;
import dev.asa.json.Json;
import dev.asa.scoring.VerificationResult;
import dev.asa.server.AsaServer;
import dev.asa.server.config.ServerConfig;
import dev.asa.server.store.Store;
import dev.asa.server.store.Stores;
import dev.asa.server.store.verification.JobRow;
import dev.asa.server.verification.engine.VerificationConfig;
import dev.asa.testing.Fixtures;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.function.Supplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The Verification API through HTTP: standalone (structural at once, semantic as a 202 job),
 * consensus, replays, agreement-bound verification by the server's engine, a deliverable swap
 * refused, the evaluator timeout honoured, and the content gone from the store once verified.
 */
class VerificationApiEndToEndTest {
  @TempDir Path dataDir;
  private AsaServer server;
  private AsaClient client;
  private AsaClient provider;
  private AsaClient stranger;

  /**
   * Judges accuracy, completeness and relevance; the scores fall with the word "wrong" in the work.
   */
  static final class WordJudge implements Evaluator {
    private final String id;
    private final int offset;

    WordJudge(String id, int offset) {
      this.id = id;
      this.offset = offset;
    }

    @Override
    public String id() {
      return id;
    }

    @Override
    public String type() {
      return "agent_as_judge";
    }

    @Override
    public Evaluation evaluate(EvaluationTask task) {
      boolean wrong = task.deliverable().content().contains("wrong");
      double base = (wrong ? 40 : 90) + offset;
      task.progress().update("judging", 1, 2);
      return ScriptedEvaluator.scoring(
              id,
              0.9,
              Map.of(
                  "accuracy", base, "completeness", base - 5, "relevance", base, "clarity", base))
          .evaluateUnchecked(task);
    }
  }

  /** Takes longer than any test's timeout. */
  static final class SlowEvaluator implements Evaluator {
    @Override
    public String id() {
      return "slow/sleeper";
    }

    @Override
    public String type() {
      return "agent_as_judge";
    }

    @Override
    public Evaluation evaluate(EvaluationTask task) throws dev.asa.evaluators.EvaluationException {
      try {
        Thread.sleep(30_000);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
      throw new dev.asa.evaluators.EvaluationException(
          dev.asa.evaluators.EvaluationException.Reason.UNAVAILABLE, "interrupted");
    }
  }

  @BeforeEach
  void start() {
    List<Supplier<Evaluator>> judges = new ArrayList<>();
    server =
        AsaServer.start(
            ServerConfig.defaults()
                .withPort(0)
                .withDataDir(dataDir)
                .withVerification(
                    new VerificationConfig(
                        Map.of(
                            "agent_as_judge", () -> new WordJudge("fake/judge-a", 0),
                            "second_judge", () -> new WordJudge("fake/judge-b", 6),
                            "slow", SlowEvaluator::new),
                        "agent_as_judge",
                        2,
                        Map.of())));
    AsaClient anonymous = AsaClient.connect(URI.create(server.url("127.0.0.1")));
    client = anonymous.withKey(Fixtures.key("alice"));
    provider = anonymous.withKey(Fixtures.key("bob"));
    stranger = anonymous.withKey(Fixtures.key("mallory"));
  }

  @AfterEach
  void stop() {
    server.close();
  }

  private static ObjectNode standalone(String content, String depth) {
    ObjectNode r = Json.object();
    r.putObject("deliverable")
        .put("content", content)
        .put("format", "markdown")
        .put("type", "general");
    r.putObject("original_request")
        .put("description", "Summarise the findings on battery recycling");
    r.putObject("verification_config").put("depth", depth);
    return r;
  }

  @Test
  void structuralStandaloneAnswersAtOnceAndAReplayReturnsTheSameResult() {
    ObjectNode result =
        client.requestVerification(
            standalone("# Findings\n\nRecycling recovers lithium.\n", "structural"));
    assertThat(result.path("verification_id").asText()).startsWith("ver-");
    assertThat(result.has("agreement_id")).isFalse();
    assertThat(result.path("dimensions").findValuesAsText("name"))
        .containsExactly("format_compliance");
    assertThat(result.path("determination").path("result").asText()).isEqualTo("PASS");
    assertThat(VerificationResult.evaluationHashMatches(result)).isTrue();
    assertThat(result.path("evidence_trail").path("deliverable_hash").asText())
        .startsWith("sha256:");

    ObjectNode replay =
        client.requestVerification(
            standalone("# Findings\n\nRecycling recovers lithium.\n", "structural"));
    assertThat(replay.path("verification_id").asText())
        .isEqualTo(result.path("verification_id").asText());
    assertThat(client.verificationResult(result.path("verification_id").asText()))
        .isEqualTo(result);
    assertThatThrownBy(() -> stranger.verificationResult(result.path("verification_id").asText()))
        .isInstanceOfSatisfying(AsaApiException.class, e -> assertThat(e.status()).isEqualTo(404));
  }

  @Test
  void theSameStructuralRequestSentConcurrentlyGetsOneResultNeverA500() throws Exception {
    // The benchmark's 16 threads sending one body found this: the losers of the race to the job's
    // key got a 500 where the asynchronous depths already answered with the winner's job.
    ObjectNode request = standalone("# Findings\n\nRecycling recovers cobalt.\n", "structural");
    ExecutorService pool = Executors.newFixedThreadPool(8);
    try {
      List<Future<ObjectNode>> answers = new ArrayList<>();
      for (int round = 0; round < 5; round++) {
        ((ObjectNode) request.get("original_request"))
            .put("description", "Summarise, round " + round);
        ObjectNode body = request.deepCopy();
        for (int i = 0; i < 8; i++) {
          answers.add(pool.submit(() -> client.requestVerification(body)));
        }
      }
      Map<String, Long> perRound = new java.util.HashMap<>();
      for (Future<ObjectNode> a : answers) {
        perRound.merge(a.get().path("verification_id").asText(), 1L, Long::sum);
      }
      assertThat(perRound).hasSize(5).allSatisfy((id, n) -> assertThat(n).isEqualTo(8));
    } finally {
      pool.shutdownNow();
    }
  }

  @Test
  void jsonThatDoesNotParseFailsEvenWhenTheCriteriaScoreOnlyTimeliness() {
    // The format check always runs and always counts: criteria without format_compliance cannot
    // turn a broken JSON deliverable into a PASS.
    ObjectNode request = standalone("{\"findings\": [\"lithium\", ", "structural");
    ((ObjectNode) request.get("deliverable")).put("format", "json");
    ObjectNode criteria = request.putObject("quality_criteria");
    criteria
        .putArray("dimensions")
        .addObject()
        .put("name", "timeliness")
        .put("weight", 1)
        .put("metric", "boolean")
        .putObject("slo")
        .put("operator", "eq")
        .put("value", true);
    criteria.put("composite_method", "weighted_average").put("composite_threshold", 70);
    ObjectNode result = client.requestVerification(request);
    assertThat(result.path("dimensions").findValuesAsText("name")).containsExactly("timeliness");
    assertThat(result.path("determination").path("result").asText()).isEqualTo("FAIL");
    assertThat(result.path("determination").path("notes").asText())
        .startsWith("The deliverable is not what its declared format says (format_valid");
  }

  @Test
  void semanticStandaloneRunsAsAJobWithConsensusAndKeepsNoContent() throws Exception {
    ObjectNode request =
        standalone("# Findings\n\nRecycling recovers lithium and cobalt.\n", "semantic");
    request
        .with("verification_config")
        .putArray("evaluators")
        .add("agent_as_judge")
        .add("second_judge")
        .add("agent_as_judge");
    ObjectNode accepted = client.requestVerification(request);
    assertThat(accepted.path("status").asText()).isIn("queued", "running");
    String id = accepted.path("verification_id").asText();
    assertThat(accepted.path("result_url").asText()).isEqualTo("/verifications/" + id);

    JsonNode result = client.awaitVerification(id, Duration.ofSeconds(20), progress -> {});
    assertThat(result.path("verification_id").asText()).isEqualTo(id);
    JsonNode accuracy = result.path("dimensions").get(0);
    assertThat(accuracy.path("name").asText()).isEqualTo("accuracy");
    assertThat(accuracy.path("score").decimalValue())
        .isEqualByComparingTo("90"); // median of 90, 96, 90
    assertThat(accuracy.path("evidence").asText()).startsWith("median of 3 evaluators");
    assertThat(
            result
                .path("verification")
                .path("consensus")
                .path("dimensions")
                .path("accuracy")
                .path("spread")
                .decimalValue())
        .isEqualByComparingTo("6");
    assertThat(result.path("determination").path("confidence").decimalValue())
        .isEqualByComparingTo(
            "0.869"); // judged 0.94 x 0.9 = 0.846 at weight 0.85, timeliness measured 1 at 0.15
    assertThat(result.path("evaluator").path("type").asText()).isEqualTo("agent_as_judge");
    assertThat(VerificationResult.evaluationHashMatches(result)).isTrue();
    assertThat(client.verificationStatus(id).path("status").asText()).isEqualTo("completed");

    server.close();
    try (Store store = Stores.open(null, dataDir)) {
      JobRow job = store.jobs().find(id).orElseThrow();
      assertThat(job.content()).as("content erased once verified").isNull();
      assertThat(job.request()).doesNotContain("cobalt");
      assertThat(store.verifications().find(id).orElseThrow().result()).doesNotContain("cobalt");
    }
    server = AsaServer.start(ServerConfig.defaults().withPort(0).withDataDir(dataDir));
  }

  @Test
  void theEvaluatorTimeoutStopsASlowJobAndSaysSo() {
    ObjectNode request = standalone("# Findings\n", "semantic");
    request
        .with("verification_config")
        .put("evaluator_type", "slow")
        .put("evaluator_timeout_seconds", 1);
    String id = client.requestVerification(request).path("verification_id").asText();
    assertThatThrownBy(() -> client.awaitVerification(id, Duration.ofSeconds(20), progress -> {}))
        .isInstanceOfSatisfying(
            AsaApiException.class,
            e -> {
              assertThat(e.status()).isEqualTo(422);
              assertThat(e.detail())
                  .contains("evaluator_timeout_seconds (1 s)")
                  .contains("send the request again");
            });
    assertThat(client.verificationStatus(id).path("status").asText()).isEqualTo("failed");
  }

  @Test
  void badRequestsNameTheirField() {
    ObjectNode unknown = standalone("# x\n", "semantic");
    unknown.with("verification_config").put("evaluator_type", "oracle");
    assertProblem(
        () -> client.requestVerification(unknown), 422, "/verification_config/evaluator_type");
    ObjectNode noRequest = standalone("# x\n", "semantic");
    noRequest.remove("original_request");
    assertProblem(() -> client.requestVerification(noRequest), 422, "/original_request");
    ObjectNode badType = standalone("# x\n", "semantic");
    badType.with("deliverable").put("type", "poetry");
    assertProblem(() -> client.requestVerification(badType), 422, "/deliverable/type");
    ObjectNode badDepth = standalone("# x\n", "deep");
    assertProblem(() -> client.requestVerification(badDepth), 422, "/verification_config/depth");
    ObjectNode badHash = standalone("# x\n", "semantic");
    badHash.with("deliverable").put("content_hash", "sha256:" + "0".repeat(64));
    assertProblem(() -> client.requestVerification(badHash), 422, "/deliverable/content_hash");
  }

  @Test
  void agreementVerificationBySemanticDepthRunsInTheBackgroundAndReplaysFindTheJob()
      throws Exception {
    String id = active();
    provider.deliver(id, "# Findings\n\nRecycling recovers lithium.\n", "markdown");
    ObjectNode config = Json.object().put("depth", "semantic");
    ObjectNode accepted = client.verifyWith(id, config);
    String verificationId = accepted.path("verification_id").asText();
    assertThat(accepted.path("agreement_id").asText()).isEqualTo(id);
    JsonNode replay =
        client.verifyWith(id, config); // the job, or its result if it finished already
    assertThat(
            replay.has("verification")
                ? replay.path("verification").path("verification_id").asText()
                : replay.path("verification_id").asText())
        .as("a replay finds the same job")
        .isEqualTo(verificationId);

    JsonNode result =
        client.awaitVerification(verificationId, Duration.ofSeconds(20), progress -> {});
    assertThat(result.path("agreement_id").asText()).isEqualTo(id);
    assertThat(result.path("evaluator").path("type").asText()).isEqualTo("builtin_agent_as_judge");
    assertThat(result.path("evaluator").path("model").asText()).isEqualTo("fake/judge-a-model");
    assertThat(client.agreement(id).path("agreement").path("status").asText())
        .isEqualToIgnoringCase("VERIFIED");
    assertThat(client.verification(id).path("verification_id").asText()).isEqualTo(verificationId);
    assertThat(client.verifyWith(id, config).path("verification").path("verification_id").asText())
        .as("after completion too")
        .isEqualTo(verificationId);

    server.close();
    try (Store store = Stores.open(null, dataDir)) {
      assertThat(store.deliverables().latest(id).orElseThrow().content()).isNull();
      assertThat(store.jobs().find(verificationId).orElseThrow().status())
          .isEqualTo(JobRow.Status.COMPLETED);
    }
    server = AsaServer.start(ServerConfig.defaults().withPort(0).withDataDir(dataDir));
  }

  @Test
  void anAgreementOfSemanticDepthRunsTheEngineWhereItsTermsNameItElseTheEvaluatorScores() {
    AsaClient evaluator =
        AsaClient.connect(URI.create(server.url("127.0.0.1"))).withKey(Fixtures.key("eval-1"));
    ObjectNode doc = Fixtures.general();
    doc.putObject("verification").put("depth", "semantic");
    String byEngine = active(Fixtures.judgedByBuiltIn(doc.deepCopy()));
    provider.deliver(byEngine, "# Findings\n", "markdown");
    ObjectNode accepted = client.verify(byEngine);
    assertThat(accepted.path("status").asText())
        .as("a job, by the agreement's depth")
        .isIn("queued", "running");
    assertThat(
            client
                .awaitVerification(
                    accepted.path("verification_id").asText(), Duration.ofSeconds(20), p -> {})
                .path("evaluator")
                .path("type")
                .asText())
        .isEqualTo("builtin_agent_as_judge");

    String byEvaluator = active(doc.deepCopy());
    provider.deliver(byEvaluator, "# Findings\n", "markdown");
    JsonNode verified =
        evaluator.verify(byEvaluator, LifecycleEndToEndTest.judgedScores(90, 90, 90));
    assertThat(verified.path("state").asText()).isEqualTo("VERIFIED");
    assertThat(verified.path("verification").path("evaluator").path("type").asText())
        .isNotEqualTo("builtin_agent_as_judge");
  }

  @Test
  void aDeliverableOtherThanTheOneDeliveredIsRefused() {
    String id = active();
    provider.deliver(id, "# Findings\n\nThe real work.\n", "markdown");
    ObjectNode swap = standalone("# Findings\n\nA better-looking substitute.\n", "semantic");
    swap.put("agreement_id", id);
    swap.remove("original_request");
    assertThatThrownBy(() -> client.requestVerification(swap))
        .isInstanceOfSatisfying(
            AsaApiException.class,
            e -> {
              assertThat(e.status()).isEqualTo(409);
              assertThat(e.detail()).contains("is not the one delivered");
            });
    ObjectNode same = standalone("# Findings\n\nThe real work.\n", "semantic");
    same.put("agreement_id", id);
    same.remove("original_request");
    String verificationId = client.requestVerification(same).path("verification_id").asText();
    assertThat(
            client
                .awaitVerification(verificationId, Duration.ofSeconds(20), p -> {})
                .path("agreement_id")
                .asText())
        .isEqualTo(id);
  }

  @Test
  void aProbabilisticGuaranteeIsJudgedOverTheProvidersSeries() {
    AsaClient evaluator =
        AsaClient.connect(URI.create(server.url("127.0.0.1"))).withKey(Fixtures.key("eval-1"));
    ObjectNode doc = Fixtures.general();
    doc.with("quality_criteria")
        .put("guarantee_type", "probabilistic")
        .putObject("guarantee")
        .put("metric", "pass@k")
        .put("k", 2)
        .put("threshold", 90);
    List<JsonNode> guarantees = new ArrayList<>();
    for (int accuracy : new int[] {20, 95, 95}) { // FAIL, then PASS, PASS
      String id = active(doc.deepCopy());
      provider.deliver(id, "# Findings\n", "markdown");
      JsonNode verified =
          evaluator.verify(id, LifecycleEndToEndTest.judgedScores(accuracy, 90, accuracy));
      guarantees.add(verified.path("verification").path("guarantee"));
    }
    assertThat(guarantees.get(0).path("met").isNull())
        .as("one delivery is not a series yet")
        .isTrue();
    assertThat(guarantees.get(0).path("evidence").asText())
        .contains("needs 2 deliveries; the series has 1");
    // n = 2, c = 1: pass@2 = 1 - C(1,2)/C(2,2) = 100%
    assertThat(guarantees.get(1).path("met").asBoolean()).isTrue();
    assertThat(guarantees.get(1).path("value").decimalValue()).isEqualByComparingTo("100");
    assertThat(guarantees.get(2).path("deliveries").asInt()).isEqualTo(3);
  }

  /** An agreement whose terms name the built-in evaluator, so a party may ask it to run. */
  /** Section 5.1 as printed: the caller's verification_id is the request's identifier. */
  @Test
  void aClientChosenVerificationIdNamesTheRequestAndIsRefusedOnlyForAnotherBody() {
    ObjectNode request = standalone("# Findings\n\nRecycling recovers lithium.\n", "structural");
    request.put("verification_id", "ver-2026-03-26-x1y2z3");
    ObjectNode first = client.requestVerification(request);
    assertThat(first.path("verification_id").asText()).isEqualTo("ver-2026-03-26-x1y2z3");
    assertThat(client.verificationResult("ver-2026-03-26-x1y2z3").path("verification_id").asText())
        .isEqualTo("ver-2026-03-26-x1y2z3");
    assertThat(client.requestVerification(request.deepCopy()).path("verification_id").asText())
        .as("the same request again: its first answer")
        .isEqualTo("ver-2026-03-26-x1y2z3");

    ObjectNode other = standalone("# Other findings\n", "structural");
    other.put("verification_id", "ver-2026-03-26-x1y2z3");
    assertProblem(() -> client.requestVerification(other), 409, "already used");
    assertProblem(
        () -> provider.requestVerification(request.deepCopy()), 409, "ver-2026-03-26-x1y2z3");
    ObjectNode bad = standalone("# Findings\n", "structural");
    bad.put("verification_id", "../../x");
    assertProblem(() -> client.requestVerification(bad), 422, "/verification_id");
  }

  /**
   * Section 5.1 as printed: quality_criteria beside agreement_id are the agreement's; sent anyway,
   * they must be those.
   */
  @Test
  void qualityCriteriaBesideAnAgreementMustBeTheAgreements() {
    String id = active();
    provider.deliver(id, "# Findings\n\nRecycling recovers lithium.\n", "markdown");
    ObjectNode request = standalone("# Findings\n\nRecycling recovers lithium.\n", "semantic");
    request.remove("original_request");
    request.put("agreement_id", id);
    request.put("verification_id", "ver-agreement-printed");
    JsonNode agreed = client.agreement(id).at("/agreement/quality_criteria");

    ObjectNode changed = request.deepCopy();
    changed.set("quality_criteria", agreed.deepCopy());
    ((ObjectNode) changed.at("/quality_criteria/dimensions/0")).put("weight", 0.99);
    assertThatThrownBy(() -> client.requestVerification(changed))
        .isInstanceOfSatisfying(
            AsaApiException.class,
            e -> {
              assertThat(e.status()).isEqualTo(422);
              assertThat(e.problem().at("/errors/0/pointer").asText())
                  .isEqualTo("/quality_criteria/dimensions/0/weight");
            });

    request.set("quality_criteria", agreed.deepCopy());
    ObjectNode accepted = client.requestVerification(request);
    assertThat(accepted.path("verification_id").asText()).isEqualTo("ver-agreement-printed");
    assertThat(
            client
                .awaitVerification("ver-agreement-printed", Duration.ofSeconds(20), p -> {})
                .path("agreement_id")
                .asText())
        .isEqualTo(id);
  }

  private String active() {
    return active(Fixtures.judgedByBuiltIn(Fixtures.general()));
  }

  private String active(ObjectNode doc) {
    String id = client.createAgreement(doc).path("agreement_id").asText();
    client.sign(id, Role.CLIENT, Fixtures.key("alice"));
    provider.sign(id, Role.PROVIDER, Fixtures.key("bob"));
    client.fund(id);
    return id;
  }

  private static void assertProblem(Runnable call, int status, String pointer) {
    assertThatThrownBy(call::run)
        .isInstanceOfSatisfying(
            AsaApiException.class,
            e -> {
              assertThat(e.status()).isEqualTo(status);
              assertThat(e.getMessage()).contains(pointer);
            });
  }
}
