package dev.asa.server.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.asa.agreement.Role;
import dev.asa.client.AsaApiException;
import dev.asa.client.AsaClient;
import dev.asa.evaluators.judge.FakeLlmServer;
import dev.asa.evaluators.judge.FakeLlmServer.Behaviour;
import dev.asa.evaluators.judge.JudgeConfig;
import dev.asa.json.Json;
import dev.asa.server.AsaServer;
import dev.asa.server.config.ServerConfig;
import dev.asa.server.verification.engine.VerificationConfig;
import dev.asa.testing.Fixtures;
import java.math.BigDecimal;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The agreement's evaluator settings through HTTP: the server's judge runs with {@code
 * parties.evaluator.config} (model, rubric, spot checks, cost cap), a verify request may narrow
 * them but every attempt to loosen them is refused with 422 naming the member, and the provider's
 * declared model ({@code parties.provider.model}) keeps a judge of the same model away from its
 * work, whether the server's judge or a submitted result.
 */
class AgreementEvaluatorConfigEndToEndTest {
  @TempDir Path dataDir;
  private FakeLlmServer llm;
  private AsaServer server;
  private AsaClient client;
  private AsaClient provider;
  private AsaClient evaluator;

  /** Scores every dimension 88 and answers spot-checks (with none found). */
  private static String judge(FakeLlmServer.Request request) {
    List<String> dims = new ArrayList<>();
    for (String name : List.of("accuracy", "completeness", "relevance", "timeliness")) {
      dims.add(
          "{\"name\":\""
              + name
              + "\",\"score\":88,\"evidence\":\"read the text\",\"confidence\":0.8}");
    }
    return "{\"dimensions\":[" + String.join(",", dims) + "],\"claims\":[]}";
  }

  @BeforeEach
  void start() {
    llm = FakeLlmServer.start();
    llm.byDefault(Behaviour.replyWith(AgreementEvaluatorConfigEndToEndTest::judge));
    JudgeConfig judge =
        JudgeConfig.openAi(llm.openAiBaseUrl(), "sk-test", "gpt-4o-mini")
            .withRetries(1, Duration.ofMillis(10))
            .withTimeout(Duration.ofSeconds(5));
    server =
        AsaServer.start(
            ServerConfig.defaults()
                .withPort(0)
                .withDataDir(dataDir)
                .withVerification(VerificationConfig.standard(judge, 1)));
    AsaClient anonymous = AsaClient.connect(URI.create(server.url("127.0.0.1")));
    client = anonymous.withKey(Fixtures.key("alice"));
    provider = anonymous.withKey(Fixtures.key("bob"));
    evaluator = anonymous.withKey(Fixtures.key("eval-1"));
  }

  @AfterEach
  void stop() {
    server.close();
    llm.close();
  }

  /**
   * The general agreement between alice and bob whose evaluator slot names the server's built-in
   * evaluator (so that a party may ask it to run), edited, delivered.
   */
  private String delivered(String id, Consumer<ObjectNode> edit) {
    return delivered(id, Fixtures.judgedByBuiltIn(Fixtures.general()), edit);
  }

  /** The same judged by eval-1, which submits its own scores. */
  private String deliveredToItsEvaluator(String id, Consumer<ObjectNode> edit) {
    return delivered(id, Fixtures.general(), edit);
  }

  private String delivered(String id, ObjectNode doc, Consumer<ObjectNode> edit) {
    doc.put("agreement_id", id);
    edit.accept(doc);
    client.createAgreement(doc);
    client.sign(id, Role.CLIENT, Fixtures.key("alice"));
    provider.sign(id, Role.PROVIDER, Fixtures.key("bob"));
    client.fund(id);
    provider.deliver(
        id, "# Recycling\n\nHydrometallurgy recovers lithium from spent cells.\n", "markdown");
    return id;
  }

  private static ObjectNode evaluatorConfig(ObjectNode doc) {
    return ((ObjectNode) doc.get("parties").get("evaluator")).putObject("config");
  }

  /**
   * Signed settings: gpt-4o-mini with the research rubric, 2 spot checks, at most 0.50 USD, with
   * evidence.
   */
  private static void signedSettings(ObjectNode doc) {
    evaluatorConfig(doc)
        .put("model", "gpt-4o-mini")
        .put("rubric_id", "research-v1")
        .put("spot_check_claims", 2)
        .put("max_cost_usd", new BigDecimal("0.50"))
        .put("evidence_collection", true);
  }

  private static ObjectNode semantic(Consumer<ObjectNode> evaluatorSettings) {
    ObjectNode c = Json.object().put("depth", "semantic");
    evaluatorSettings.accept(c.putObject("evaluator_config"));
    return c;
  }

  private JsonNode requested(String id) {
    JsonNode found = null;
    for (JsonNode e : client.events(id).path("events")) {
      if (e.path("type").asText().equals("verification_requested")) {
        found = e.path("payload").path("verification_config");
      }
    }
    return found;
  }

  @Test
  void theServersJudgeRunsWithTheSignedSettingsAndARequestMayNarrowThem() {
    String id =
        delivered("asa-config-honoured", AgreementEvaluatorConfigEndToEndTest::signedSettings);
    // The request narrows: one more spot check, a lower cap; model and rubric are the document's.
    ObjectNode accepted =
        client.verifyWith(
            id,
            semantic(
                ec -> ec.put("spot_check_claims", 3).put("max_cost_usd", new BigDecimal("0.20"))));
    JsonNode result =
        client.awaitVerification(
            accepted.path("verification_id").asText(), Duration.ofSeconds(30), p -> {});
    assertThat(result.path("evaluator").path("model").asText()).isEqualTo("gpt-4o-mini");

    JsonNode ran = requested(id).path("evaluator_config");
    assertThat(ran.path("model").asText()).isEqualTo("gpt-4o-mini");
    assertThat(ran.path("rubric_id").asText()).isEqualTo("research-v1");
    assertThat(ran.path("spot_check_claims").asInt()).isEqualTo(3);
    assertThat(ran.path("max_cost_usd").decimalValue()).isEqualByComparingTo("0.20");
    String system = llm.lastRequest().system();
    assertThat(system).contains("Rubric family: research-v1").contains("Spot-check: pick up to 3");
    assertThat(client.agreement(id).path("agreement").path("status").asText())
        .isEqualToIgnoringCase("VERIFIED");
  }

  @Test
  void withoutARequestTheSignedSettingsStillApply() {
    String id =
        delivered(
            "asa-config-default",
            doc -> {
              signedSettings(doc);
              PoolAgreements.verification(doc).put("depth", "semantic");
            });
    ObjectNode accepted = client.verify(id); // no body: the agreement's own depth
    client.awaitVerification(
        accepted.path("verification_id").asText(), Duration.ofSeconds(30), p -> {});
    JsonNode ran = requested(id).path("evaluator_config");
    assertThat(ran.path("spot_check_claims").asInt()).isEqualTo(2);
    assertThat(ran.path("max_cost_usd").decimalValue()).isEqualByComparingTo("0.50");
    assertThat(llm.lastRequest().system())
        .contains("Rubric family: research-v1")
        .contains("Spot-check: pick up to 2");
  }

  @Test
  void everyAttemptToLoosenTheSignedSettingsIsRefusedNamingTheMember() {
    String id =
        delivered("asa-config-loosen", AgreementEvaluatorConfigEndToEndTest::signedSettings);
    String at = "/verification_config/evaluator_config/";
    // The provider, say, wants a friendlier judge, a softer rubric, fewer checks, a bigger budget
    // for a longer (costlier) deliverable, or no evidence to argue with.
    assertRefused(
        () -> provider.verifyWith(id, semantic(ec -> ec.put("model", "gpt-4o"))),
        at + "model",
        "fixes the judge model 'gpt-4o-mini'");
    assertRefused(
        () -> provider.verifyWith(id, semantic(ec -> ec.put("rubric_id", "general-v1"))),
        at + "rubric_id",
        "fixes the rubric 'research-v1'");
    assertRefused(
        () -> provider.verifyWith(id, semantic(ec -> ec.put("spot_check_claims", 0))),
        at + "spot_check_claims",
        "may ask for more, not fewer");
    assertRefused(
        () -> client.verifyWith(id, semantic(ec -> ec.put("max_cost_usd", 5))),
        at + "max_cost_usd",
        "may lower the cap, not raise it");
    assertRefused(
        () -> provider.verifyWith(id, semantic(ec -> ec.put("evidence_collection", false))),
        at + "evidence_collection",
        "cannot drop it");
    // Repeating the signed values is no loosening; case does not make another model.
    assertThat(requested(id)).as("nothing started").isNull();
    assertThat(llm.requests()).isEmpty();
    ObjectNode same =
        client.verifyWith(
            id, semantic(ec -> ec.put("model", "GPT-4o-mini").put("rubric_id", "research-v1")));
    client.awaitVerification(
        same.path("verification_id").asText(), Duration.ofSeconds(30), p -> {});
  }

  @Test
  void aJudgeOfTheProvidersOwnModelIsRefusedNamingTheChoice() {
    String id =
        delivered(
            "asa-self-judging",
            doc -> ((ObjectNode) doc.get("parties").get("provider")).put("model", "gpt-4o-mini"));
    // The server's default judge runs gpt-4o-mini: refused, naming the evaluator choice.
    assertRefused(
        () -> client.verifyWith(id, Json.object().put("depth", "semantic")),
        "/verification_config/evaluator_type",
        "runs the provider's own model ('gpt-4o-mini', /parties/provider/model)");
    assertRefused(
        () -> client.verifyWith(id, semantic(ec -> ec.put("model", "gpt-4o-mini"))),
        "/verification_config/evaluator_config/model",
        "provider's own model");
    assertThat(llm.requests()).as("the judge was never called").isEmpty();
    assertThat(requested(id)).isNull();

    // A named evaluator's own scores, from a dated name of the same model: refused as well.
    String judged =
        deliveredToItsEvaluator(
            "asa-self-judging-named",
            doc -> ((ObjectNode) doc.get("parties").get("provider")).put("model", "gpt-4o-mini"));
    ObjectNode selfJudged = LifecycleEndToEndTest.judgedScores(95, 95, 95);
    selfJudged.put("model", "openai/gpt-4o-mini-2024-07-18");
    assertRefused(
        () -> evaluator.verify(judged, selfJudged),
        "/evaluator_result/model",
        "is the provider's own model");
    // Another model is an independent judgement.
    ObjectNode other = LifecycleEndToEndTest.judgedScores(88, 82, 94);
    other.put("model", "claude-sonnet-4-5");
    assertThat(evaluator.verify(judged, other).path("state").asText()).isEqualTo("VERIFIED");
  }

  @Test
  void aSignedJudgeModelThatIsTheProvidersOwnIsRefusedAtCreationNamingTheDocument() {
    // Refused when proposed (issue 52, item 7), not after the work is done: no verification could
    // ever use this judge.
    ObjectNode selfJudging = Fixtures.general();
    ((ObjectNode) selfJudging.get("parties").get("provider")).put("model", "gpt-4o-mini");
    evaluatorConfig(selfJudging).put("model", "gpt-4o-mini");
    assertRefused(
        () -> client.createAgreement(selfJudging),
        "/parties/evaluator/config/model",
        "provider's own model");
    // And a named evaluator may not report another model than the signed one.
    String judged =
        deliveredToItsEvaluator(
            "asa-self-judging-signed-named",
            doc -> evaluatorConfig(doc).put("model", "gpt-4o-mini"));
    ObjectNode elsewhere = LifecycleEndToEndTest.judgedScores(88, 82, 94);
    elsewhere.put("model", "claude-sonnet-4-5");
    assertRefused(
        () -> evaluator.verify(judged, elsewhere),
        "/evaluator_result/model",
        "fixes the judge model 'gpt-4o-mini'");
  }

  @Test
  void malformedSettingsAndModelsInTheDocumentAreRefusedAtCreation() {
    record Case(String pointer, Consumer<ObjectNode> edit) {}
    List<Case> cases =
        List.of(
            new Case(
                "/parties/provider/model",
                doc -> ((ObjectNode) doc.get("parties").get("provider")).put("model", 42)),
            new Case(
                "/parties/provider/model",
                doc -> ((ObjectNode) doc.get("parties").get("provider")).put("model", "")),
            new Case(
                "/parties/evaluator/config/spot_check_claims",
                doc -> evaluatorConfig(doc).put("spot_check_claims", 21)),
            new Case(
                "/parties/evaluator/config/max_cost_usd",
                doc -> evaluatorConfig(doc).put("max_cost_usd", -1)),
            new Case(
                "/parties/evaluator/config/evidence_collection",
                doc -> evaluatorConfig(doc).put("evidence_collection", "yes")),
            new Case(
                "/parties/evaluator/config/model", doc -> evaluatorConfig(doc).putObject("model")));
    int n = 0;
    for (Case c : cases) {
      ObjectNode doc = Fixtures.general();
      doc.put("agreement_id", "asa-bad-" + n++);
      c.edit().accept(doc);
      assertThatThrownBy(() -> client.createAgreement(doc))
          .as(c.pointer())
          .isInstanceOfSatisfying(
              AsaApiException.class,
              e -> {
                assertThat(e.status()).isEqualTo(422);
                assertThat(pointers(e)).as(e.problem().toString()).contains(c.pointer());
              });
    }
    // Members the schema does not name are kept and ignored (a minor version may add them).
    ObjectNode doc = Fixtures.general();
    doc.put("agreement_id", "asa-config-extra");
    evaluatorConfig(doc).put("temperature", 0);
    assertThat(
            client
                .createAgreement(doc)
                .path("agreement")
                .path("parties")
                .path("evaluator")
                .path("config")
                .path("temperature")
                .isNumber())
        .isTrue();
  }

  private static List<String> pointers(AsaApiException e) {
    List<String> pointers = new ArrayList<>();
    e.problem().path("errors").forEach(v -> pointers.add(v.path("pointer").asText()));
    return pointers;
  }

  private static void assertRefused(Runnable call, String pointer, String detail) {
    assertThatThrownBy(call::run)
        .isInstanceOfSatisfying(
            AsaApiException.class,
            e -> {
              assertThat(e.status()).as(e.problem().toString()).isEqualTo(422);
              assertThat(pointers(e)).as(e.problem().toString()).containsExactly(pointer);
              assertThat(e.problem().toString()).contains(detail);
            });
  }
}
