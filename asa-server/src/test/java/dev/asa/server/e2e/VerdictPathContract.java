package dev.asa.server.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.asa.agreement.Role;
import dev.asa.client.AsaApiException;
import dev.asa.client.AsaClient;
import dev.asa.json.Json;
import dev.asa.server.AsaServer;
import dev.asa.server.config.ServerConfig;
import dev.asa.testing.Fixtures;
import dev.asa.testing.MutableClock;
import java.net.URI;
import java.time.Duration;
import java.time.Instant;
import java.util.UUID;
import java.util.function.Consumer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * The verdict path of issue 52 through real HTTP, the same on every store: the result that moves
 * the money is the one the terms' evaluator gave, with the checks it reported (item 1), and no
 * party can have another judge decide first (item 2).
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
abstract class VerdictPathContract {
  private final MutableClock clock = new MutableClock(Instant.parse("2026-11-22T10:00:00Z"));
  private AsaServer server;
  private AsaClient client;
  private AsaClient provider;
  private AsaClient evaluator;

  /** The server configuration with this suite's store. */
  abstract ServerConfig withStore(ServerConfig config);

  @BeforeAll
  void start() {
    server =
        AsaServer.start(
            withStore(
                ServerConfig.defaults()
                    .withPort(0)
                    .withClock(clock)
                    .withRateLimit(10_000, 10_000)));
    AsaClient anonymous = AsaClient.connect(URI.create(server.url("127.0.0.1")));
    client = anonymous.withKey(Fixtures.key("alice"), clock);
    provider = anonymous.withKey(Fixtures.key("bob"), clock);
    evaluator = anonymous.withKey(Fixtures.key("eval-1"), clock);
  }

  @AfterAll
  void stop() {
    if (server != null) {
      server.close();
    }
  }

  // ---- item 1: the evaluator's checks count -------------------------------------------------

  /**
   * The reproduction: the {@code code_generation} template (gates {@code
   * correctness_gte_80}, {@code security_gte_60}, {@code tests_pass}), its named evaluator scoring
   * every dimension 98 and reporting the tests passed. Before the fix the report was merged with
   * the server's own checks instead, {@code tests_pass} failed "not evaluated", and the agreement
   * closed with nothing paid.
   */
  @Test
  void aCodeAgreementWhoseEvaluatorReportsTheTestsPassedIsPaidInFull() {
    String id = delivered(pessimistic(Fixtures.fromTemplate("code_generation")), PYTHON, "python");
    ObjectNode result = scores(98, CODE_DIMENSIONS);
    result.putObject("checks").put("tests_pass", true);

    JsonNode verified = evaluator.verify(id, result).path("verification");

    assertThat(gate(verified, "tests_pass").path("passed").asBoolean())
        .as(verified.toString())
        .isTrue();
    assertThat(gate(verified, "tests_pass").path("evidence").asText())
        .isEqualTo("reported by the evaluator");
    assertThat(verified.path("determination").path("result").asText()).isEqualTo("PASS");
    assertPaid(id, "10.00", "0.00");
  }

  /** Whitepaper 6.4's gate set as printed, under {@code all_must_pass}. */
  private static ObjectNode whitepaperGates() {
    ObjectNode doc = pessimistic(Fixtures.general());
    ObjectNode criteria = templateCriteria("general");
    ArrayNode gates = criteria.putArray("quality_gates");
    gates
        .addObject()
        .put("condition", "no_critical_security_vulnerabilities")
        .put("type", "boolean");
    gates.addObject().put("condition", "all_tests_pass").put("type", "boolean");
    gates.addObject().put("condition", "accuracy_gte_80").put("type", "threshold");
    gates.addObject().put("condition", "composite_gte_75").put("type", "threshold");
    criteria.put("gate_logic", "all_must_pass");
    doc.set("quality_criteria", criteria);
    return doc;
  }

  @Test
  void theWhitepapersGateSetPassesOnTheChecksTheEvaluatorReports() {
    String id = delivered(whitepaperGates(), REPORT, "markdown");
    ObjectNode result = LifecycleEndToEndTest.judgedScores(95, 92, 95);
    result
        .putObject("checks")
        .put("no_critical_security_vulnerabilities", true)
        .put("all_tests_pass", true);

    JsonNode verified = evaluator.verify(id, result).path("verification");

    for (String condition :
        new String[] {
          "no_critical_security_vulnerabilities",
          "all_tests_pass",
          "accuracy_gte_80",
          "composite_gte_75"
        }) {
      assertThat(gate(verified, condition).path("passed").asBoolean())
          .as(condition + " in " + verified)
          .isTrue();
    }
    assertThat(verified.path("determination").path("result").asText()).isEqualTo("PASS");
    assertPaid(id, "10.00", "0.00");
  }

  @Test
  void theWhitepapersGateSetFailsOnACheckTheEvaluatorReportsFalse() {
    String id = delivered(whitepaperGates(), REPORT, "markdown");
    ObjectNode result = LifecycleEndToEndTest.judgedScores(95, 92, 95);
    result
        .putObject("checks")
        .put("no_critical_security_vulnerabilities", false)
        .put("all_tests_pass", true);

    JsonNode verified = evaluator.verify(id, result).path("verification");

    assertThat(gate(verified, "no_critical_security_vulnerabilities").path("passed").asBoolean())
        .isFalse();
    assertThat(gate(verified, "all_tests_pass").path("passed").asBoolean()).isTrue();
    assertThat(verified.path("determination").path("result").asText()).isEqualTo("FAIL");
    assertPaid(id, "0.00", "10.00");
  }

  /**
   * A check the server measures itself is refused by name, whoever sends it and whatever it says,
   * and nothing is recorded: the same evaluator's honest result is then taken.
   */
  @Test
  void aCheckOnlyTheServerMeasuresIsRefusedAndNothingIsRecorded() {
    String id = delivered(whitepaperGates(), REPORT, "markdown");
    long events = events(id);
    for (String serverOnly :
        new String[] {
          "format_valid",
          "schema_valid",
          "within_size_limit",
          "required_sections_present",
          "guarantee_met"
        }) {
      ObjectNode result = LifecycleEndToEndTest.judgedScores(95, 92, 95);
      result.putObject("checks").put(serverOnly, true).put("all_tests_pass", true);
      refused(
          () -> evaluator.verify(id, result),
          422,
          e ->
              assertThat(e.errors())
                  .anySatisfy(f -> {
                    assertThat(f.pointer()).isEqualTo("/evaluator_result/checks/" + serverOnly);
                    assertThat(f.detail()).contains("is measured by the server");
                  }));
    }
    assertThat(client.agreement(id).path("state").asText()).isEqualTo("DELIVERED");
    assertThat(events(id)).as("nothing recorded").isEqualTo(events);

    ObjectNode honest = LifecycleEndToEndTest.judgedScores(95, 92, 95);
    honest
        .putObject("checks")
        .put("no_critical_security_vulnerabilities", true)
        .put("all_tests_pass", true);
    assertThat(
            evaluator
                .verify(id, honest)
                .path("verification")
                .path("determination")
                .path("result")
                .asText())
        .isEqualTo("PASS");
  }

  // ---- item 2: no party picks the judge -----------------------------------------------------

  /**
   * The ways a caller asks the server's built-in evaluator to decide: the agreement's own depth (no
   * body), a {@code verification_config} on the agreement route, and {@code POST /verifications}
   * naming the agreement.
   */
  private void assertEveryAskRefused(AsaClient who, String id, String because) {
    long events = events(id);
    ObjectNode structural = Json.object().put("depth", "structural");
    ObjectNode byVerifications = Json.object();
    byVerifications.put("agreement_id", id);
    byVerifications
        .putObject("deliverable")
        .put("content", REPORT)
        .put("format", "markdown")
        .put("type", "general");
    byVerifications.set("verification_config", structural.deepCopy());
    for (Runnable ask :
        new Runnable[] {
          () -> who.verify(id),
          () -> who.verifyWith(id, structural),
          () -> who.verifyWith(id, Json.object().put("depth", "semantic")),
          () -> who.requestVerification(byVerifications)
        }) {
      refused(
          ask,
          409,
          e -> {
            assertThat(e.detail()).contains("the agreement names its evaluator 'eval-1'");
            assertThat(e.detail()).contains(because);
            assertThat(e.detail()).contains("Nothing was changed");
          });
    }
    assertThat(client.agreement(id).path("state").asText()).isEqualTo("DELIVERED");
    assertThat(events(id)).as("nothing recorded").isEqualTo(events);
    assertThat(client.escrow(id).path("status").asText()).isEqualTo("held");
  }

  /**
   * The named evaluator's verdict, once it answers: the one that counts, labelled as its own. The
   * server measured every dimension; the evaluator reports the check only it can judge.
   */
  private void assertTheNamedEvaluatorDecides(String id) {
    ObjectNode result = Json.object();
    result.putObject("checks").put("no_critical_security_vulnerabilities", true);
    JsonNode verified = evaluator.verify(id, result).path("verification");
    assertThat(verified.path("evaluator").path("identity").path("value").asText())
        .isEqualTo("eval-1");
    assertThat(verified.path("evaluator").path("type").asText()).isEqualTo("agent_as_judge");
    assertThat(gate(verified, "no_critical_security_vulnerabilities").path("passed").asBoolean())
        .isTrue();
    assertPaid(id, "10.00", "0.00");
  }

  @Test
  void theClientAskingTheBuiltInEvaluatorFirstIsRefusedAndTheNamedEvaluatorDecides() {
    String id = delivered(judgedByItsEvaluator(), REPORT, "markdown");
    assertEveryAskRefused(client, id, "neither party picks another judge");
    assertTheNamedEvaluatorDecides(id);
  }

  @Test
  void theProviderAskingTheBuiltInEvaluatorFirstIsRefusedAndTheNamedEvaluatorDecides() {
    String id = delivered(judgedByItsEvaluator(), REPORT, "markdown");
    assertEveryAskRefused(provider, id, "neither party picks another judge");
    assertTheNamedEvaluatorDecides(id);
  }

  @Test
  void theNamedEvaluatorItselfIsToldToSubmitItsScores() {
    String id = delivered(judgedByItsEvaluator(), REPORT, "markdown");
    assertEveryAskRefused(evaluator, id, "submit your scores as evaluator_result");
    assertTheNamedEvaluatorDecides(id);
  }

  /** The server's key, as the built-in evaluator's results name it. */
  private String serverKey() {
    return client.serverKey().path("value").asText();
  }

  private void assertJudgedByTheBuiltIn(JsonNode verification) {
    assertThat(verification.path("evaluator").path("identity").path("value").asText())
        .as("labelled as the evaluator that produced it: %s", verification)
        .isEqualTo(serverKey());
    assertThat(verification.path("evaluator").path("type").asText())
        .isEqualTo("builtin_structural");
  }

  @Test
  void anAgreementThatNamesTheBuiltInEvaluatorIsJudgedByItAtEitherPartysRequest() {
    ObjectNode doc = pessimistic(structuralOnly(Fixtures.judgedByBuiltIn(Fixtures.general())));
    String id = delivered(doc, REPORT, "markdown");
    // The evaluator slot names the server's own; eval-1 is not in this agreement.
    refused(
        () -> evaluator.verify(id, LifecycleEndToEndTest.judgedScores(95, 92, 95)), 404, e -> {});
    assertThat(client.agreement(id).path("state").asText()).isEqualTo("DELIVERED");

    JsonNode verified = provider.verify(id).path("verification");

    assertJudgedByTheBuiltIn(verified);
    assertPaid(id, "10.00", "0.00");
  }

  @Test
  void anEvaluatorWithoutAKeyIsRefusedAtCreationSoNobodyActsForIt() {
    ObjectNode doc = pessimistic(structuralOnly(Fixtures.general()));
    ((ObjectNode) doc.at("/parties/evaluator")).remove("verification_key");
    refused(
        () -> client.createAgreement(doc),
        422,
        e -> assertThat(e.body()).contains("/parties/evaluator/verification_key"));
  }

  /**
   * The named evaluator never answers: at its deadline {@code hold_for_backup_evaluator} finds no
   * pool evaluator and the built-in evaluator decides, labelled as itself. Before, the result
   * carried the named evaluator's identity.
   */
  @Test
  void theTimeoutPathReachesTheBuiltInEvaluatorWhichSignsAsItself() {
    String id = delivered(pessimistic(structuralOnly(Fixtures.general())), REPORT, "markdown");

    clock.advance(Duration.ofSeconds(3601)); // the template's evaluator_timeout_seconds, 3600
    server.fireDueTimers();

    assertJudgedByTheBuiltIn(client.verification(id));
    assertPaid(id, "10.00", "0.00");
  }

  /**
   * The attack's setting: the server measures every dimension, and a gate only the named evaluator
   * can judge. Had a party's ask let the built-in evaluator decide, that gate would fail "not
   * evaluated" and the client would have its money back for work nobody judged.
   */
  static ObjectNode judgedByItsEvaluator() {
    ObjectNode doc = pessimistic(structuralOnly(Fixtures.general()));
    ObjectNode criteria = (ObjectNode) doc.get("quality_criteria");
    criteria
        .putArray("quality_gates")
        .addObject()
        .put("condition", "no_critical_security_vulnerabilities")
        .put("type", "boolean");
    criteria.put("gate_logic", "all_must_pass");
    return doc;
  }

  /**
   * Criteria the built-in structural evaluator can judge alone (format and timeliness), so that
   * whether it may decide is the only question.
   */
  static ObjectNode structuralOnly(ObjectNode doc) {
    ObjectNode criteria = Json.object();
    ArrayNode dims = criteria.putArray("dimensions");
    dims.addObject()
        .put("name", "format_compliance")
        .put("weight", 0.5)
        .put("metric", "percentage")
        .putObject("slo")
        .put("operator", "gte")
        .put("value", 80);
    dims.addObject()
        .put("name", "timeliness")
        .put("weight", 0.5)
        .put("metric", "boolean")
        .putObject("slo")
        .put("operator", "eq")
        .put("value", true);
    criteria.put("composite_threshold", 70);
    criteria.put("composite_method", "weighted_average");
    criteria.putArray("quality_gates"); // none: the template's gate is on accuracy
    doc.set("quality_criteria", criteria);
    return doc;
  }

  // ---- helpers ----------------------------------------------------------------------------------

  static final String[] CODE_DIMENSIONS = {
    "correctness", "performance", "security", "maintainability", "test_coverage"
  };

  static final String PYTHON =
      """
      \"\"\"Turns titles into URL slugs.\"\"\"

      import re


      def slugify(title):
          \"\"\"Returns the lower-case words of title joined by hyphens.\"\"\"
          return "-".join(re.findall(r"[a-z0-9]+", title.lower()))
      """;

  static final String REPORT = "# Findings\n\nFederated learning keeps the data where it is.\n";

  /** Enforced at once, so that the money moves within the test. */
  static ObjectNode pessimistic(ObjectNode doc) {
    doc.putObject("verification").put("strategy", "pessimistic");
    return doc;
  }

  static ObjectNode templateCriteria(String template) {
    return dev.asa.template.Templates.get(template)
        .orElseThrow()
        .defaults()
        .get("quality_criteria")
        .deepCopy();
  }

  /** Every named dimension scored {@code score}, with evidence. */
  static ObjectNode scores(int score, String... dimensions) {
    ObjectNode r = Json.object();
    ArrayNode dims = r.putArray("dimensions");
    for (String d : dimensions) {
      dims.addObject().put("name", d).put("score", score).put("evidence", "checked: " + d);
    }
    return r;
  }

  /** Created with a fresh id, signed by both parties, funded and delivered. */
  String delivered(ObjectNode doc, String content, String format) {
    String id = "asa-verdict-" + UUID.randomUUID().toString().substring(0, 8);
    doc.put("agreement_id", id);
    client.createAgreement(doc);
    client.sign(id, Role.CLIENT, Fixtures.key("alice"));
    provider.sign(id, Role.PROVIDER, Fixtures.key("bob"));
    client.fund(id);
    provider.deliver(id, content, format);
    return id;
  }

  static JsonNode gate(JsonNode verification, String condition) {
    for (JsonNode g : verification.path("quality_gates")) {
      if (g.path("condition").asText().equals(condition)) {
        return g;
      }
    }
    throw new AssertionError("no gate " + condition + " in " + verification);
  }

  void assertPaid(String id, String released, String refunded) {
    assertThat(client.agreement(id).path("state").asText()).isEqualTo("CLOSED");
    JsonNode payment = client.status(id).path("payment");
    assertThat(payment.path("released_to_provider").asText())
        .as(payment.toString())
        .isEqualTo(released);
    assertThat(payment.path("refunded_to_client").asText())
        .as(payment.toString())
        .isEqualTo(refunded);
  }

  long events(String id) {
    return client.events(id).path("events").size();
  }

  static void refused(Runnable call, int status, Consumer<AsaApiException> also) {
    assertThatThrownBy(call::run)
        .isInstanceOfSatisfying(
            AsaApiException.class,
            e -> {
              assertThat(e.status()).as(e.body()).isEqualTo(status);
              also.accept(e);
            });
  }
}
