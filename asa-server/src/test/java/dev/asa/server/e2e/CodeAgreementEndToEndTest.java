package dev.asa.server.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.fail;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.asa.agreement.Role;
import dev.asa.client.AsaApiException;
import dev.asa.client.AsaClient;
import dev.asa.evaluators.code.SandboxTests;
import dev.asa.evaluators.code.sandbox.Limits;
import dev.asa.evaluators.code.sandbox.Sandbox;
import dev.asa.evaluators.code.sandbox.TestRunner;
import dev.asa.json.Json;
import dev.asa.server.AsaServer;
import dev.asa.server.config.ServerConfig;
import dev.asa.server.verification.engine.VerificationConfig;
import dev.asa.testing.Fixtures;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A code agreement from the {@code code_generation} template, from creation to CLOSED with the
 * server's built-in evaluators only, through HTTP: the client's tests are signed into the terms,
 * the provider delivers Python, and the code sandbox runs the tests. A correct solution passes and
 * the money is released; a buggy one fails its tests, the {@code tests_pass} gate fails and the
 * money goes back. A server without the sandbox refuses tests it would never run.
 */
class CodeAgreementEndToEndTest {
  static final String TESTS =
      """
      import unittest
      from slugify import slugify

      class SlugifyTest(unittest.TestCase):
          def test_lowercases(self):
              self.assertEqual(slugify("Hello"), "hello")

          def test_spaces_become_hyphens(self):
              self.assertEqual(slugify("a b  c"), "a-b-c")

          def test_drops_punctuation(self):
              self.assertEqual(slugify("Hi, there!"), "hi-there")

          def test_empty(self):
              self.assertEqual(slugify(""), "")
      """;

  static final String CORRECT =
      """
      \"\"\"Turns titles into URL slugs.\"\"\"

      import re


      def slugify(title):
          \"\"\"Returns the lower-case words of title joined by hyphens.\"\"\"
          words = re.findall(r"[a-z0-9]+", title.lower())
          return "-".join(words)
      """;

  static final String BUGGY =
      """
      \"\"\"Turns titles into URL slugs.\"\"\"


      def slugify(title):
          \"\"\"Returns title with spaces replaced by hyphens.\"\"\"
          return title.replace(" ", "-")
      """;

  @TempDir Path dataDir;
  private AsaServer server;
  private AsaClient anonymous;

  private void start(boolean sandbox) {
    VerificationConfig verification = VerificationConfig.standard(null, 2);
    if (sandbox) {
      Sandbox.Availability a = Sandbox.available();
      if (!a.available() && "true".equals(System.getenv("CI"))) {
        fail("CI=true but no code sandbox: " + a.reason());
      }
      assumeTrue(a.available(), () -> "code sandbox unavailable, test skipped: " + a.reason());
      verification =
          verification.withCodeSandbox(
              new SandboxTests(
                  new TestRunner(Sandbox.create().hiding(List.of(dataDir))), Limits.defaults()),
              "bubblewrap");
    }
    server =
        AsaServer.start(
            ServerConfig.defaults()
                .withPort(0)
                .withDataDir(dataDir)
                .withRateLimit(10_000, 10_000)
                .withVerification(verification));
    anonymous = AsaClient.connect(URI.create(server.url("127.0.0.1")));
  }

  @AfterEach
  void stop() {
    if (server != null) {
      server.close();
    }
  }

  private AsaClient as(String name) {
    return anonymous.withKey(Fixtures.key(name));
  }

  /**
   * The template with the client's tests, judged by the server's built-in evaluator as the terms
   * say (semantic depth), 5 s window.
   */
  static ObjectNode codeAgreement(String id) {
    ObjectNode doc = Fixtures.judgedByBuiltIn(Fixtures.fromTemplate("code_generation"));
    doc.put("agreement_id", id);
    doc.putObject("verification").put("depth", "semantic").put("challenge_window_seconds", 5);
    ObjectNode criteria =
        dev.asa.template.Templates.get("code_generation")
            .orElseThrow()
            .defaults()
            .get("quality_criteria")
            .deepCopy();
    criteria.putObject("tests").put("language", "python").put("content", TESTS);
    doc.set("quality_criteria", criteria);
    return doc;
  }

  /** Proposed, signed, funded, delivered, verified by the server's evaluators: the result. */
  private JsonNode deliverAndVerify(String id, String code) {
    AsaClient client = as("alice");
    AsaClient provider = as("bob");
    String created = client.createAgreement(codeAgreement(id)).path("agreement_id").asText();
    assertThat(created).isEqualTo(id);
    assertThat(
            client
                .agreement(id)
                .path("agreement")
                .path("quality_criteria")
                .path("tests")
                .path("language")
                .asText())
        .isEqualTo("python");
    client.sign(id, Role.CLIENT, Fixtures.key("alice"));
    provider.sign(id, Role.PROVIDER, Fixtures.key("bob"));
    client.fund(id);
    // A tree of one module, so that the tests import it by its name.
    ObjectNode manifest = Json.object();
    manifest.putObject("files").put("slugify.py", code);
    provider.deliver(id, manifest.toString(), "python");
    ObjectNode accepted = client.verify(id); // no body: the agreement's own (semantic) depth
    return client.awaitVerification(
        accepted.path("verification_id").asText(), Duration.ofSeconds(90), p -> {});
  }

  private static JsonNode dimension(JsonNode result, String name) {
    for (JsonNode d : result.path("dimensions")) {
      if (d.path("name").asText().equals(name)) {
        return d;
      }
    }
    throw new AssertionError("no dimension " + name + " in " + result);
  }

  /** The server closes the agreement by itself once the challenge window ends. */
  private void closeAfterTheWindow(String id) throws InterruptedException {
    long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
    while (!as("alice").agreement(id).path("state").asText().equals("CLOSED")) {
      assertThat(System.nanoTime()).as("closed within 30 s of verification").isLessThan(deadline);
      Thread.sleep(250);
    }
  }

  @Test
  void aCorrectSolutionPassesItsTestsAndTheMoneyIsReleased() throws Exception {
    start(true);
    String id = "asa-code-correct";
    JsonNode result = deliverAndVerify(id, CORRECT);
    assertThat(dimension(result, "correctness").path("score").decimalValue())
        .isEqualByComparingTo("100");
    assertThat(dimension(result, "correctness").path("evidence").asText())
        .contains("4 of 4 python tests passed");
    assertThat(result.path("quality_gates").toString()).contains("tests_pass");
    assertThat(result.path("determination").path("result").asText())
        .as(result.toString())
        .isEqualTo("PASS");
    closeAfterTheWindow(id);
    JsonNode payment = as("alice").status(id).path("payment");
    assertThat(payment.path("status").asText()).isEqualTo("settled");
    assertThat(payment.path("released_to_provider").asText()).isEqualTo("10.00");
  }

  @Test
  void aBuggySolutionFailsItsTestsTheGateFailsAndTheMoneyGoesBack() throws Exception {
    start(true);
    String id = "asa-code-buggy";
    JsonNode result = deliverAndVerify(id, BUGGY);
    assertThat(dimension(result, "correctness").path("score").decimalValue())
        .isLessThan(java.math.BigDecimal.valueOf(95));
    assertThat(dimension(result, "correctness").path("evidence").asText()).contains("failing");
    boolean testsGateFailed = false;
    for (JsonNode g : result.path("quality_gates")) {
      if (g.path("condition").asText().equals("tests_pass")) {
        testsGateFailed = !g.path("passed").asBoolean();
      }
    }
    assertThat(testsGateFailed).as(result.toString()).isTrue();
    assertThat(result.path("determination").path("payment_release_percent").decimalValue())
        .isEqualByComparingTo("0");
    closeAfterTheWindow(id);
    JsonNode payment = as("alice").status(id).path("payment");
    assertThat(payment.path("released_to_provider").asText()).isEqualTo("0.00");
  }

  @Test
  void aServerWithoutTheSandboxRefusesTestsItWouldNeverRun() {
    start(false);
    AsaApiException refused = null;
    try {
      as("alice").createAgreement(codeAgreement("asa-code-nosandbox"));
    } catch (AsaApiException e) {
      refused = e;
    }
    assertThat(refused).isNotNull();
    assertThat(refused.status()).isEqualTo(422);
    assertThat(refused.errors())
        .anySatisfy(f -> assertThat(f.pointer()).isEqualTo("/quality_criteria/tests"));

    ObjectNode standalone = Json.object();
    ObjectNode manifest = Json.object();
    manifest.putObject("files").put("slugify.py", CORRECT);
    standalone.putObject("deliverable").put("content", manifest.toString()).put("format", "python");
    standalone
        .putObject("original_request")
        .put("description", "slugify titles")
        .putObject("tests")
        .put("language", "python")
        .put("content", TESTS);
    try {
      as("alice").requestVerification(standalone);
      fail("tests on a server without the sandbox must be refused");
    } catch (AsaApiException e) {
      assertThat(e.status()).isEqualTo(422);
      assertThat(e.errors())
          .anySatisfy(f -> assertThat(f.pointer()).isEqualTo("/original_request/tests"));
    }
  }
}
