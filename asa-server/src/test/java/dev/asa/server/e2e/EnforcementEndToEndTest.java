package dev.asa.server.e2e;

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
import dev.asa.server.escrow.WebhookReceiver;
import dev.asa.server.escrow.x402.Requirements;
import dev.asa.server.net.FetchPolicy;
import dev.asa.testing.Fixtures;
import dev.asa.testing.MutableClock;
import java.math.BigDecimal;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Issue 6 end to end, one test per path, through the real server over HTTP with a movable clock:
 * release at each tier and in continuous mode, optimistic and pessimistic enforcement, every
 * dead-man's switch and evaluator-timeout action, challenge then ruling, and the http_callback and
 * x402 rails against real local receivers. Money is checked in the ledger itself ({@code GET
 * /agreements/{id}/escrow}, {@code GET /accounts/{key}}), not only in the agreement's summary.
 */
class EnforcementEndToEndTest {
  @TempDir Path dataDir;
  private final MutableClock clock = new MutableClock(Instant.parse("2026-11-22T10:00:00Z"));
  private AsaServer server;
  private WebhookReceiver payments;
  private WebhookReceiver ajp;
  private FakeFacilitator facilitator;
  private AsaClient client;
  private AsaClient provider;
  private AsaClient evaluator;
  private AsaClient operator;
  private AsaClient arbiter;
  private AsaClient stranger;

  @BeforeEach
  void start() {
    // The receivers check signatures with the server's key: make it first, the server then loads
    // it.
    var serverKey = dev.asa.server.ServerKey.loadOrCreate(dataDir).publicKey();
    payments = new WebhookReceiver(serverKey, clock);
    ajp = new WebhookReceiver(serverKey, clock);
    facilitator = new FakeFacilitator();
    facilitator.setNow(clock.instant());
    server =
        AsaServer.start(
            ServerConfig.defaults()
                .withPort(0)
                .withDataDir(dataDir)
                .withClock(clock)
                .withOutboxPolling(false) // the test counts what each delivery sends
                .withOperatorKey(Fixtures.key("operator").publicKey())
                .withEscrow(
                    EscrowConfig.DEFAULTS
                        .withCallbackUrlPrefixes(List.of(payments.uri().toString()))
                        .withX402Facilitator(facilitator.uri())
                        .withDisputeEndpoints(Map.of("ajp", URI.create(ajp.uri() + "/disputes")))
                        .withArbiterKeys(Set.of(Fixtures.key("arbiter").publicKey()))
                        .withDeliveryTimeout(Duration.ofSeconds(2)))
                // The receivers and the facilitator are loopback test servers: the operator allows
                // them.
                .withFetchPolicy(
                    new FetchPolicy(
                        List.of(
                            payments.uri().toString(),
                            ajp.uri().toString(),
                            facilitator.uri() + "/"))));
    AsaClient anonymous = AsaClient.connect(URI.create(server.url("127.0.0.1")));
    client = anonymous.withKey(Fixtures.key("alice"), clock);
    provider = anonymous.withKey(Fixtures.key("bob"), clock);
    evaluator = anonymous.withKey(Fixtures.key("eval-1"), clock);
    operator = anonymous.withKey(Fixtures.key("operator"), clock);
    arbiter = anonymous.withKey(Fixtures.key("arbiter"), clock);
    stranger = anonymous.withKey(Fixtures.key("mallory"), clock);
  }

  @AfterEach
  void stop() {
    server.close();
    payments.close();
    ajp.close();
    facilitator.close();
  }

  // ---- release by tier, continuous, optimistic vs pessimistic
  // -------------------------------------

  /**
   * The general template: composite = 0.30 accuracy + 0.25 completeness + 0.30 relevance + 15
   * (timeliness); tiers >= 90: 100%, >= 75: 85%, >= 60: 50%, < 60: 0%; dispute threshold 60.
   */
  @ParameterizedTest(name = "composite {3} releases {4}%")
  @CsvSource({
    "95, 80, 95, 92, 100, 10.00, 0.00",
    "75, 80, 75, 80, 85, 8.50, 1.50",
    "60, 56, 60, 65, 50, 5.00, 5.00",
    "60, 4, 20, 40, 0, 0.00, 10.00"
  })
  void theChallengeWindowPassesAndTheTierReleasesItsShare(
      int accuracy,
      int completeness,
      int relevance,
      String composite,
      String percent,
      String released,
      String refunded) {
    String id = funded(Fixtures.general());
    provider.deliver(id, "# Findings\n\nText.\n", "markdown");
    JsonNode verified =
        evaluator.verify(id, LifecycleEndToEndTest.judgedScores(accuracy, completeness, relevance));
    assertThat(verified.path("verification").path("composite").path("score").decimalValue())
        .isEqualByComparingTo(composite);
    assertThat(verified.path("state").asText()).isEqualTo("VERIFIED");
    assertThat(client.escrow(id).path("status").asText()).isEqualTo("held");

    clock.advance(Duration.ofSeconds(7199));
    server.fireDueTimers();
    assertThat(client.agreement(id).path("state").asText())
        .as("still inside the window")
        .isEqualTo("VERIFIED");
    clock.advance(Duration.ofSeconds(1));
    server.fireDueTimers();

    assertThat(client.agreement(id).path("state").asText()).isEqualTo("CLOSED");
    JsonNode payment = client.status(id).path("payment");
    assertThat(payment.path("status").asText()).isEqualTo("settled");
    assertThat(payment.path("release_percent").decimalValue()).isEqualByComparingTo(percent);
    assertThat(payment.path("released_to_provider").asText()).isEqualTo(released);
    assertThat(payment.path("refunded_to_client").asText()).isEqualTo(refunded);
    assertLedger(id, released, refunded);

    boolean lowScore = new BigDecimal(composite).compareTo(BigDecimal.valueOf(60)) < 0;
    server.deliverDueMessages();
    assertThat(ajp.appliedBodies().values())
        .as("a dispute filed only for a score under the threshold")
        .hasSize(lowScore ? 1 : 0);
    if (lowScore) {
      JsonNode filing = Json.parseTrusted(ajp.appliedBodies().values().iterator().next());
      assertThat(filing.path("type").asText()).isEqualTo("dispute.filed");
      JsonNode evidence = filing.path("data").path("evidence");
      assertThat(evidence.path("agreement").path("agreement_id").asText()).isEqualTo(id);
      assertThat(evidence.path("deliverable_hash").asText()).startsWith("sha256:");
      assertThat(
              evidence.path("verification_result").path("composite").path("score").decimalValue())
          .isEqualByComparingTo("40");
      assertThat(evidence.path("event_log").size()).isGreaterThanOrEqualTo(5);
      assertThat(
              client
                  .agreement(id)
                  .path("agreement")
                  .path("metadata")
                  .path("settlement")
                  .path("auto_filed_dispute")
                  .path("protocol")
                  .asText())
          .isEqualTo("ajp");
    }
  }

  @Test
  void continuousModeReleasesTheCompositeShareWithoutCliffs() {
    ObjectNode doc = Fixtures.general();
    doc.withObject("/escrow/payment/graduated_release").put("mode", "continuous").putArray("tiers");
    String id = funded(doc);
    provider.deliver(id, "# Findings\n", "markdown");
    evaluator.verify(id, LifecycleEndToEndTest.judgedScores(75, 80, 75)); // composite 80
    clock.advance(Duration.ofHours(2));
    server.fireDueTimers();
    assertLedger(id, "8.00", "2.00");
  }

  @Test
  void pessimisticVerificationEnforcesAtOnceOptimisticWaits() {
    ObjectNode doc = Fixtures.general();
    doc.putObject("verification").put("strategy", "pessimistic");
    String pessimistic = funded(doc);
    provider.deliver(pessimistic, "# Findings\n", "markdown");
    assertThat(
            evaluator
                .verify(pessimistic, LifecycleEndToEndTest.judgedScores(75, 80, 75))
                .path("state")
                .asText())
        .isEqualTo("CLOSED");
    assertLedger(pessimistic, "8.50", "1.50");

    String optimistic = funded(Fixtures.general());
    provider.deliver(optimistic, "# Findings\n", "markdown");
    evaluator.verify(optimistic, LifecycleEndToEndTest.judgedScores(75, 80, 75));
    assertThat(client.escrow(optimistic).path("transfers").size())
        .as("only fund and hold so far")
        .isEqualTo(2);
    assertThatThrownBy(() -> client.close(optimistic))
        .isInstanceOfSatisfying(
            AsaApiException.class, e -> assertThat(e.detail()).contains("window is still open"));
  }

  @Test
  void deliveryWaitsForFundingAndFundingHappensOnce() {
    String id = active(Fixtures.general());
    assertThatThrownBy(() -> provider.deliver(id, "# Findings\n", "markdown"))
        .isInstanceOfSatisfying(
            AsaApiException.class,
            e -> {
              assertThat(e.status()).isEqualTo(409);
              assertThat(e.detail()).contains("not funded");
            });
    assertThatThrownBy(() -> client.fund(id, Json.object().put("amount", "9.99")))
        .isInstanceOfSatisfying(AsaApiException.class, e -> assertThat(e.status()).isEqualTo(422));
    assertThatThrownBy(() -> provider.fund(id))
        .isInstanceOfSatisfying(AsaApiException.class, e -> assertThat(e.status()).isEqualTo(403));
    client.fund(id, Json.object().put("amount", "10.00").put("currency", "USD"));
    assertThatThrownBy(() -> client.fund(id))
        .isInstanceOfSatisfying(AsaApiException.class, e -> assertThat(e.status()).isEqualTo(409));
    JsonNode escrow = client.escrow(id);
    assertThat(escrow.path("balances").path("USD").asText()).isEqualTo("10.00");
    assertThat(escrow.path("transfers").findValuesAsText("kind")).containsExactly("fund", "hold");
    assertThat(
            client
                .account(Fixtures.key("alice").publicKey().toBase64Url())
                .path("balances")
                .path("USD")
                .asText())
        .as("the client's money moved on into escrow")
        .isEqualTo("0.00");
    assertThatThrownBy(() -> provider.account(Fixtures.key("alice").publicKey().toBase64Url()))
        .isInstanceOfSatisfying(AsaApiException.class, e -> assertThat(e.status()).isEqualTo(403));
  }

  // ---- dead-man's switches
  // ------------------------------------------------------------------------

  @Test
  void anUnfundedAgreementExpiresAfterTheClientTimeout() {
    String id = active(Fixtures.general());
    clock.advance(Duration.ofSeconds(86_400));
    server.fireDueTimers();
    assertThat(client.agreement(id).path("state").asText()).isEqualTo("EXPIRED");
    assertThat(client.escrow(id).path("transfers")).isEmpty();
    assertThat(client.status(id).path("payment").path("status").asText()).isEqualTo("nothing_held");
  }

  @Test
  void anUndeliveredAgreementIsRefundedAfterTheProviderTimeout() {
    String id = funded(Fixtures.general());
    clock.advance(Duration.ofSeconds(86_399));
    server.fireDueTimers();
    assertThat(client.agreement(id).path("state").asText()).isEqualTo("ACTIVE");
    clock.advance(Duration.ofSeconds(1));
    server.fireDueTimers();
    assertThat(client.agreement(id).path("state").asText()).isEqualTo("EXPIRED");
    assertLedger(id, null, "10.00");
  }

  @Test
  void anAgreementNobodySignsExpiresAtItsExpiry() {
    ObjectNode doc = Fixtures.general();
    doc.put("expires_at", "2026-11-22T12:00:00Z");
    String id = client.createAgreement(doc).path("agreement_id").asText();
    clock.advance(Duration.ofHours(2));
    server.fireDueTimers();
    assertThat(client.agreement(id).path("state").asText()).isEqualTo("EXPIRED");
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource({
    "split_50_50, 5.00, 5.00",
    "return_to_client, , 10.00",
    "release_to_provider, 10.00, "
  })
  void theEvaluatorTimeoutActionSettlesByItsSplit(String action, String released, String refunded) {
    ObjectNode doc = Fixtures.general();
    doc.withObject("/escrow/dead_mans_switch").put("timeout_action", action);
    String id = funded(doc);
    provider.deliver(id, "# Findings\n", "markdown");
    clock.advance(Duration.ofSeconds(3600));
    server.fireDueTimers();
    assertThat(client.agreement(id).path("state").asText()).isEqualTo("EXPIRED");
    assertLedger(id, released, refunded);
    assertThat(client.events(id).path("events").findValuesAsText("type"))
        .contains("evaluator_timed_out", "expired");
  }

  @Test
  void theBackupEvaluatorVerifiesWhatItCanMeasure() {
    ObjectNode doc = Fixtures.general();
    ObjectNode criteria = doc.withObject("/quality_criteria");
    var dimensions = criteria.putArray("dimensions");
    dimensions
        .addObject()
        .put("name", "timeliness")
        .put("weight", 0.5)
        .put("metric", "boolean")
        .putObject("slo")
        .put("operator", "eq")
        .put("value", true);
    // Two dimensions (an agreement needs more than one, section 3.3), both structural.
    dimensions
        .addObject()
        .put("name", "format_compliance")
        .put("weight", 0.5)
        .put("metric", "percentage")
        .putObject("slo")
        .put("operator", "gte")
        .put("value", 50);
    criteria.putArray("quality_gates");
    String id = funded(doc);
    provider.deliver(id, "# Findings\n", "markdown");
    clock.advance(Duration.ofSeconds(3600));
    server.fireDueTimers();
    JsonNode agreement = client.agreement(id).path("agreement");
    assertThat(agreement.path("status").asText()).isEqualToIgnoringCase("VERIFIED");
    assertThat(agreement.path("metadata").path("evaluator_assignment").path("outcome").asText())
        .isEqualTo("verified");
    clock.advance(Duration.ofSeconds(7200));
    server.fireDueTimers();
    assertLedger(id, "10.00", null);
  }

  @Test
  void withoutABackupThatCanJudgeTheCaseGoesToARulingWithTheMoneyFrozen() {
    String id = funded(Fixtures.general()); // accuracy, completeness, relevance need a judge
    provider.deliver(id, "# Findings\n", "markdown");
    clock.advance(Duration.ofSeconds(3600));
    server.fireDueTimers();
    assertThat(client.agreement(id).path("state").asText()).isEqualTo("DISPUTED");
    assertThat(client.escrow(id).path("status").asText()).isEqualTo("frozen");
    assertThat(client.escrow(id).path("balances").path("USD").asText()).isEqualTo("10.00");
    operator.rule(id, new BigDecimal("30"), "the deliverable covers a third of the request");
    assertLedger(id, "3.00", "7.00");
  }

  // ---- challenge, dispute, ruling
  // -----------------------------------------------------------------

  @Test
  void aChallengeFreezesTheMoneyFilesTheCaseAndARulingSettlesIt() {
    String id = funded(Fixtures.general());
    provider.deliver(id, "# Findings\n", "markdown");
    evaluator.verify(id, LifecycleEndToEndTest.judgedScores(75, 80, 75));
    JsonNode disputed = provider.challenge(id, Role.PROVIDER, "quality_below_agreed_slo");
    assertThat(disputed.path("state").asText()).isEqualTo("DISPUTED");
    assertThat(client.escrow(id).path("status").asText()).isEqualTo("frozen");
    assertThat(client.status(id).path("deadlines").path("challenge_window_open").asBoolean())
        .as("the challenge ended the window before its time")
        .isFalse();

    clock.advance(Duration.ofHours(3)); // the window's end no longer enforces anything
    server.fireDueTimers();
    assertThat(client.escrow(id).path("transfers").size()).isEqualTo(2);

    server.deliverDueMessages();
    assertThat(ajp.appliedBodies()).hasSize(1);
    JsonNode filing =
        Json.parseTrusted(ajp.appliedBodies().values().iterator().next()).path("data");
    assertThat(filing.path("reason_code").asText()).isEqualTo("quality_below_agreed_slo");
    assertThat(filing.path("filed_by").asText()).isEqualTo("provider");

    assertThatThrownBy(() -> client.rule(id, BigDecimal.TEN, "I am the client"))
        .isInstanceOfSatisfying(AsaApiException.class, e -> assertThat(e.status()).isEqualTo(403));
    assertThatThrownBy(() -> stranger.rule(id, BigDecimal.TEN, "who am I"))
        .isInstanceOfSatisfying(AsaApiException.class, e -> assertThat(e.status()).isEqualTo(404));
    assertThatThrownBy(() -> arbiter.rule(id, new BigDecimal("100.5"), "too much"))
        .isInstanceOfSatisfying(AsaApiException.class, e -> assertThat(e.status()).isEqualTo(422));
    JsonNode ruled =
        arbiter.rule(
            id,
            new BigDecimal("95"),
            "the score understated the work; the evaluator missed section 2");
    assertThat(ruled.path("state").asText()).isEqualTo("CLOSED");
    JsonNode settlement = ruled.path("agreement").path("metadata").path("settlement");
    assertThat(settlement.path("ruling").path("ruled_by").asText()).isEqualTo("arbiter");
    assertThat(settlement.path("verification_id").asText()).startsWith("ver-");
    assertLedger(id, "9.50", "0.50");
    JsonNode status = client.status(id);
    assertThat(status.path("ruling").path("ruled_by").asText()).isEqualTo("arbiter");
    assertThat(status.path("ruling").path("release_percent").decimalValue())
        .isEqualByComparingTo("95");
    assertThatThrownBy(() -> operator.rule(id, BigDecimal.ZERO, "again"))
        .isInstanceOfSatisfying(AsaApiException.class, e -> assertThat(e.status()).isEqualTo(409));
  }

  @Test
  void racingClosesAndTheTimerPayOnce() throws Exception {
    String id = funded(Fixtures.general());
    provider.deliver(id, "# Findings\n", "markdown");
    evaluator.verify(id, LifecycleEndToEndTest.judgedScores(75, 80, 75));
    clock.advance(Duration.ofHours(3));
    var pool = java.util.concurrent.Executors.newFixedThreadPool(6);
    List<java.util.concurrent.Future<?>> calls = new ArrayList<>();
    for (int i = 0; i < 6; i++) {
      int n = i;
      calls.add(
          pool.submit(() -> {
            try {
              if (n == 0) server.fireDueTimers();
              else (n % 2 == 0 ? client : provider).close(id);
            } catch (AsaApiException refused) {
              assertThat(refused.status()).isEqualTo(409);
            }
          }));
    }
    for (var c : calls) c.get();
    pool.shutdown();
    assertLedger(id, "8.50", "1.50");
  }

  // ---- rails
  // ----------------------------------------------------------------------------------------

  @Test
  void httpCallbackMessagesArriveThroughOutagesAndAreAppliedOnce() {
    ObjectNode doc = Fixtures.general();
    ((ObjectNode) doc.path("escrow"))
        .putObject("binding")
        .put("type", "http_callback")
        .put("url", payments.uri() + "/asa");
    payments.mode(WebhookReceiver.Mode.DOWN);
    String id = funded(doc);
    provider.deliver(id, "# Findings\n", "markdown");
    evaluator.verify(id, LifecycleEndToEndTest.judgedScores(75, 80, 75));
    clock.advance(Duration.ofHours(2));
    server
        .fireDueTimers(); // closes: release 8.50 and refund 1.50 instructions join the fund request

    assertThat(server.deliverDueMessages()).isZero();
    JsonNode messages = client.escrow(id).path("messages");
    assertThat(messages.findValuesAsText("kind"))
        .containsExactlyInAnyOrder("escrow.fund_requested", "escrow.release", "escrow.refund");
    assertThat(messages.findValuesAsText("status")).containsOnly("pending");
    assertThat(messages.get(0).path("last_error").asText()).contains("refused");

    payments.mode(WebhookReceiver.Mode.ERRORS);
    for (int i = 0; i < 3; i++) {
      clock.advance(Duration.ofMinutes(20));
      assertThat(server.deliverDueMessages()).isZero();
    }
    assertThat(client.escrow(id).path("messages").get(0).path("last_error").asText())
        .contains("500");
    assertThat(client.escrow(id).path("messages").get(0).path("attempts").asInt()).isEqualTo(4);

    payments.mode(WebhookReceiver.Mode.UP);
    clock.advance(Duration.ofMinutes(20));
    assertThat(server.deliverDueMessages()).isEqualTo(3);
    clock.advance(Duration.ofMinutes(20));
    assertThat(server.deliverDueMessages()).as("nothing is sent twice once delivered").isZero();

    assertThat(payments.appliedIds()).hasSize(3).doesNotHaveDuplicates();
    assertThat(client.escrow(id).path("messages").findValuesAsText("status"))
        .containsOnly("delivered");
    JsonNode release =
        payments.appliedBodies().values().stream()
            .map(Json::parseTrusted)
            .filter(b -> b.path("type").asText().equals("escrow.release"))
            .findFirst()
            .orElseThrow();
    assertThat(release.path("data").path("amount").asText()).isEqualTo("8.50");
    assertThat(release.path("data").path("to").path("role").asText()).isEqualTo("provider");
    assertLedger(id, "8.50", "1.50");
  }

  /**
   * A webhook the receiver applied but whose answer the server never saw (its timeout, or a crash
   * between sending and recording) goes out again: with the same {@code webhook-id}, which is what
   * a Standard Webhooks receiver de-duplicates by, so it is applied once.
   */
  @Test
  void aWebhookWhoseAnswerWasLostIsResentWithTheSameWebhookId() throws InterruptedException {
    ObjectNode doc = Fixtures.general();
    ((ObjectNode) doc.path("escrow"))
        .putObject("binding")
        .put("type", "http_callback")
        .put("url", payments.uri() + "/asa");
    payments.delay(Duration.ofSeconds(3)); // longer than the server's 2 s delivery timeout
    funded(doc);
    assertThat(server.deliverDueMessages()).as("the server gave up waiting").isZero();
    long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
    while (payments.appliedIds().isEmpty() && System.nanoTime() < deadline) {
      Thread.sleep(50); // the receiver applies it after the server stopped listening
    }
    assertThat(payments.appliedIds()).hasSize(1);
    String applied = payments.appliedIds().get(0);

    payments.delay(Duration.ZERO);
    clock.advance(Duration.ofMinutes(20));
    assertThat(server.deliverDueMessages()).isEqualTo(1);

    assertThat(payments.receivedIds())
        .as("every attempt carried the same webhook-id")
        .hasSize(2)
        .containsOnly(applied);
    assertThat(payments.appliedIds()).containsExactly(applied);
  }

  @Test
  void aCallbackUrlTheOperatorDidNotAllowIsRefusedAtCreation() {
    ObjectNode doc = Fixtures.general();
    ((ObjectNode) doc.path("escrow"))
        .putObject("binding")
        .put("type", "http_callback")
        .put("url", "http://169.254.169.254/latest");
    assertThatThrownBy(() -> client.createAgreement(doc))
        .isInstanceOfSatisfying(
            AsaApiException.class,
            e -> {
              assertThat(e.status()).isEqualTo(422);
              assertThat(e.detail() + e.body()).contains("/escrow/binding/url");
            });
  }

  @Test
  void x402CapturesTheAuthorizationAtFundingAndSettlesTheReleasedAmount() {
    ObjectNode doc = X402Documents.upto();
    String id = active(doc);
    Requirements requirements =
        Requirements.fromJson(client.escrow(id).path("x402_requirements"), "/x402_requirements");
    assertThat(requirements.amount()).isEqualTo("10000000");
    ObjectNode body = Json.object();
    body.set("x402", FakeFacilitator.paymentPayload(requirements, clock.instant()));
    client.fund(id, body);
    assertThat(client.agreement(id).path("agreement").toString())
        .as("the authorization stays out of the document")
        .doesNotContain("permit2Authorization");

    provider.deliver(id, "# Findings\n", "markdown");
    evaluator.verify(id, LifecycleEndToEndTest.judgedScores(75, 80, 75));
    clock.advance(Duration.ofHours(2));
    server.fireDueTimers();
    facilitator.failNext(1);
    assertThat(server.deliverDueMessages()).isZero();
    clock.advance(Duration.ofMinutes(20));
    assertThat(server.deliverDueMessages()).isEqualTo(1);
    assertThat(facilitator.settlements()).hasSize(1);
    assertThat(facilitator.settlements().getFirst().amount()).isEqualTo("8500000");
    JsonNode settle = client.escrow(id).path("messages").get(0);
    assertThat(settle.path("status").asText()).isEqualTo("delivered");
    assertThat(settle.path("response").asText()).contains("success");
    assertLedger(id, "8.500000", "1.500000");
  }

  @Test
  void anExactX402EscrowIsRuledWholeOrNothing() {
    ObjectNode doc = X402Documents.exact();
    String id = active(doc);
    Requirements requirements =
        Requirements.fromJson(client.escrow(id).path("x402_requirements"), "/x402_requirements");
    ObjectNode body = Json.object();
    body.set("x402", FakeFacilitator.paymentPayload(requirements, clock.instant()));
    client.fund(id, body);
    provider.deliver(id, "# Findings\n", "markdown");
    evaluator.verify(id, LifecycleEndToEndTest.judgedScores(75, 80, 75));
    provider.challenge(id, Role.PROVIDER, "quality_below_agreed_slo");

    assertThatThrownBy(() -> operator.rule(id, new BigDecimal("50"), "half of it"))
        .isInstanceOfSatisfying(
            AsaApiException.class,
            e -> {
              assertThat(e.status()).isEqualTo(422);
              assertThat(e.body()).contains("/release_percent").contains("whole amount or nothing");
            });
    assertThat(client.agreement(id).path("state").asText()).isEqualTo("DISPUTED");
    assertThat(operator.rule(id, new BigDecimal("100"), "all of it").path("state").asText())
        .isEqualTo("CLOSED");
    assertThat(server.deliverDueMessages()).isEqualTo(2); // the dispute filing, the settlement
    assertThat(facilitator.settlements()).hasSize(1);
    assertThat(facilitator.settlements().getFirst().amount()).isEqualTo("10000000");
  }

  // ---- helpers
  // ------------------------------------------------------------------------------------

  private String active(ObjectNode doc) {
    String id = client.createAgreement(doc).path("agreement_id").asText();
    client.sign(id, Role.CLIENT, Fixtures.key("alice"));
    provider.sign(id, Role.PROVIDER, Fixtures.key("bob"));
    return id;
  }

  private String funded(ObjectNode doc) {
    String id = active(doc);
    client.fund(id);
    return id;
  }

  /**
   * The ledger agrees: the escrow account is empty, at most one release and one refund, the
   * released and refunded amounts as expected (null: no such transfer), and the provider's and
   * client's accounts hold them.
   */
  private void assertLedger(String id, String released, String refunded) {
    JsonNode escrow = client.escrow(id);
    assertThat(escrow.path("balances").elements().next().asText())
        .as("escrow account emptied")
        .matches("0(\\.0+)?");
    List<String> kinds = escrow.path("transfers").findValuesAsText("kind");
    assertThat(kinds).doesNotHaveDuplicates();
    // A zero share books no transfer at all.
    assertThat(amountOf(escrow, "release")).isEqualTo(zeroIsNone(released));
    assertThat(amountOf(escrow, "refund")).isEqualTo(zeroIsNone(refunded));
    BigDecimal held = new BigDecimal(amountOf(escrow, "hold"));
    BigDecimal out =
        new BigDecimal(released == null ? "0" : released)
            .add(new BigDecimal(refunded == null ? "0" : refunded));
    assertThat(out).as("released + refunded == funded").isEqualByComparingTo(held);
  }

  private static String zeroIsNone(String amount) {
    return amount == null || new BigDecimal(amount).signum() == 0 ? null : amount;
  }

  private static String amountOf(JsonNode escrow, String kind) {
    for (JsonNode t : escrow.path("transfers")) {
      if (t.path("kind").asText().equals(kind)) {
        return t.path("amount").asText();
      }
    }
    return null;
  }
}
