package dev.asa.server.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.asa.agreement.Role;
import dev.asa.client.AsaClient;
import dev.asa.json.Json;
import dev.asa.server.AsaServer;
import dev.asa.server.config.ServerConfig;
import dev.asa.server.escrow.EscrowConfig;
import dev.asa.server.escrow.FakeFacilitator;
import dev.asa.server.escrow.x402.Requirements;
import dev.asa.server.net.FetchPolicy;
import dev.asa.testing.Fixtures;
import java.net.URI;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Funding an x402 escrow on the real clock, with the authorization timed as the official x402
 * {@code upto} client times it: valid until its clock's whole second plus {@code
 * maxTimeoutSeconds}. Issue 21 found every such fund refused: the server offered its settlement
 * horizon as {@code maxTimeoutSeconds} and then required the authorization to outlast the horizon
 * from its own clock, in milliseconds, a moment later. The tests with a fixed clock never saw it.
 */
class X402RealClockTest {
  @TempDir Path dataDir;
  private FakeFacilitator facilitator;
  private AsaServer server;
  private AsaClient client;
  private AsaClient provider;

  @BeforeEach
  void start() {
    facilitator = new FakeFacilitator();
    facilitator.setNow(Instant.now());
    server =
        AsaServer.start(
            ServerConfig.defaults()
                .withPort(0)
                .withDataDir(dataDir)
                .withEscrow(EscrowConfig.DEFAULTS.withX402Facilitator(facilitator.uri()))
                .withFetchPolicy(new FetchPolicy(List.of(facilitator.uri() + "/"))));
    AsaClient anonymous = AsaClient.connect(URI.create(server.url("127.0.0.1")));
    client = anonymous.withKey(Fixtures.key("alice"));
    provider = anonymous.withKey(Fixtures.key("bob"));
  }

  @AfterEach
  void stop() {
    server.close();
    facilitator.close();
  }

  @Test
  void anAuthorizationTimedAsTheOfficialClientTimesItFundsTheEscrow() throws Exception {
    ObjectNode doc = Fixtures.general();
    doc.withObject("/escrow/payment").put("amount", "10.00").put("currency", "USDC");
    ((ObjectNode) doc.path("escrow"))
        .putObject("binding")
        .put("type", "x402")
        .put("network", "eip155:84532")
        .put("asset", "0x036CbD53842c5426634e7929541eC2318f3dCF7e")
        .put("pay_to", "0x209693Bc6afc0C5328bA36FaF03C514EF312287C");
    String id = client.createAgreement(doc).path("agreement_id").asText();
    client.sign(id, Role.CLIENT, Fixtures.key("alice"));
    provider.sign(id, Role.PROVIDER, Fixtures.key("bob"));
    Requirements offered =
        Requirements.fromJson(client.escrow(id).path("x402_requirements"), "/x402_requirements");

    // deadline = floor(now in seconds) + maxTimeoutSeconds, as @x402/evm's upto client writes it,
    // and the request reaching the server in the next second, as a slow network would have it.
    long signedAt = Instant.now().getEpochSecond();
    ObjectNode body = Json.object();
    body.set("x402", FakeFacilitator.paymentPayload(offered, Instant.ofEpochSecond(signedAt)));
    assertThat(
            body.at("/x402/payload/permit2Authorization/deadline").asLong()
                - offered.maxTimeoutSeconds())
        .isEqualTo(signedAt);
    Thread.sleep(1000 - System.currentTimeMillis() % 1000 + 200);

    client.fund(id, body);
    assertThat(client.agreement(id).path("state").asText()).isEqualTo("ACTIVE");
    assertThat(client.escrow(id).path("status").asText()).isEqualTo("held");
    assertThat(client.escrow(id).path("balances").toString()).contains("10.000000");
  }
}
