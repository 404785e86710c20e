package dev.asa.server.e2e;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.asa.agreement.Role;
import dev.asa.client.AsaClient;
import dev.asa.json.Json;
import dev.asa.server.AsaServer;
import dev.asa.server.config.ServerConfig;
import dev.asa.server.escrow.EscrowConfig;
import dev.asa.server.net.FetchPolicy;
import dev.asa.signedrequests.RequestSigner;
import dev.asa.testing.Fixtures;
import dev.asa.testing.MutableClock;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 21's done-when, through HTTP: the official x402 client ({@code @x402/core} and {@code
 * @x402/evm} 2.27 from npm, unmodified) funds an agreement made from docs/escrow.md's binding, and the
 * official facilitator from the same packages verifies it and settles the released amount. Only
 * the chain is stubbed (see {@code src/test/node/x402/facilitator.mjs}); signatures are real.
 *
 * <p>The client is used as a buyer uses it with any x402 server: it reads {@code PAYMENT-REQUIRED}
 * from the 402 and makes the {@code PAYMENT-SIGNATURE} header. Its fetch wrapper is not used: it
 * resends the first request as it was, and an ASA request carries an RFC 9421 signature with a
 * nonce the server accepts once, so the retry is signed anew here, as any ASA client signs each
 * request.
 */
class OfficialX402ClientTest {
  private static final Path SCRIPTS = Path.of("src/test/node/x402");

  /** Hardhat's well-known test keys: no value on any real chain. */
  private static final String FACILITATOR_KEY =
      "0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d";

  private static final String PAYER_KEY =
      "0x5de4111afa1a4b94908f83103eb1f1706367c2e68ca870fc3fb9a804cdab365a";

  private static final String PAYER = "0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC";

  @TempDir static Path dataDir;
  static Process facilitator;
  static URI facilitatorUrl;
  static AsaServer server;
  static final MutableClock clock = new MutableClock(Instant.now());
  static final HttpClient http = HttpClient.newHttpClient();

  @BeforeAll
  static void start() throws Exception {
    NodeScripts.install(SCRIPTS, "@x402/evm");
    facilitator = NodeScripts.start(SCRIPTS, "facilitator.mjs", FACILITATOR_KEY);
    String first =
        new BufferedReader(new InputStreamReader(facilitator.getInputStream(), UTF_8)).readLine();
    assertThat(first).as("the facilitator's first line").isNotNull();
    facilitatorUrl = URI.create("http://127.0.0.1:" + Json.parse(first).path("port").asInt());
    server =
        AsaServer.start(
            ServerConfig.defaults()
                .withPort(0)
                .withDataDir(dataDir)
                .withClock(clock)
                .withOutboxPolling(false) // the test counts what each delivery sends
                .withEscrow(EscrowConfig.DEFAULTS.withX402Facilitator(facilitatorUrl))
                .withFetchPolicy(new FetchPolicy(List.of(facilitatorUrl + "/"))));
  }

  @AfterAll
  static void stop() {
    if (server != null) {
      server.close();
    }
    if (facilitator != null) {
      facilitator.destroy();
    }
  }

  @Test
  void theOfficialClientFundsAndTheOfficialFacilitatorSettlesTheReleasedAmount() throws Exception {
    AsaClient anonymous = AsaClient.connect(URI.create(server.url("127.0.0.1")));
    AsaClient client = anonymous.withKey(Fixtures.key("alice"), clock);
    AsaClient provider = anonymous.withKey(Fixtures.key("bob"), clock);
    AsaClient evaluator = anonymous.withKey(Fixtures.key("eval-1"), clock);

    // The binding of docs/escrow.md: no extra, no facilitatorAddress.
    ObjectNode doc = X402Documents.upto();
    String id = client.createAgreement(doc).path("agreement_id").asText();
    client.sign(id, Role.CLIENT, Fixtures.key("alice"));
    provider.sign(id, Role.PROVIDER, Fixtures.key("bob"));

    HttpResponse<String> unpaid = fund(id, null);
    assertThat(unpaid.statusCode()).as(unpaid.body()).isEqualTo(402);
    ObjectNode input = Json.object();
    input.put("paymentRequired", unpaid.headers().firstValue("PAYMENT-REQUIRED").orElseThrow());
    input.put("privateKey", PAYER_KEY).put("maxUsd", 20);
    JsonNode payment = Json.parse(NodeScripts.run(SCRIPTS, "pay.mjs", Json.write(input)));

    HttpResponse<String> paid = fund(id, payment.path("PAYMENT-SIGNATURE").asText());
    assertThat(paid.statusCode()).as(paid.body()).isEqualTo(200);
    JsonNode paymentResponse =
        Json.parse(
            Base64.getDecoder()
                .decode(paid.headers().firstValue("PAYMENT-RESPONSE").orElseThrow()));
    assertThat(paymentResponse.path("success").asBoolean()).isTrue();
    assertThat(paymentResponse.path("payer").asText()).isEqualToIgnoringCase(PAYER);
    assertThat(client.escrow(id).path("status").asText()).isEqualTo("held");

    provider.deliver(id, "# Findings\n", "markdown");
    evaluator.verify(id, LifecycleEndToEndTest.judgedScores(75, 80, 75));
    clock.advance(Duration.ofHours(2));
    server.fireDueTimers();
    assertThat(server.deliverDueMessages()).isEqualTo(1);

    JsonNode settle = client.escrow(id).path("messages").get(0);
    assertThat(settle.path("status").asText()).as(settle.toString()).isEqualTo("delivered");
    JsonNode settlements = settlements();
    assertThat(settlements).hasSize(1);
    assertThat(settlements.get(0).path("amount").asText()).isEqualTo("8500000");
    assertThat(settlements.get(0).path("payer").asText()).isEqualToIgnoringCase(PAYER);
  }

  /** POST /agreements/{id}/fund signed by the client (now), with a PAYMENT-SIGNATURE if given. */
  private static HttpResponse<String> fund(String id, String paymentSignature) throws Exception {
    URI uri = URI.create(server.url("127.0.0.1") + "/agreements/" + id + "/fund");
    HttpRequest.Builder b = HttpRequest.newBuilder(uri).POST(HttpRequest.BodyPublishers.noBody());
    new RequestSigner(Fixtures.key("alice"), clock, new SecureRandom())
        .sign("POST", uri, null)
        .asMap()
        .forEach(b::header);
    if (paymentSignature != null) {
      b.header("PAYMENT-SIGNATURE", paymentSignature);
    }
    return http.send(b.build(), HttpResponse.BodyHandlers.ofString());
  }

  private static JsonNode settlements() throws Exception {
    HttpResponse<String> r =
        http.send(
            HttpRequest.newBuilder(URI.create(facilitatorUrl + "/_settlements")).build(),
            HttpResponse.BodyHandlers.ofString());
    return Json.parse(r.body());
  }
}
