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
