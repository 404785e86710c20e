package dev.asa.server.escrow;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.HttpServer;
import dev.asa.json.Json;
import dev.asa.server.escrow.Courier.Attempt;
import dev.asa.server.escrow.X402Facilitator.FacilitatorUnavailableException;
import dev.asa.server.escrow.X402Facilitator.VerifyResult;
import dev.asa.server.escrow.x402.Requirements;
import dev.asa.server.escrow.x402.X402;
import dev.asa.server.net.FetchPolicy;
import dev.asa.server.net.GuardedHttpClient;
import dev.asa.server.store.escrow.OutboxMessage;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class X402FacilitatorTest {

  FakeFacilitator fake;
  X402Facilitator client;
  final AtomicInteger ids = new AtomicInteger();

  @BeforeEach
  void start() {
    fake = new FakeFacilitator();
    client = facilitator(fake.uri(), Duration.ofSeconds(5));
  }

  @AfterEach
  void stop() {
    fake.close();
  }

  /**
   * A facilitator client allowed to reach {@code base} (a loopback test server) and nothing else
   * internal.
   */
  static X402Facilitator facilitator(URI base, Duration timeout) {
    String prefix = base.toString().endsWith("/") ? base.toString() : base + "/";
    return new X402Facilitator(
        base, timeout, new GuardedHttpClient(new FetchPolicy(List.of(prefix))));
  }

  static Requirements upto() {
    return X402Test.upto();
  }

  /** A payload as the escrow keeps it after funding: validated by {@link X402#parsePayload}. */
  static ObjectNode funded(Requirements r) {
    return X402.parsePayload(FakeFacilitator.paymentPayload(r), r, Instant.now());
  }

  OutboxMessage settlement(ObjectNode payload, Requirements atAmount) {
    return new OutboxMessage(
        "msg-" + ids.incrementAndGet(),
        "agr-1",
        "x402.settle",
        client.settleUri().toString(),
        X402.settleBody(payload, atAmount),
        Instant.now(),
        0);
  }

  // --- verify ---------------------------------------------------------------------------------

  @Test
  void aValidAuthorizationVerifies() {
    for (Requirements r : java.util.List.of(upto(), X402Test.exact())) {
      VerifyResult result = client.verify(funded(r), r);
      assertThat(result).isEqualTo(new VerifyResult(true, null, FakeFacilitator.PAYER));
    }
    JsonNode sent = Json.parseTrusted(fake.requests().getFirst().body());
    assertThat(fake.requests().getFirst().path()).isEqualTo("/verify");
    assertThat(sent.get("x402Version").intValue()).isEqualTo(2);
    assertThat(sent.get("paymentRequirements")).isEqualTo(upto().toJson());
    assertThat(fake.settlements()).isEmpty();
  }

  @Test
  void anExpiredAuthorizationIsInvalid() {
    Requirements r = upto();
    ObjectNode payload = funded(r);
    fake.setNow(Instant.now().plus(Duration.ofDays(1)));
    assertThat(client.verify(payload, r))
        .isEqualTo(new VerifyResult(false, "permit2_deadline_expired", FakeFacilitator.PAYER));
    Requirements e = X402Test.exact();
    assertThat(client.verify(funded(e), e).invalidReason())
        .isEqualTo("invalid_exact_evm_payload_authorization_valid_before");
  }

  @Test
  void aRefusedAuthorizationIsInvalidWithTheFacilitatorsReason() {
    fake.refuseVerifications("insufficient_funds");
    VerifyResult result = client.verify(funded(upto()), upto());
    assertThat(result.isValid()).isFalse();
    assertThat(result.invalidReason()).isEqualTo("insufficient_funds");
  }

  @Test
  void theFacilitatorsMessageForPeopleIsKeptBesideItsReasonMadePrintableAndShort() {
    fake.refuseVerifications("insufficient_funds");
    fake.refuseWithMessage("the payer holds 3.00 USDC\u0000\n" + "x".repeat(1000));
    String reason = client.verify(funded(upto()), upto()).invalidReason();
    assertThat(reason)
        .startsWith("insufficient_funds: the payer holds 3.00 USDC\\u0000\\u000A")
        .endsWith("…")
        .hasSizeLessThan(360);
  }

  @Test
  void verifyingMoreThanWasAuthorizedIsInvalid() {
    Requirements r = upto();
    assertThat(client.verify(funded(r), r.withAmount("10000001")).invalidReason())
        .isEqualTo("invalid_upto_evm_payload_amount_mismatch");
  }

  @Test
  void anUnavailableFacilitatorIsAnException() {
    fake.failNext(1);
    assertThatThrownBy(() -> client.verify(funded(upto()), upto()))
        .isInstanceOf(FacilitatorUnavailableException.class)
        .hasMessageContaining("HTTP 503")
        .hasMessageContaining(fake.uri() + "/verify");
  }

  @Test
  void anUnreachableFacilitatorIsAnException() throws IOException {
    int port;
    try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      port = s.getLocalPort();
    }
    X402Facilitator nobody =
        facilitator(URI.create("http://127.0.0.1:" + port), Duration.ofSeconds(2));
    assertThatThrownBy(() -> nobody.verify(funded(upto()), upto()))
        .isInstanceOf(FacilitatorUnavailableException.class)
        .hasMessageContaining("could not be reached");
  }

  @Test
  void aFacilitatorOnAnInternalAddressTheOperatorDidNotAllowIsNeverCalled() {
    X402Facilitator unallowed =
        new X402Facilitator(
            fake.uri(), Duration.ofSeconds(2), new GuardedHttpClient(FetchPolicy.DEFAULTS));
    assertThatThrownBy(() -> unallowed.verify(funded(upto()), upto()))
        .isInstanceOf(FacilitatorUnavailableException.class)
        .hasMessageContaining("is not an allowed destination")
        .hasMessageContaining("loopback");
    Requirements r = upto();
    assertThat(unallowed.deliver(settlement(funded(r), r)))
        .isInstanceOfSatisfying(
            Attempt.Retry.class,
            retry -> assertThat(retry.reason()).contains("is not an allowed destination"));
    assertThat(fake.settlements()).isEmpty();
  }

  @Test
  void aSlowFacilitatorIsAnException() {
    X402Facilitator impatient = facilitator(fake.uri(), Duration.ofMillis(300));
    fake.hangNext(1, Duration.ofSeconds(3));
    long start = System.nanoTime();
    assertThatThrownBy(() -> impatient.verify(funded(upto()), upto()))
        .isInstanceOf(FacilitatorUnavailableException.class)
        .hasMessageContaining("did not answer within 300 ms");
    assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(2));
  }

  @Test
  void aMalformedRequestIsRefusedByTheFakeWith400() {
    ObjectNode payload = funded(upto());
    ((ObjectNode) payload.at("/payload/permit2Authorization")).remove("nonce");
    assertThatThrownBy(() -> client.verify(payload, upto()))
        .isInstanceOf(FacilitatorUnavailableException.class)
        .hasMessageContaining("HTTP 400")
        .hasMessageContaining("nonce is missing");
  }

  // --- settle ---------------------------------------------------------------------------------

  @Test
  void aSettlementChargesTheReleasedAmountAndIsDelivered() {
    Requirements r = upto();
    ObjectNode payload = funded(r);
    assertThat(client.verify(payload, r).isValid()).isTrue();
    Attempt attempt = client.deliver(settlement(payload, r.withAmount("7500000")));

    assertThat(attempt).isInstanceOf(Attempt.Delivered.class);
    Attempt.Delivered delivered = (Attempt.Delivered) attempt;
    assertThat(delivered.status()).isEqualTo(200);
    JsonNode response = Json.parseTrusted(delivered.response());
    assertThat(response.get("success").booleanValue()).isTrue();
    assertThat(response.get("network").textValue()).isEqualTo("eip155:84532");
    assertThat(response.get("payer").textValue()).isEqualTo(FakeFacilitator.PAYER);
    assertThat(response.get("transaction").textValue()).matches("0x[0-9a-f]{64}");
    assertThat(response.get("settledAmount").textValue()).isEqualTo("7500000");

    String nonce = payload.at("/payload/permit2Authorization/nonce").textValue();
    assertThat(fake.settlements())
        .containsExactly(
            new FakeFacilitator.Settlement(
                nonce,
                "7500000",
                r.payTo(),
                response.get("transaction").textValue(),
                FakeFacilitator.PAYER,
                r.asset(),
                r.network()));
    assertThat(fake.requests().getLast().path()).isEqualTo("/settle");
  }

  @Test
  void anExactSettlementMovesTheWholeAuthorization() {
    Requirements r = X402Test.exact();
    ObjectNode payload = funded(r);
    assertThat(client.deliver(settlement(payload, r))).isInstanceOf(Attempt.Delivered.class);
    assertThat(fake.settlements())
        .singleElement()
        .satisfies(s -> assertThat(s.amount()).isEqualTo("10000000"));
  }

  @Test
  void aRepeatedSettlementIsIdempotent() {
    Requirements r = upto();
    ObjectNode payload = funded(r);
    OutboxMessage m = settlement(payload, r.withAmount("4000000"));
    Attempt first = client.deliver(m);
    Attempt second = client.deliver(m);
    Attempt third = client.deliver(settlement(payload, r.withAmount("4000000")));

    assertThat(first).isInstanceOf(Attempt.Delivered.class);
    assertThat(second).isEqualTo(first);
    assertThat(third).isEqualTo(first);
    assertThat(fake.settlements()).hasSize(1);
    assertThat(fake.settlements().getFirst().amount()).isEqualTo("4000000");

    // The same authorization for another amount is not a retry: the nonce is spent.
    assertThat(client.deliver(settlement(payload, r.withAmount("5000000"))))
        .isEqualTo(new Attempt.Failed("nonce_already_used"));
    assertThat(client.verify(payload, r).invalidReason()).isEqualTo("nonce_already_used");
    assertThat(fake.settlements()).hasSize(1);
  }

  @Test
  void aSettlementAfterUnavailabilityIsRetriedThenDelivered() {
    Requirements r = upto();
    OutboxMessage m = settlement(funded(r), r.withAmount("10000000"));
    fake.failNext(2);
    assertThat(client.deliver(m))
        .isInstanceOfSatisfying(
            Attempt.Retry.class,
            retry -> assertThat(retry.reason()).contains("HTTP 503", "/settle"));
    assertThat(client.deliver(m)).isInstanceOf(Attempt.Retry.class);
    assertThat(fake.settlements()).isEmpty();
    assertThat(client.deliver(m)).isInstanceOf(Attempt.Delivered.class);
    assertThat(fake.settlements()).hasSize(1);
  }

  @Test
  void aRefusedSettlementHasFailed() {
    Requirements r = upto();
    fake.refuseSettlements("insufficient_funds");
    assertThat(client.deliver(settlement(funded(r), r.withAmount("1"))))
        .isEqualTo(new Attempt.Failed("insufficient_funds"));
    assertThat(fake.settlements()).isEmpty();

    fake.refuseWithMessage("balance 0.99 below 1.00");
    assertThat(client.deliver(settlement(funded(r), r.withAmount("1"))))
        .isEqualTo(new Attempt.Failed("insufficient_funds: balance 0.99 below 1.00"));
  }

  @Test
  void aSettlementAfterTheAuthorizationExpiredHasFailed() {
    Requirements r = upto();
    ObjectNode payload = funded(r);
    fake.setNow(Instant.now().plus(Duration.ofDays(2)));
    assertThat(client.deliver(settlement(payload, r.withAmount("1"))))
        .isEqualTo(new Attempt.Failed("permit2_deadline_expired"));
  }

  @Test
  void aLostAnswerIsRetriedAndTheRetryGetsTheSameTransaction() {
    Requirements r = upto();
    X402Facilitator impatient = facilitator(fake.uri(), Duration.ofMillis(300));
    OutboxMessage m = settlement(funded(r), r.withAmount("2000000"));
    fake.hangNext(1, Duration.ofSeconds(3));

    Attempt first = impatient.deliver(m);
    assertThat(first)
        .isInstanceOfSatisfying(
            Attempt.Retry.class,
            retry -> assertThat(retry.reason()).contains("did not answer within 300 ms"));
    // The fake settled before its answer was lost; the retry must not pay twice.
    Attempt second = impatient.deliver(m);
    assertThat(second).isInstanceOf(Attempt.Delivered.class);
    assertThat(fake.settlements()).hasSize(1);
    assertThat(
            Json.parseTrusted(((Attempt.Delivered) second).response())
                .get("transaction")
                .textValue())
        .isEqualTo(fake.settlements().getFirst().transaction());
  }

  @Test
  void unreadableOrOversizedAnswersAreRetried() throws IOException {
    HttpServer odd =
        HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    odd.createContext(
        "/",
        exchange -> {
          byte[] body =
              exchange.getRequestURI().getPath().equals("/settle")
                  ? "<html>gateway</html>".getBytes(StandardCharsets.UTF_8)
                  : ("{\"success\":true,\"pad\":\""
                          + "x".repeat(X402Facilitator.MAX_RESPONSE_BYTES)
                          + "\"}")
                      .getBytes(StandardCharsets.UTF_8);
          exchange.sendResponseHeaders(200, body.length);
          exchange.getResponseBody().write(body);
          exchange.close();
        });
    odd.start();
    try {
      URI base = URI.create("http://127.0.0.1:" + odd.getAddress().getPort());
      X402Facilitator c = facilitator(base, Duration.ofSeconds(5));
      Requirements r = upto();
      OutboxMessage m = settlement(funded(r), r);
      assertThat(c.deliver(m))
          .isInstanceOfSatisfying(
              Attempt.Retry.class,
              retry -> assertThat(retry.reason()).contains("without a SettleResponse"));
      X402Facilitator big = facilitator(URI.create(base + "/big"), Duration.ofSeconds(5));
      assertThat(big.deliver(m))
          .isInstanceOfSatisfying(
              Attempt.Retry.class,
              retry ->
                  assertThat(retry.reason())
                      .contains("more than " + X402Facilitator.MAX_RESPONSE_BYTES + " bytes"));
    } finally {
      odd.stop(0);
    }
  }

  @Test
  void aSettlementWithoutAnyFacilitatorIsRetried() throws IOException {
    int port;
    try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      port = s.getLocalPort();
    }
    X402Facilitator nobody =
        facilitator(URI.create("http://127.0.0.1:" + port + "/"), Duration.ofSeconds(2));
    assertThat(nobody.settleUri()).isEqualTo(URI.create("http://127.0.0.1:" + port + "/settle"));
    Requirements r = upto();
    assertThat(nobody.deliver(settlement(funded(r), r)))
        .isInstanceOfSatisfying(
            Attempt.Retry.class,
            retry -> assertThat(retry.reason()).contains("could not be reached"));
  }

  @Test
  void thePaymentResponseHeaderDecodesToTheSettleResponse() {
    Requirements r = upto();
    Attempt.Delivered delivered =
        (Attempt.Delivered) client.deliver(settlement(funded(r), r.withAmount("3000000")));
    JsonNode response = Json.parseTrusted(delivered.response());
    String header = X402.header(response);
    JsonNode decoded =
        Json.parseTrusted(new String(Base64.getDecoder().decode(header), StandardCharsets.UTF_8));
    assertThat(decoded).isEqualTo(response);
    assertThat(decoded.get("transaction").textValue())
        .isEqualTo(fake.settlements().getFirst().transaction());
  }

  @Test
  void theFakeRefusesMalformedBodies() {
    X402Facilitator c = client;
    Requirements r = upto();
    ObjectNode payload = funded(r);
    for (String body :
        java.util.List.of(
            "not json",
            "[]",
            "{\"x402Version\":1,\"paymentPayload\":{},\"paymentRequirements\":{}}",
            "{\"x402Version\":2,\"paymentPayload\":" + Json.write(payload) + "}",
            "{\"x402Version\":2,\"paymentPayload\":"
                + Json.write(payload)
                + ",\"paymentRequirements\":"
                + Json.write(r.toJson())
                + ",\"extra\":1}",
            "{\"x402Version\":2,\"paymentPayload\":"
                + Json.write(payload)
                + ",\"paymentRequirements\":"
                + Json.write(r.toJson())
                + "}{}")) {
      OutboxMessage m =
          new OutboxMessage(
              "m", "a", "x402.settle", c.settleUri().toString(), body, Instant.now(), 0);
      assertThat(c.deliver(m))
          .as(body)
          .isInstanceOfSatisfying(
              Attempt.Retry.class,
              retry -> assertThat(retry.reason()).contains("HTTP 400", "error"));
    }
    assertThat(fake.settlements()).isEmpty();
  }
}
