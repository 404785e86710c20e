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
import dev.asa.testing.Fixtures;
import dev.asa.testing.MutableClock;
import java.math.BigDecimal;
import java.net.URI;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.UUID;
import java.util.function.Consumer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Collateral bonding (whitepaper section 10, issue 56 item 3) through real HTTP with real
 * signatures, the same on every store: the provider stakes {@code escrow.collateral} on the ledger
 * binding before it delivers; a PASS returns it, a FAIL below the threshold, a lost ruling or a
 * missed delivery deadline slashes it to the client (whole, or {@code slash_percent} of it), and
 * the ledger balances each time (every transfer's two legs, no party below zero, the escrow and
 * collateral accounts empty at the end).
 *
 * <p>The general template: composite = 0.30 accuracy + 0.25 completeness + 0.30 relevance + 15
 * (timeliness), threshold 70, gate accuracy >= 60; tiers >= 90: 100%, >= 75: 85%, >= 60: 50%, < 60:
 * 0%; amount 10.00 USD, provider timeout a day, challenge window two hours.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
abstract class CollateralContract {
  private final MutableClock clock = new MutableClock(Instant.parse("2026-11-22T10:00:00Z"));
  private AsaServer server;
  private AsaClient client;
  private AsaClient provider;
  private AsaClient evaluator;
  private AsaClient operator;
  private AsaClient stranger;

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
                    .withOperatorKey(Fixtures.key("operator").publicKey())
                    .withRateLimit(10_000, 10_000)
                    .withTimerPolling(false)));
    AsaClient anonymous = AsaClient.connect(URI.create(server.url("127.0.0.1")));
    client = anonymous.withKey(Fixtures.key("alice"), clock);
    provider = anonymous.withKey(Fixtures.key("bob"), clock);
    evaluator = anonymous.withKey(Fixtures.key("eval-1"), clock);
    operator = anonymous.withKey(Fixtures.key("operator"), clock);
    stranger = anonymous.withKey(Fixtures.key("mallory"), clock);
  }

  @AfterAll
  void stop() {
    if (server != null) {
      server.close();
    }
  }

  // ---- the outcomes --------------------------------------------------------------------------

  @Test
  void aPassReturnsTheStake() {
    String id = staked(pessimistic(collateral("4.00", c -> {})));
    provider.deliver(id, REPORT, "markdown");
    evaluator.verify(id, LifecycleEndToEndTest.judgedScores(95, 92, 95));

    assertThat(state(id)).isEqualTo("CLOSED");
    JsonNode c = collateral(id);
    assertThat(c.path("status").asText()).isEqualTo("returned");
    assertThat(c.path("returned").asText()).isEqualTo("4.00");
    assertThat(c.path("slashed").asText()).isEqualTo("0.00");
    assertThat(c.has("trigger")).isFalse();
    assertThat(c.path("reason").asText()).isEqualTo("verification_result");
    Map<String, BigDecimal> net = assertBalanced(id);
    assertThat(net.get(party("bob"))).isEqualByComparingTo("14.00"); // 10.00 paid, 4.00 back
    assertThat(net.get(party("alice"))).isEqualByComparingTo("0");
    assertThat(kinds(id))
        .containsExactlyInAnyOrder("fund", "hold", "deposit", "stake", "release", "return");
    assertThat(eventTypes(id))
        .containsSubsequence("collateral_staked", "closed", "collateral_returned");
  }

  @Test
  void aFailBelowTheThresholdSlashesItToTheClient() {
    String id = staked(pessimistic(collateral("4.00", c -> {})));
    provider.deliver(id, REPORT, "markdown");
    // Composite 66.5: under the threshold of 70, so FAIL, though its tier still releases half.
    JsonNode verified = evaluator.verify(id, LifecycleEndToEndTest.judgedScores(70, 50, 60));
    assertThat(verified.path("verification").path("determination").path("result").asText())
        .isEqualTo("FAIL");

    JsonNode c = collateral(id);
    assertThat(c.path("status").asText()).isEqualTo("slashed");
    assertThat(c.path("trigger").asText()).isEqualTo("verification_failure");
    assertThat(c.path("slashed").asText()).isEqualTo("4.00");
    assertThat(c.path("returned").asText()).isEqualTo("0.00");
    Map<String, BigDecimal> net = assertBalanced(id);
    assertThat(net.get(party("alice"))).isEqualByComparingTo("9.00"); // 5.00 refund + 4.00 slash
    assertThat(net.get(party("bob"))).isEqualByComparingTo("5.00"); // released; the stake is gone
    assertThat(net.get("external:ledger")).isEqualByComparingTo("-14.00"); // payment and stake in
    assertThat(kinds(id)).contains("slash").doesNotContain("return");
    assertThat(eventTypes(id)).contains("collateral_slashed").doesNotContain("collateral_returned");
    assertThat(client.status(id).path("collateral").path("status").asText()).isEqualTo("slashed");
  }

  /** A FAIL on a quality gate alone, with the composite above the threshold, is no slash event. */
  @Test
  void aFailOnAGateAloneReturnsIt() {
    String id = staked(pessimistic(collateral("4.00", c -> {})));
    provider.deliver(id, REPORT, "markdown");
    // accuracy 55 fails accuracy_gte_60; the composite is 86.5.
    JsonNode verified = evaluator.verify(id, LifecycleEndToEndTest.judgedScores(55, 100, 100));
    assertThat(verified.path("verification").path("determination").path("result").asText())
        .isEqualTo("FAIL");
    assertThat(collateral(id).path("status").asText()).isEqualTo("returned");
    assertBalanced(id);
  }

  @Test
  void aRulingAgainstTheProviderSlashesIt() {
    String id = staked(collateral("4.00", c -> {})); // optimistic: a two-hour window
    provider.deliver(id, REPORT, "markdown");
    evaluator.verify(id, LifecycleEndToEndTest.judgedScores(95, 92, 95)); // PASS, 100%
    client.challenge(id, Role.CLIENT, "quality_below_agreed_slo");
    assertThat(collateral(id).path("status").asText()).isEqualTo("held");

    operator.rule(id, new BigDecimal("40"), "most claims are unsupported");

    assertThat(state(id)).isEqualTo("CLOSED");
    JsonNode c = collateral(id);
    assertThat(c.path("status").asText()).isEqualTo("slashed");
    assertThat(c.path("trigger").asText()).isEqualTo("dispute_lost");
    assertThat(c.path("reason").asText()).isEqualTo("ruling");
    Map<String, BigDecimal> net = assertBalanced(id);
    assertThat(net.get(party("alice"))).isEqualByComparingTo("10.00"); // 6.00 refund + 4.00
    assertThat(net.get(party("bob"))).isEqualByComparingTo("4.00"); // released; the stake is gone
  }

  @Test
  void aRulingThatUpholdsTheVerdictReturnsIt() {
    String id = staked(collateral("4.00", c -> {}));
    provider.deliver(id, REPORT, "markdown");
    evaluator.verify(id, LifecycleEndToEndTest.judgedScores(75, 80, 75)); // PASS, 85%
    client.challenge(id, Role.CLIENT, "quality_below_agreed_slo");
    operator.rule(id, new BigDecimal("85"), "the verdict stands");
    assertThat(collateral(id).path("status").asText()).isEqualTo("returned");
    assertBalanced(id);
  }

  /** Escalated without a verdict (no evaluator answered): a ruling under 100% is a lost case. */
  @Test
  void aRulingWithoutAVerdictIsMeasuredAgainstTheWholeAmount() {
    String id = staked(collateral("4.00", c -> {}));
    provider.deliver(id, REPORT, "markdown");
    clock.advance(Duration.ofSeconds(3601)); // the evaluator's deadline; no backup can judge
    server.fireDueTimers();
    assertThat(state(id)).isEqualTo("DISPUTED");
    operator.rule(id, new BigDecimal("30"), "a third of the request");
    assertThat(collateral(id).path("trigger").asText()).isEqualTo("dispute_lost");
    assertBalanced(id);
  }

  @Test
  void theProvidersDeliveryTimeoutSlashesIt() {
    String id = staked(collateral("4.00", c -> {}));
    clock.advance(Duration.ofSeconds(86_401)); // the template's provider_timeout_seconds, a day
    server.fireDueTimers();

    assertThat(state(id)).isEqualTo("EXPIRED");
    JsonNode c = collateral(id);
    assertThat(c.path("status").asText()).isEqualTo("slashed");
    assertThat(c.path("trigger").asText()).isEqualTo("provider_timeout");
    Map<String, BigDecimal> net = assertBalanced(id);
    assertThat(net.get(party("alice"))).isEqualByComparingTo("14.00");
    assertThat(net.get(party("bob"))).isEqualByComparingTo("0");
  }

  @Test
  void aSlashOfFortyPercentSplitsTheStake() {
    String id =
        staked(
            pessimistic(
                collateral(
                    "5.55",
                    c ->
                        c.put("slash_percent", 40)
                            .putArray("slash_on")
                            .add("verification_failure"))));
    provider.deliver(id, REPORT, "markdown");
    evaluator.verify(id, LifecycleEndToEndTest.judgedScores(61, 40, 50)); // composite 58.3: 0%

    JsonNode c = collateral(id);
    assertThat(c.path("status").asText()).isEqualTo("slashed");
    assertThat(c.path("slashed").asText()).isEqualTo("2.22");
    assertThat(c.path("returned").asText()).isEqualTo("3.33");
    Map<String, BigDecimal> net = assertBalanced(id);
    assertThat(net.get(party("alice"))).isEqualByComparingTo("12.22");
    assertThat(net.get(party("bob"))).isEqualByComparingTo("3.33");
    assertThat(kinds(id)).contains("slash", "return");
  }

  @Test
  void anEventTheTermsDoNotNameReturnsIt() {
    String id = staked(collateral("4.00", c -> c.putArray("slash_on").add("dispute_lost")));
    clock.advance(Duration.ofSeconds(86_401));
    server.fireDueTimers();
    assertThat(state(id)).isEqualTo("EXPIRED");
    assertThat(collateral(id).path("status").asText()).isEqualTo("returned");
    assertBalanced(id);
  }

  /** The client never funds: its deadline is not the provider's fault, the stake goes back. */
  @Test
  void anAgreementThatEndsUnfundedReturnsTheStakeAndOneThatEndsUnstakedMovesNothing() {
    String stakedFirst = signed(collateral("4.00", c -> {}));
    provider.stakeCollateral(stakedFirst);
    String neverStaked = signed(collateral("4.00", c -> {}));
    clock.advance(Duration.ofSeconds(86_401)); // client_timeout_seconds
    server.fireDueTimers();

    assertThat(state(stakedFirst)).isEqualTo("EXPIRED");
    assertThat(collateral(stakedFirst).path("status").asText()).isEqualTo("returned");
    assertThat(assertBalanced(stakedFirst).get(party("bob"))).isEqualByComparingTo("4.00");

    assertThat(state(neverStaked)).isEqualTo("EXPIRED");
    assertThat(collateral(neverStaked).path("status").asText()).isEqualTo("not_staked");
    assertThat(client.escrow(neverStaked).path("transfers")).isEmpty();
    refused(() -> provider.stakeCollateral(neverStaked), 409, e -> {});
  }

  // ---- the call and its refusals -------------------------------------------------------------

  @Test
  void deliveryWaitsForTheStakeWhichIsOfferedUntilHeld() {
    String id = funded(collateral("4.00", c -> {}));
    JsonNode allowed = client.agreement(id).path("allowed_actions");
    assertThat(Json.write(allowed)).contains("stake_collateral").doesNotContain("deliver");
    assertThat(collateral(id).path("status").asText()).isEqualTo("awaiting");

    refused(
        () -> provider.deliver(id, REPORT, "markdown"),
        409,
        e -> assertThat(e.detail()).contains("has not staked the collateral").contains("4.00 USD"));

    JsonNode staked = provider.stakeCollateral(id);
    assertThat(staked.path("agreement").path("metadata").path("collateral").path("status").asText())
        .isEqualTo("held");
    assertThat(Json.write(staked.path("allowed_actions")))
        .contains("deliver")
        .doesNotContain("stake_collateral");
    JsonNode c = collateral(id);
    assertThat(c.path("status").asText()).isEqualTo("held");
    assertThat(c.path("balances").path("USD").asText()).isEqualTo("4.00");
    assertThat(c.path("collateral_account").asText()).isEqualTo("collateral:" + id);
    refused(
        () -> provider.stakeCollateral(id),
        409,
        e -> assertThat(e.detail()).contains("already staked"));
    assertThat(provider.deliver(id, REPORT, "markdown").path("state").asText())
        .isEqualTo("DELIVERED");
    refused(() -> provider.stakeCollateral(id), 409, e -> {}); // not ACTIVE any more
  }

  @Test
  void theStakeMayComeBeforeTheFunding() {
    String id = signed(pessimistic(collateral("4.00", c -> {})));
    provider.stakeCollateral(id);
    refused(() -> provider.deliver(id, REPORT, "markdown"), 409, e -> {}); // not funded yet
    client.fund(id);
    provider.deliver(id, REPORT, "markdown");
    evaluator.verify(id, LifecycleEndToEndTest.judgedScores(95, 92, 95));
    assertThat(collateral(id).path("status").asText()).isEqualTo("returned");
    assertBalanced(id);
  }

  @Test
  void onlyTheProviderStakesAndOnlyWithNothingInTheBody() {
    String id = funded(collateral("4.00", c -> {}));
    refused(
        () -> client.stakeCollateral(id),
        403,
        e -> assertThat(e.detail()).contains("may not stake collateral on this agreement"));
    refused(() -> evaluator.stakeCollateral(id), 403, e -> {});
    refused(() -> stranger.stakeCollateral(id), 404, e -> {});
    refused(() -> operator.stakeCollateral(id), 404, e -> {});
    refused(
        () -> provider.stakeCollateral(id, Json.object().put("amount", "4.00")),
        422,
        e -> assertThat(e.errors()).anySatisfy(f -> assertThat(f.pointer()).isEqualTo("/amount")));
    assertThat(collateral(id).path("status").asText()).isEqualTo("awaiting");
    assertThat(kinds(id)).containsExactlyInAnyOrder("fund", "hold");
    provider.stakeCollateral(id, Json.object());
    assertThat(collateral(id).path("status").asText()).isEqualTo("held");
  }

  @Test
  void anAgreementWithoutCollateralTermsHasNothingToStake() {
    String id = funded(Fixtures.general());
    refused(
        () -> provider.stakeCollateral(id),
        409,
        e -> assertThat(e.detail()).contains("takes no collateral"));
    assertThat(client.escrow(id).has("collateral")).isFalse();
    assertThat(Json.write(client.agreement(id).path("allowed_actions")))
        .doesNotContain("stake_collateral");
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource(
      delimiter = '|',
      value = {
        "another binding | /escrow/collateral | cannot hold a collateral",
        "another currency | /escrow/collateral/currency | must be the escrow's currency",
        "an unknown event | /escrow/collateral/slash_on/1 | ",
        "a slash of 0% | /escrow/collateral/slash_percent | ",
        "a slash of 150% | /escrow/collateral/slash_percent | ",
        "a stake of nothing | /escrow/collateral/amount | above zero",
      })
  void badTermsAreRefusedAtCreationNamingTheMember(String what, String pointer, String detail) {
    ObjectNode doc =
        collateral(
            "4.00",
            c -> {
              switch (what) {
                case "another currency" -> c.put("currency", "EUR");
                case "an unknown event" ->
                    c.putArray("slash_on").add("provider_timeout").add("late_delivery");
                case "a slash of 0%" -> c.put("slash_percent", 0);
                case "a slash of 150%" -> c.put("slash_percent", 150);
                case "a stake of nothing" -> c.put("amount", "0.00");
                default -> {}
              }
            });
    if (what.equals("another binding")) {
      ((ObjectNode) doc.path("escrow"))
          .putObject("binding")
          .put("type", "http_callback")
          .put("url", "https://payments.example/hook");
    }
    refused(
        () -> client.createAgreement(doc),
        422,
        e ->
            assertThat(e.errors())
                .as(e.body())
                .anySatisfy(f -> {
                  assertThat(f.pointer()).isEqualTo(pointer);
                  if (detail != null) {
                    assertThat(f.detail()).contains(detail);
                  }
                }));
  }

  // ---- helpers ---------------------------------------------------------------------------------

  static final String REPORT = "# Findings\n\nFederated learning keeps the data where it is.\n";

  static ObjectNode pessimistic(ObjectNode doc) {
    doc.putObject("verification").put("strategy", "pessimistic");
    return doc;
  }

  /** The general template with {@code escrow.collateral {amount}} and what {@code edit} adds. */
  static ObjectNode collateral(String amount, Consumer<ObjectNode> edit) {
    ObjectNode doc = Fixtures.general();
    ObjectNode c = ((ObjectNode) doc.path("escrow")).putObject("collateral").put("amount", amount);
    edit.accept(c);
    return doc;
  }

  /** Created with a fresh id and signed by both parties: ACTIVE. */
  String signed(ObjectNode doc) {
    String id = "asa-bond-" + UUID.randomUUID().toString().substring(0, 8);
    doc.put("agreement_id", id);
    client.createAgreement(doc);
    client.sign(id, Role.CLIENT, Fixtures.key("alice"));
    provider.sign(id, Role.PROVIDER, Fixtures.key("bob"));
    return id;
  }

  String funded(ObjectNode doc) {
    String id = signed(doc);
    client.fund(id);
    return id;
  }

  String staked(ObjectNode doc) {
    String id = funded(doc);
    provider.stakeCollateral(id);
    return id;
  }

  String state(String id) {
    return client.agreement(id).path("state").asText();
  }

  JsonNode collateral(String id) {
    return client.escrow(id).path("collateral");
  }

  static String party(String name) {
    return "party:" + Fixtures.key(name).publicKey().toBase64Url();
  }

  List<String> kinds(String id) {
    List<String> kinds = new ArrayList<>();
    client.escrow(id).path("transfers").forEach(t -> kinds.add(t.path("kind").asText()));
    return kinds;
  }

  List<String> eventTypes(String id) {
    List<String> types = new ArrayList<>();
    client.events(id).path("events").forEach(e -> types.add(e.path("type").asText()));
    return types;
  }

  /**
   * The agreement's transfers, account by account: they sum to zero (the external rail's account is
   * where the money came from), no party is below zero, and the escrow and collateral accounts of
   * an ended agreement are empty. Answers each account's net.
   */
  Map<String, BigDecimal> assertBalanced(String id) {
    JsonNode escrow = client.escrow(id);
    Map<String, BigDecimal> net = new TreeMap<>();
    for (JsonNode t : escrow.path("transfers")) {
      BigDecimal amount = new BigDecimal(t.path("amount").asText());
      net.merge(t.path("from").asText(), amount.negate(), BigDecimal::add);
      net.merge(t.path("to").asText(), amount, BigDecimal::add);
    }
    assertThat(net.values().stream().reduce(BigDecimal.ZERO, BigDecimal::add))
        .as("the ledger of %s sums to zero: %s", id, net)
        .isEqualByComparingTo("0");
    net.forEach((account, balance) -> {
      if (account.startsWith("party:")) {
        assertThat(balance.signum()).as("%s in %s: %s", account, id, net).isNotNegative();
      }
    });
    if (List.of("CLOSED", "EXPIRED", "REJECTED").contains(escrow.path("state").asText())) {
      assertThat(net.getOrDefault("escrow:" + id, BigDecimal.ZERO))
          .as("escrow of %s", id)
          .isEqualByComparingTo("0");
      assertThat(net.getOrDefault("collateral:" + id, BigDecimal.ZERO))
          .as("collateral of %s", id)
          .isEqualByComparingTo("0");
    }
    // And over every agreement of the run so far, as the accounts themselves say: no party is
    // ever below zero.
    for (String name : List.of("alice", "bob")) {
      JsonNode account = operator.account(Fixtures.key(name).publicKey().toBase64Url());
      account
          .path("balances")
          .properties()
          .forEach(b ->
              assertThat(new BigDecimal(b.getValue().asText()).signum())
                  .as("%s in %s", name, b.getKey())
                  .isNotNegative());
    }
    return net;
  }

  static void refused(Runnable call, int status, Consumer<AsaApiException> check) {
    assertThatThrownBy(call::run)
        .isInstanceOfSatisfying(
            AsaApiException.class,
            e -> {
              assertThat(e.status()).as(e.getMessage()).isEqualTo(status);
              check.accept(e);
            });
  }
}
