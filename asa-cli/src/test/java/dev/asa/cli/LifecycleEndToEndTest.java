package dev.asa.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.asa.json.Json;
import dev.asa.server.AsaServer;
import dev.asa.server.ServerConfig;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * One agreement's whole life through the {@code asa} command, against the real server started in
 * this JVM: keys, create from the general template, both signatures, delivery, verification with
 * the evaluator's scores, status, the event chain, and closing once the challenge window is over
 * (the agreement's challenge window is 2 s, so the test waits it out).
 */
class LifecycleEndToEndTest {

  record Result(int status, String out, String err) {
    JsonNode json() throws Exception {
      return Json.parse(out);
    }
  }

  @TempDir Path dir;
  private AsaServer server;
  private String url;

  @BeforeEach
  void start() {
    // The CLI stamps request signatures with the real time, so the server keeps the real clock.
    server = AsaServer.start(ServerConfig.defaults().withPort(0).withDataDir(dir.resolve("data")));
    url = server.url("127.0.0.1");
  }

  @AfterEach
  void stop() {
    server.close();
  }

  private Result asa(String... args) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    int status = new Main(Map.of("ASA_SERVER", url))
        .run(args, new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8));
    Result r = new Result(status, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    assertThat(r.status()).as("asa %s\nstdout: %s\nstderr: %s", String.join(" ", args), r.out(), r.err()).isZero();
    return r;
  }

  @Test
  void anAgreementFromProposalToClosing() throws Exception {
    String clientKey = dir.resolve("client.jwk").toString();
    String providerKey = dir.resolve("provider.jwk").toString();
    String evaluatorKey = dir.resolve("evaluator.jwk").toString();
    asa("keys", "new", "--out", clientKey);
    asa("keys", "new", "--out", providerKey);
    asa("keys", "new", "--out", evaluatorKey);
    String providerPub = asa("keys", "show", providerKey, "--json").json().path("public_key").asText();
    String evaluatorPub = asa("keys", "show", evaluatorKey, "--json").json().path("public_key").asText();

    JsonNode created = asa("agreements", "create", "--template", "general",
        "--client-key", clientKey, "--provider-pub", providerPub, "--evaluator", "eval-key-789",
        "--evaluator-pub", evaluatorPub, "--description", "Summarise recent work on federated learning privacy",
        "--amount", "10.00", "--currency", "USDC", "--challenge-window", "2", "--json").json();
    String id = created.path("agreement_id").asText();
    assertThat(created.path("state").asText()).isEqualTo("PROPOSED");
    assertThat(created.path("agreement_hash").asText()).startsWith("sha256:");

    assertThat(asa("agreements", "sign", id, "--key", clientKey, "--as", "client").out())
        .contains("state PROPOSED").contains("waiting for the provider's signature");
    assertThat(asa("agreements", "sign", id, "--key", providerKey, "--as", "provider").out())
        .isEqualTo("signed " + id + " as provider; state ACTIVE\n");

    assertThat(asa("agreements", "deliver", id, "--key", providerKey, "--content", "# Federated learning privacy\n\nDifferential privacy...",
        "--format", "markdown").out()).contains("state DELIVERED");

    Result verified = asa("agreements", "verify", id, "--key", evaluatorKey,
        "--score", "accuracy=90:all 12 claims checked against the cited papers",
        "--score", "completeness=85:covers 7 of 8 requested topics",
        "--score", "relevance=92:every section addresses the request",
        "--confidence", "0.9", "--model", "judge-1");
    assertThat(verified.out())
        .contains("state VERIFIED")
        .containsPattern("accuracy +90 +80 +yes +all 12 claims")
        .containsPattern("timeliness +100 +true +yes")
        .containsPattern("determination +PASS");

    Result status = asa("agreements", "status", id, "--key", clientKey);
    assertThat(status.out()).containsPattern("state +VERIFIED").containsPattern("challenge window +open until");
    assertThat(asa("agreements", "status", id, "--key", clientKey, "--json").json().path("state").asText()).isEqualTo("VERIFIED");

    assertThat(asa("agreements", "list", "--party", "eval-key-789", "--key", evaluatorKey).out()).containsPattern(id + " +VERIFIED +general");

    Result events = asa("agreements", "events", id, "--key", providerKey);
    assertThat(events.out()).contains("created").contains("signed").contains("delivered").contains("verified")
        .contains("chain verifies (5 events)");

    Thread.sleep(2_100); // the 2 s challenge window passes
    assertThat(asa("agreements", "close", id, "--key", clientKey).out()).contains("state CLOSED").contains("to the provider");
    assertThat(asa("agreements", "get", id, "--key", clientKey, "--json").json().path("state").asText()).isEqualTo("CLOSED");
    assertThat(asa("agreements", "events", id, "--key", clientKey).out()).contains("chain verifies (6 events)");
  }
}
