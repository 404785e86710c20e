package dev.asa.server.e2e;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.asa.agreement.Role;
import dev.asa.client.AsaApiException;
import dev.asa.client.AsaClient;
import dev.asa.json.Json;
import dev.asa.server.AsaServer;
import dev.asa.server.config.ServerConfig;
import dev.asa.server.escrow.EscrowConfig;
import dev.asa.server.escrow.FakeFacilitator;
import dev.asa.server.escrow.x402.Requirements;
import dev.asa.server.http.OpenApiContract;
import dev.asa.server.net.FetchPolicy;
import dev.asa.signedrequests.RequestSigner;
import dev.asa.testing.Fixtures;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.time.Clock;
import java.time.Instant;
import java.util.Base64;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Funding an x402 escrow as x402 clients do (issue 21), through HTTP on the real clock: the
 * authorization timed as the official {@code upto} client times it, the v2 HTTP transport (402 with
 * {@code PAYMENT-REQUIRED}, the payload in {@code PAYMENT-SIGNATURE}, {@code PAYMENT-RESPONSE} on
 * success) beside the JSON body, and the facilitator's messages kept in refusals.
 */
class X402HttpTransportTest {
  @TempDir Path dataDir;
  private FakeFacilitator facilitator;
  private AsaServer server;
  private AsaClient client;
  private AsaClient provider;
  private final HttpClient http = HttpClient.newHttpClient();

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

  /**
   * Issue 21 found every such fund refused: the server offered its settlement horizon as {@code
   * maxTimeoutSeconds} and then required the authorization to outlast the horizon from its own
   * clock, in milliseconds, a moment later. The tests with a fixed clock never saw it.
   */
  @Test
  void anAuthorizationTimedAsTheOfficialClientTimesItFundsTheEscrow() throws Exception {
    String id = activeX402Agreement();
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
    assertThat(client.escrow(id).path("status").asText()).isEqualTo("held");
    assertThat(client.escrow(id).path("balances").toString()).contains("10.000000");
  }

  @Test
  void anUnpaidFundIsA402WithThePaymentRequiredTheEscrowViewShowsToo() throws Exception {
    String id = activeX402Agreement();
    HttpResponse<String> unpaid = fund(id, new byte[0], null);
    assertThat(unpaid.statusCode()).isEqualTo(402);
    JsonNode required = decoded(unpaid.headers().firstValue("PAYMENT-REQUIRED").orElseThrow());
    assertThat(required.path("x402Version").asInt()).isEqualTo(2);
    assertThat(required.path("resource").path("url").asText())
        .isEqualTo("/agreements/" + id + "/fund");
    assertThat(required.path("accepts").get(0))
        .isEqualTo(client.escrow(id).path("x402_requirements"));
    assertThat(required.path("error").asText()).isEqualTo("payment required to fund the escrow");
    JsonNode problem = Json.parse(unpaid.body());
    assertThat(problem.path("type").asText()).endsWith("/payment-required");
    assertThat(problem.path("x402_payment_required")).isEqualTo(required);

    JsonNode shown = client.escrow(id).path("x402_payment_required");
    assertThat(shown.path("accepts")).isEqualTo(required.path("accepts"));
    assertThat(shown.has("error")).isFalse();
    assertThat(client.escrow(id).path("status").asText()).isEqualTo("unfunded");

    // The escrow view and the 402 problem, members x402 clients read, are as the API document says.
    JsonNode openApi =
        Json.parse(
            http.send(
                    HttpRequest.newBuilder(URI.create(server.url("127.0.0.1") + "/openapi.json"))
                        .build(),
                    HttpResponse.BodyHandlers.ofString())
                .body());
    OpenApiContract contract = new OpenApiContract(openApi);
    String path = "/agreements/" + id + "/escrow";
    assertThat(contract.check("GET", path, 200, "application/json", client.escrow(id))).isEmpty();
    assertThat(
            contract.check(
                "POST",
                "/agreements/" + id + "/fund",
                402,
                unpaid.headers().firstValue("Content-Type").orElseThrow(),
                problem))
        .isEmpty();
  }

  @Test
  void aPayloadInThePaymentSignatureHeaderFundsAndIsAnsweredWithAPaymentResponse()
      throws Exception {
    String id = activeX402Agreement();
    JsonNode required =
        decoded(fund(id, new byte[0], null).headers().firstValue("PAYMENT-REQUIRED").orElseThrow());
    Requirements offered = Requirements.fromJson(required.path("accepts").get(0), "/accepts/0");
    ObjectNode payload = FakeFacilitator.paymentPayload(offered, Instant.now());
    payload.set("resource", required.path("resource"));

    HttpResponse<String> paid = fund(id, new byte[0], encoded(payload));
    assertThat(paid.statusCode()).as(paid.body()).isEqualTo(200);
    JsonNode response = decoded(paid.headers().firstValue("PAYMENT-RESPONSE").orElseThrow());
    assertThat(response.path("success").asBoolean()).isTrue();
    assertThat(response.path("amount").asText()).isEqualTo("0");
    assertThat(response.path("network").asText()).isEqualTo("eip155:84532");
    assertThat(response.path("payer").asText()).isEqualToIgnoringCase(FakeFacilitator.PAYER);
    assertThat(client.escrow(id).path("status").asText()).isEqualTo("held");
  }

  @Test
  void aPayloadSentTwiceOrAMalformedHeaderIsRefusedNamingWhere() throws Exception {
    String id = activeX402Agreement();
    Requirements offered =
        Requirements.fromJson(client.escrow(id).path("x402_requirements"), "/x402_requirements");
    ObjectNode payload = FakeFacilitator.paymentPayload(offered, Instant.now());
    ObjectNode body = Json.object();
    body.set("x402", payload);

    HttpResponse<String> twice = fund(id, Json.write(body).getBytes(UTF_8), encoded(payload));
    assertThat(twice.statusCode()).isEqualTo(422);
    assertThat(twice.body()).contains("came twice");

    for (String bad : List.of("%%%", encodedText("{\"x402Version\": "), encodedText("[1]\u0000"))) {
      HttpResponse<String> r = fund(id, new byte[0], bad);
      assertThat(r.statusCode()).as(bad + ": " + r.body()).isIn(400, 422);
      assertThat(r.body()).contains("PAYMENT-SIGNATURE");
    }
    assertThat(client.escrow(id).path("status").asText()).isEqualTo("unfunded");
  }

  @Test
  void theFacilitatorsMessageReachesTheClientBesideItsReason() throws Exception {
    String id = activeX402Agreement();
    Requirements offered =
        Requirements.fromJson(client.escrow(id).path("x402_requirements"), "/x402_requirements");
    facilitator.refuseVerifications("insufficient_funds");
    facilitator.refuseWithMessage("the payer holds 3.00 USDC of the 10.00 authorized");
    HttpResponse<String> refused =
        fund(id, new byte[0], encoded(FakeFacilitator.paymentPayload(offered, Instant.now())));
    assertThat(refused.statusCode()).isEqualTo(422);
    assertThat(refused.body())
        .contains("insufficient_funds: the payer holds 3.00 USDC of the 10.00 authorized");
  }

  @Test
  void theRequirementsCarryWhatTheFacilitatorsSupportedAnswerAddsForUpto() {
    // The binding of docs/escrow.md names no facilitatorAddress; the official upto client needs
    // one, and the
    // official server fills it in from the facilitator's GET /supported. So does this one.
    String id = activeX402Agreement();
    JsonNode extra = client.escrow(id).path("x402_requirements").path("extra");
    assertThat(extra.path("facilitatorAddress").asText()).isEqualTo(FakeFacilitator.ADDRESS);
    assertThat(extra.path("assetTransferMethod").asText()).isEqualTo("permit2");
    assertThat(client.agreement(id).path("agreement").toString())
        .as("filled in for payers, not written into the signed terms")
        .doesNotContain("facilitatorAddress");
  }

  @Test
  void aBindingTheFacilitatorCannotServeIsRefusedAtCreationWithTheReason() {
    ObjectNode otherChain = X402Documents.upto();
    ((ObjectNode) otherChain.at("/escrow/binding")).put("network", "eip155:8453");
    assertThatThrownBy(() -> client.createAgreement(otherChain))
        .isInstanceOfSatisfying(
            AsaApiException.class,
            e -> {
              assertThat(e.status()).isEqualTo(422);
              assertThat(e.body())
                  .contains("/escrow/binding/network")
                  .contains("does not support the upto scheme on eip155:8453")
                  .contains("it supports: exact on eip155:84532, upto on eip155:84532");
            });

    ObjectNode otherSigner = X402Documents.upto();
    ((ObjectNode) otherSigner.at("/escrow/binding"))
        .putObject("extra")
        .put("facilitatorAddress", "0x2222222222222222222222222222222222222222");
    assertThatThrownBy(() -> client.createAgreement(otherSigner))
        .isInstanceOfSatisfying(
            AsaApiException.class,
            e -> {
              assertThat(e.status()).isEqualTo(422);
              assertThat(e.body()).contains("/escrow/binding/extra/facilitatorAddress");
            });
  }

  @Test
  void anUnreachableFacilitatorAtCreationIsA503AndNothingIsStored() throws Exception {
    facilitator.close(); // its port now refuses connections
    ObjectNode doc = X402Documents.upto();
    assertThatThrownBy(() -> client.createAgreement(doc))
        .isInstanceOfSatisfying(
            AsaApiException.class,
            e -> {
              assertThat(e.status()).isEqualTo(503);
              assertThat(e.body()).contains("/supported");
            });
    assertThat(client.list("alice", null, 10).path("items").size()).isZero();
  }

  @Test
  void anExactEscrowWhoseEveryReleaseIsWholeSettlesAllOfIt() throws Exception {
    ObjectNode doc = exactDocument();
    String id = client.createAgreement(doc).path("agreement_id").asText();
    client.sign(id, Role.CLIENT, Fixtures.key("alice"));
    provider.sign(id, Role.PROVIDER, Fixtures.key("bob"));
    Requirements offered =
        Requirements.fromJson(client.escrow(id).path("x402_requirements"), "/x402_requirements");
    assertThat(offered.scheme()).isEqualTo("exact");
    ObjectNode body = Json.object();
    body.set("x402", FakeFacilitator.paymentPayload(offered, Instant.now()));
    assertThat(body.at("/x402/payload/authorization/value").asText()).isEqualTo("10000000");
    client.fund(id, body);

    provider.deliver(id, "# Findings\n", "markdown");
    AsaClient evaluator =
        AsaClient.connect(URI.create(server.url("127.0.0.1"))).withKey(Fixtures.key("eval-1"));
    assertThat(
            evaluator
                .verify(id, LifecycleEndToEndTest.judgedScores(75, 80, 75))
                .path("state")
                .asText())
        .isEqualTo("CLOSED");
    server.deliverDueMessages();
    assertThat(facilitator.settlements()).hasSize(1);
    assertThat(facilitator.settlements().getFirst().amount()).isEqualTo("10000000");
  }

  @Test
  void anExactEscrowWhoseTermsCouldReleaseAPartIsRefusedAtCreation() {
    ObjectNode tiers = exactDocument();
    tiers.withObject("/escrow/payment").remove("graduated_release"); // the template's 100/85/50
    assertRefusedAt(tiers, "/escrow/payment/graduated_release");

    ObjectNode split = exactDocument();
    split.withObject("/escrow/dead_mans_switch").put("timeout_action", "split_50_50");
    assertRefusedAt(split, "/escrow/dead_mans_switch/timeout_action");
  }

  private void assertRefusedAt(ObjectNode doc, String pointer) {
    assertThatThrownBy(() -> client.createAgreement(doc))
        .isInstanceOfSatisfying(
            AsaApiException.class,
            e -> {
              assertThat(e.status()).isEqualTo(422);
              assertThat(e.body()).contains(pointer).contains("whole amount or nothing");
            });
  }

  /** An exact binding, all-or-nothing release, enforced as soon as it is verified. */
  /** An exact escrow, enforced as soon as it is verified. */
  private static ObjectNode exactDocument() {
    ObjectNode doc = X402Documents.exact();
    doc.withObject("/verification")
        .put("strategy", "pessimistic")
        .put("challenge_window_seconds", 0);
    return doc;
  }

  private String activeX402Agreement() {
    ObjectNode doc = X402Documents.upto();
    String id = client.createAgreement(doc).path("agreement_id").asText();
    client.sign(id, Role.CLIENT, Fixtures.key("alice"));
    provider.sign(id, Role.PROVIDER, Fixtures.key("bob"));
    return id;
  }

  /** POST /agreements/{id}/fund signed by the client, with a PAYMENT-SIGNATURE header if given. */
  private HttpResponse<String> fund(String id, byte[] body, String paymentSignature)
      throws Exception {
    URI uri = URI.create(server.url("127.0.0.1") + "/agreements/" + id + "/fund");
    HttpRequest.Builder b =
        HttpRequest.newBuilder(uri).POST(HttpRequest.BodyPublishers.ofByteArray(body));
    new RequestSigner(Fixtures.key("alice"), Clock.systemUTC(), new SecureRandom())
        .sign("POST", uri, body)
        .asMap()
        .forEach(b::header);
    if (body.length > 0) {
      b.header("Content-Type", "application/json");
    }
    if (paymentSignature != null) {
      b.header("PAYMENT-SIGNATURE", paymentSignature);
    }
    return http.send(b.build(), HttpResponse.BodyHandlers.ofString());
  }

  private static String encoded(JsonNode value) {
    return encodedText(Json.write(value));
  }

  private static String encodedText(String text) {
    return Base64.getEncoder().encodeToString(text.getBytes(UTF_8));
  }

  private static JsonNode decoded(String header) throws Exception {
    return Json.parse(new String(Base64.getDecoder().decode(header), UTF_8));
  }
}
