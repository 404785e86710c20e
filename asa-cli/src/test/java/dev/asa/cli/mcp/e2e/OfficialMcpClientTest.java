package dev.asa.cli.mcp.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.networknt.schema.Error;
import com.networknt.schema.Schema;
import com.networknt.schema.SchemaRegistry;
import com.networknt.schema.SpecificationVersion;
import dev.asa.cli.Main;
import dev.asa.crypto.Ed25519PrivateKey;
import dev.asa.crypto.KeyFile;
import dev.asa.json.Json;
import dev.asa.server.AsaServer;
import dev.asa.server.config.ServerConfig;
import dev.asa.server.e2e.NodeScripts;
import dev.asa.server.verification.engine.VerificationConfig;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code asa mcp} driven by the official MCP TypeScript SDK client
 * ({@code @modelcontextprotocol/sdk} from npm, pinned by {@code
 * src/test/node/mcp/package-lock.json}): three MCP servers, one per party and each its own process
 * with its own key, run the README's walk-through through tools only, from create_agreement to
 * CLOSED with the provider paid; then a second agreement negotiated, judged from the evaluator's
 * queue and challenged, a standalone verification with progress, a refused call, the resources and
 * the prompts ({@code walkthrough.mjs}). The client itself checks every structuredContent against
 * the tool's outputSchema; this test checks it again with the project's validator, and that
 * tools/list declares every tool of issue 55 (the drift test).
 *
 * <p>The package is installed by {@code npm ci} when it is not there yet; without Node or the
 * registry the test is skipped, except on CI, where it fails.
 */
class OfficialMcpClientTest {

  private static final Path CLIENT = Path.of("src/test/node/mcp");

  /** The tools issue 55 names: other agents and hosts integrate against exactly these. */
  static final Set<String> TOOLS =
      Set.of(
          "whoami",
          "list_templates",
          "create_agreement",
          "get_agreement",
          "negotiate",
          "sign_agreement",
          "fund_escrow",
          "deliver",
          "submit_evaluation",
          "challenge",
          "agreement_status",
          "list_agreements",
          "agreement_events",
          "reputation",
          "verify_deliverable",
          "evaluator_tasks",
          "submit_task_result");

  @TempDir static Path dir;
  static AsaServer server;
  static JsonNode report;

  @BeforeAll
  static void runTheWalkThrough() throws Exception {
    NodeScripts.install(CLIENT, "@modelcontextprotocol/sdk");
    // The MCP servers sign with the real clock, so the ASA server keeps it; its offline judge runs
    // the semantic verification, as under asa serve.
    server =
        AsaServer.start(
            ServerConfig.defaults()
                .withPort(0)
                .withDataDir(dir.resolve("data"))
                .withVerification(VerificationConfig.standard(null, 1)));
    ObjectNode input = Json.object();
    input.set("command", Json.mapper().valueToTree(mcpCommand(server.url("127.0.0.1"))));
    ObjectNode keys = input.putObject("keys");
    for (String party : List.of("client", "provider", "evaluator")) {
      Path key = dir.resolve(party + ".key");
      KeyFile.write(key, Ed25519PrivateKey.generate(new SecureRandom()));
      keys.put(party, key.toString());
    }
    report =
        Json.parse(
            NodeScripts.run(CLIENT, "walkthrough.mjs", Json.write(input), Duration.ofMinutes(8)));
    assertThat(report.path("failure").isMissingNode())
        .as("the walk-through failed: %s", report.path("failure").asText())
        .isTrue();
  }

  @AfterAll
  static void stop() {
    if (server != null) {
      server.close();
    }
  }

  /**
   * {@code asa mcp --server URL} as a host starts it: this JVM's java, on this test's classpath.
   */
  static List<String> mcpCommand(String url) {
    return List.of(
        Path.of(System.getProperty("java.home"), "bin", "java").toString(),
        "-cp",
        System.getProperty("java.class.path"),
        Main.class.getName(),
        "mcp",
        "--server",
        url);
  }

  @Test
  void theWalkThroughRunsThroughToolsOnlyToClosedWithTheProviderPaid() {
    JsonNode status = report.path("provider_status");
    assertThat(status.path("state").asText()).isEqualTo("CLOSED");
    assertThat(status.at("/payment/status").asText()).isEqualTo("settled");
    assertThat(status.at("/payment/released_to_provider").asText()).isEqualTo("8.50");
    assertThat(status.at("/payment/refunded_to_client").asText()).isEqualTo("1.50");
    List<String> types = new ArrayList<>();
    report.at("/events/events").forEach(e -> types.add(e.path("type").asText()));
    assertThat(types)
        .containsExactly(
            "created", "signed", "signed", "funded", "delivered", "verified", "closed");
    assertThat(report.at("/events/chain_valid").asBoolean()).isTrue();
    assertThat(report.at("/listed/agreements/0/agreement_id").asText())
        .isEqualTo(report.path("agreement_id").asText());
  }

  @Test
  void aNegotiatedAgreementIsJudgedFromTheQueueAndChallenged() {
    assertThat(report.at("/second_verdict/result").asText()).isEqualTo("FAIL");
    assertThat(report.at("/challenged/state").asText()).isEqualTo("DISPUTED");
    assertThat(report.at("/challenged/reason_code").asText()).isEqualTo("evaluator_error");
  }

  @Test
  void aRefusedCallIsAToolErrorWithTheProblemsDetail() {
    JsonNode refused = report.path("refused");
    assertThat(refused.path("isError").asBoolean()).isTrue();
    assertThat(refused.at("/content/0/text").asText())
        .contains("HTTP 403")
        .contains("a provider may not fund this agreement; that is for the client");
    assertThat(refused.at("/_meta/dev.asa~1problem/status").asInt()).isEqualTo(403);
    assertThat(refused.has("structuredContent")).isFalse();
  }

  @Test
  void aStandaloneVerificationWaitsForItsJobAndReportsProgress() {
    assertThat(report.at("/verified/determination/result").asText()).isIn("PASS", "FAIL");
    assertThat(report.at("/verified/dimensions").size()).isPositive();
    assertThat(report.path("progress").size()).isPositive();
    assertThat(report.at("/progress/0/message").asText()).startsWith("verification ver-");
  }

  @Test
  void resourcesAndPromptsAreServed() {
    assertThat(Json.mapper().convertValue(report.at("/resources/list"), List.class))
        .contains("asa://templates", "asa://agreements");
    assertThat(Json.mapper().convertValue(report.at("/resources/templates"), List.class))
        .contains("asa://agreements/{agreement_id}", "asa://agreements/{agreement_id}/events");
    assertThat(report.at("/resources/agreement/state").asText()).isEqualTo("CLOSED");
    assertThat(report.at("/resources/events/chain_valid").asBoolean()).isTrue();
    assertThat(report.at("/prompts/hire/messages/0/content/text").asText())
        .contains("fund_escrow")
        .contains("Never fund before both parties have signed");
  }

  /** The drift test: every tool listed with both schemas, exactly the names issue 55 fixes. */
  @Test
  void toolsListDeclaresEveryToolWithItsInputAndOutputSchema() {
    Set<String> listed = new TreeSet<>();
    for (JsonNode tool : report.path("tools")) {
      listed.add(tool.path("name").asText());
      assertThat(tool.path("inputSchema").path("type").asText())
          .as("%s inputSchema", tool.path("name"))
          .isEqualTo("object");
      assertThat(tool.path("outputSchema").path("type").asText())
          .as("%s outputSchema", tool.path("name"))
          .isEqualTo("object");
      assertThat(tool.path("description").asText()).hasSizeGreaterThan(40);
    }
    assertThat(listed).isEqualTo(new TreeSet<>(TOOLS));
  }

  /** The drift test: every answer the walk-through got is what its tool declares it answers. */
  @Test
  void everyAnswerValidatesAgainstItsDeclaredOutputSchema() {
    SchemaRegistry registry = SchemaRegistry.withDefaultDialect(SpecificationVersion.DRAFT_2020_12);
    Map<String, Schema> schemas = new HashMap<>();
    report
        .path("tools")
        .forEach(
            t -> schemas.put(t.path("name").asText(), registry.getSchema(t.path("outputSchema"))));
    Set<String> answered = new TreeSet<>();
    for (JsonNode call : report.path("calls")) {
      JsonNode result = call.path("result");
      if (result.path("isError").asBoolean()) {
        continue;
      }
      String tool = call.path("tool").asText();
      List<Error> errors = schemas.get(tool).validate(result.path("structuredContent"));
      assertThat(errors).as("%s answered %s", tool, result.path("structuredContent")).isEmpty();
      answered.add(tool);
    }
    assertThat(answered).as("every tool answered at least once").isEqualTo(new TreeSet<>(TOOLS));
  }
}
