package dev.asa.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.asa.client.AsaClient;
import dev.asa.crypto.KeyFile;
import dev.asa.json.Json;
import dev.asa.server.AsaServer;
import dev.asa.server.config.ServerConfig;
import dev.asa.server.escrow.EscrowConfig;
import dev.asa.server.escrow.FakeFacilitator;
import dev.asa.server.net.FetchPolicy;
import dev.asa.testing.Fixtures;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code asa agreements escrow} on an x402 agreement, against the real server (and a local x402
 * facilitator): the summary says the payment requirements are given, read from the member the
 * server writes them under ({@code x402_requirements}), and {@code --json} shows them.
 */
class X402EscrowCommandTest {

  @TempDir Path dir;
  private FakeFacilitator facilitator;
  private AsaServer server;

  @BeforeEach
  void start() {
    facilitator = new FakeFacilitator();
    facilitator.setNow(Instant.now());
    server =
        AsaServer.start(
            ServerConfig.defaults()
                .withPort(0)
                .withDataDir(dir.resolve("data"))
                .withEscrow(EscrowConfig.DEFAULTS.withX402Facilitator(facilitator.uri()))
                .withFetchPolicy(new FetchPolicy(List.of(facilitator.uri() + "/"))));
  }

  @AfterEach
  void stop() {
    server.close();
    facilitator.close();
  }

  private String asa(String... args) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    int status =
        new Main(Map.of("ASA_SERVER", server.url("127.0.0.1")))
            .run(
                args,
                new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8));
    assertThat(status)
        .as("asa %s: %s", String.join(" ", args), err.toString(StandardCharsets.UTF_8))
        .isZero();
    return out.toString(StandardCharsets.UTF_8);
  }

  @Test
  void theEscrowOfAnX402AgreementSaysItsPaymentRequirementsAreGiven() throws Exception {
    // USDC on Base Sepolia, as docs/escrow.md's binding names it.
    ObjectNode doc = Fixtures.general();
    doc.withObject("/escrow/payment").put("amount", "10.00").put("currency", "USDC");
    ((ObjectNode) doc.path("escrow"))
        .putObject("binding")
        .put("type", "x402")
        .put("network", "eip155:84532")
        .put("asset", "0x036CbD53842c5426634e7929541eC2318f3dCF7e")
        .put("pay_to", "0x209693Bc6afc0C5328bA36FaF03C514EF312287C");
    String id =
        AsaClient.connect(URI.create(server.url("127.0.0.1")), Fixtures.key("alice"))
            .agreements()
            .create(doc)
            .id();
    String alice = dir.resolve("alice.jwk").toString();
    KeyFile.write(Path.of(alice), Fixtures.key("alice"));

    assertThat(asa("agreements", "escrow", id, "--key", alice))
        .contains(
            "escrow     x402, 10.000000 USDC\n"
                + "status     unfunded\n"
                + "balance    none\n"
                + "payment    x402 payment requirements given (--json shows them)\n");
    JsonNode shown = Json.parse(asa("agreements", "escrow", id, "--key", alice, "--json"));
    assertThat(shown.at("/x402_requirements/payTo").asText())
        .isEqualTo("0x209693Bc6afc0C5328bA36FaF03C514EF312287C");
  }
}
