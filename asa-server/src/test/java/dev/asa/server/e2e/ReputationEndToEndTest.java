package dev.asa.server.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.asa.agreement.Identity;
import dev.asa.agreement.Role;
import dev.asa.client.AsaApiException;
import dev.asa.client.AsaClient;
import dev.asa.crypto.Ed25519PrivateKey;
import dev.asa.json.Json;
import dev.asa.reputation.Aggregates;
import dev.asa.reputation.Signal;
import dev.asa.reputation.SignedSignals;
import dev.asa.server.AsaServer;
import dev.asa.server.config.ServerConfig;
import dev.asa.server.escrow.EscrowConfig;
import dev.asa.server.escrow.WebhookReceiver;
import dev.asa.server.net.FetchPolicy;
import dev.asa.server.reputation.ReputationConfig;
import dev.asa.testing.Fixtures;
import dev.asa.testing.MutableClock;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Reputation through real HTTP (issue 56, ASA to ARP and back): a provider's agreements end in a
 * pass, a fail, a timeout and a ruling; {@code GET /reputation} gives the aggregates those
 * agreements' own records imply, signed so that Node's Ed25519 verifies them; an agreement kept to
 * its parties adds nothing, nor does a stranger writing the provider's name over its own key; a
 * trusted issuer's signal counts, the same signal altered or signed by another key is refused.
 */
class ReputationEndToEndTest {
  @TempDir Path dataDir;
  private final MutableClock clock = new MutableClock(Instant.parse("2026-11-22T10:00:00Z"));
  private final Ed25519PrivateKey peer = Fixtures.key("peer-server");
  private AsaServer server;
  private WebhookReceiver arp;
  private AsaClient anonymous;
  private AsaClient client;
  private AsaClient provider;
  private AsaClient evaluator;
  private AsaClient arbiter;

  @BeforeEach
  void start() {
    var serverKey = dev.asa.server.ServerKey.loadOrCreate(dataDir).publicKey();
    arp = new WebhookReceiver(serverKey, clock);
    server =
        AsaServer.start(
            ServerConfig.defaults()
                .withPort(0)
                .withDataDir(dataDir)
                .withClock(clock)
                .withTimerPolling(false)
                .withRateLimit(10_000, 10_000)
                .withEscrow(
                    EscrowConfig.DEFAULTS.withArbiterKeys(
                        Set.of(Fixtures.key("arbiter").publicKey())))
                .withFetchPolicy(new FetchPolicy(List.of(arp.uri().toString())))
                .withReputation(
                    new ReputationConfig(
                        URI.create(arp.uri() + "/arp"), Set.of(peer.publicKey()), 365)));
    anonymous = AsaClient.connect(URI.create(server.url("127.0.0.1")));
    client = anonymous.withKey(Fixtures.key("alice"), clock);
    provider = anonymous.withKey(Fixtures.key("bob"), clock);
    evaluator = anonymous.withKey(Fixtures.key("eval-1"), clock);
    arbiter = anonymous.withKey(Fixtures.key("arbiter"), clock);
  }

  @AfterEach
  void stop() {
    server.close();
    arp.close();
  }

  /** A funded general agreement between alice and {@code providerKey} under {@code identity}. */
  private String funded(String visibility, String strategy, String providerKey, String identity) {
    clock.advance(Duration.ofSeconds(1)); // each agreement ends at a moment of its own
    ObjectNode doc = Fixtures.general();
    ((ObjectNode) doc.path("parties"))
        .set("provider", Fixtures.party(identity, Fixtures.key(providerKey)));
    doc.putObject("verification")
        .put("strategy", strategy)
        .put("result_visibility", visibility)
        .put("challenge_window_seconds", 60);
    String id = client.createAgreement(doc).path("agreement_id").asText();
    client.sign(id, Role.CLIENT, Fixtures.key("alice"));
    anonymous
        .withKey(Fixtures.key(providerKey), clock)
        .sign(id, Role.PROVIDER, Fixtures.key(providerKey));
    client.fund(id);
    return id;
  }

  private String funded(String visibility, String strategy) {
    return funded(visibility, strategy, "bob", "bob");
  }

  /** Four agreements of bob's reach ARP: a pass, a fail, a timeout, a ruling; one stays private. */
  private List<String> aHistory() {
    List<String> ids = new ArrayList<>();
    String pass = funded("parties_and_arp", "pessimistic");
    provider.deliver(pass, "# Findings\n\nText.\n", "markdown");
    evaluator.verify(pass, LifecycleEndToEndTest.judgedScores(95, 95, 95));
    ids.add(pass);

    String fail = funded("public", "pessimistic");
    provider.deliver(fail, "# Findings\n", "markdown");
    evaluator.verify(fail, LifecycleEndToEndTest.judgedScores(20, 10, 20));
    ids.add(fail);

    String timeout = funded("parties_and_arp", "pessimistic");
    clock.advance(Duration.ofDays(2)); // past the provider's delivery clock (a day)
    server.fireDueTimers();
    ids.add(timeout);

    String ruled = funded("parties_and_arp", "optimistic");
    provider.deliver(ruled, "# Findings\n\nMore.\n", "markdown");
    evaluator.verify(ruled, LifecycleEndToEndTest.judgedScores(75, 80, 75));
    provider.challenge(ruled, Role.PROVIDER, "quality_below_agreed_slo");
    arbiter.rule(ruled, new BigDecimal("40"), "half the claims do not hold");
    ids.add(ruled);

    String hidden = funded("parties", "pessimistic");
    provider.deliver(hidden, "# Findings\n\nText.\n", "markdown");
    evaluator.verify(hidden, LifecycleEndToEndTest.judgedScores(95, 95, 95));
    return ids;
  }

  private static Map<String, JsonNode> byId(JsonNode signals, String role) {
    Map<String, JsonNode> out = new LinkedHashMap<>();
    for (JsonNode s : signals) {
      if (s.path("role").asText().equals(role)) {
        out.put(s.path("signal_id").asText(), s);
      }
    }
    return out;
  }

  private static BigDecimal percent(int hits, int of) {
    return BigDecimal.valueOf(100L * hits)
        .divide(BigDecimal.valueOf(of), 2, RoundingMode.HALF_EVEN);
  }

  @Test
  void theAggregatesAreWhatTheAgreementsRecordsImplyAndVerifyElsewhere() throws Exception {
    List<String> ids = aHistory();
    // What the agreements' own records say, read back through the API.
    int verified = 0, passed = 0, delivered = 0, disputed = 0;
    BigDecimal composites = BigDecimal.ZERO;
    for (String id : ids) {
      JsonNode status = client.status(id);
      assertThat(status.path("state").asText()).isIn("CLOSED", "EXPIRED");
      if (status.has("verification")) {
        verified++;
        passed += status.path("verification").path("result").asText().equals("PASS") ? 1 : 0;
        composites = composites.add(status.path("verification").path("composite").decimalValue());
      }
      delivered += status.has("deliverable") ? 1 : 0;
      disputed += status.has("dispute") ? 1 : 0;
    }
    assertThat(verified).isEqualTo(3);
    assertThat(delivered).isEqualTo(3);
    assertThat(disputed)
        .as("the challenge, and the fail's score below 60 filed itself")
        .isEqualTo(2);

    JsonNode reputation = anonymous.reputation("api_key", "bob"); // unsigned: it is public
    assertThat(reputation.path("verification_key").asText())
        .isEqualTo(Fixtures.key("bob").publicKey().toBase64Url());
    Map<String, JsonNode> signals = byId(reputation.path("signals"), "provider");
    assertThat(signals.get(Aggregates.PASS_RATE).path("value").decimalValue())
        .isEqualByComparingTo(percent(passed, verified));
    assertThat(signals.get(Aggregates.PASS_RATE).path("sample_size").asInt()).isEqualTo(3);
    assertThat(signals.get(Aggregates.COMPOSITE_MEAN).path("value").decimalValue())
        .isEqualByComparingTo(
            composites.divide(BigDecimal.valueOf(verified), 2, RoundingMode.HALF_EVEN));
    assertThat(signals.get(Aggregates.COMPLETION_RATE).path("value").decimalValue())
        .isEqualByComparingTo(percent(delivered, 4));
    assertThat(signals.get(Aggregates.ON_TIME_RATE).path("value").decimalValue())
        .as("the general template sets no duration limit: every delivery is in time")
        .isEqualByComparingTo(percent(delivered, 4));
    assertThat(signals.get(Aggregates.DISPUTE_RATE).path("value").decimalValue())
        .isEqualByComparingTo(percent(disputed, 4));
    assertThat(signals.get(Aggregates.DISPUTE_RATE).path("sample_size").asInt())
        .as("the parties-only agreement adds nothing")
        .isEqualTo(4);
    assertThat(signals.get(Aggregates.DISPUTE_RATE).path("confidence").decimalValue())
        .isEqualByComparingTo("0.2857"); // 4 / (4 + 10)
    assertThat(signals.get(Aggregates.DISTINCT_COUNTERPARTIES).path("value").asInt()).isOne();
    for (JsonNode s : reputation.path("signals")) {
      assertThat(s.path("subject").path("value").asText()).isEqualTo("bob");
      assertThat(s.path("window").asText()).isEqualTo("365d");
      assertThat(s.toString()).doesNotContain("Findings").doesNotContain(ids.get(0));
    }

    // Node's own Ed25519 and a JCS written from the RFC verify every signature.
    ObjectNode check = Json.object();
    check.put("key", server.serverKey().toBase64Url());
    check.set("signals", reputation.path("signals"));
    String verdicts =
        NodeScripts.run(Path.of("src/test/node/arp-verify"), "verify.js", check.toString());
    assertThat(verdicts.lines())
        .hasSize(reputation.path("signals").size())
        .allMatch(l -> l.endsWith(" ok"));
    ((ObjectNode) check.withArray("signals").get(0)).put("value", 100);
    assertThat(
            NodeScripts.run(Path.of("src/test/node/arp-verify"), "verify.js", check.toString())
                .lines()
                .findFirst())
        .hasValueSatisfying(l -> assertThat(l).endsWith(" BAD"));

    // The ARP endpoint was told: each ended agreement's push carries bob's signals, signed.
    server.deliverDueMessages();
    // (alice's as client, and the named evaluator's for the three deliveries it had to judge).
    List<JsonNode> pushes = arp.appliedBodies().values().stream().map(Json::parseTrusted).toList();
    assertThat(pushes).hasSize(11);
    assertThat(pushes)
        .allMatch(p -> p.path("type").asText().equals("arp.signals"))
        .allMatch(p -> !p.path("data").path("signals").isEmpty());
    assertThat(pushes.stream().map(p -> p.path("data").path("identity").path("value").asText()))
        .containsOnly("alice", "bob", "eval-1");
    Map<String, JsonNode> judge =
        byId(anonymous.reputation("api_key", "eval-1").path("signals"), "evaluator");
    assertThat(judge.get(Aggregates.ON_TIME_RATE).path("value").decimalValue())
        .as("eval-1 answered each of the three deliveries before its deadline")
        .isEqualByComparingTo("100");
    assertThat(judge).doesNotContainKey(Aggregates.PASS_RATE);
    Map<String, JsonNode> payer =
        byId(anonymous.reputation("api_key", "alice").path("signals"), "client");
    assertThat(payer.get(Aggregates.FUNDING_RATE).path("value").decimalValue())
        .isEqualByComparingTo("100");
    assertThat(payer.get(Aggregates.DISPUTE_RATE).path("value").decimalValue())
        .as("the provider challenged, not alice")
        .isEqualByComparingTo("0");

    // While negotiating the next one, each side sees the other's record.
    ObjectNode next = Fixtures.general();
    String proposed = client.createAgreement(next).path("agreement_id").asText();
    JsonNode view = provider.negotiation(proposed).path("reputation");
    assertThat(view.path("client").path("identity").path("value").asText()).isEqualTo("alice");
    assertThat(view.path("provider").path("figures").toString())
        .contains(Aggregates.PASS_RATE)
        .contains(Aggregates.COMPLETION_RATE);
    assertThat(view.path("client").path("figures").toString()).contains(Aggregates.FUNDING_RATE);
  }

  @Test
  void anIdentityWithNoHistoryHasNoSignalsAndAStrangerCannotBorrowAName() {
    JsonNode nobody = anonymous.reputation("api_key", "carol");
    assertThat(nobody.path("signals")).isEmpty();
    assertThat(nobody.has("verification_key")).isFalse();

    String first = funded("public", "pessimistic");
    provider.deliver(first, "# Findings\n\nText.\n", "markdown");
    evaluator.verify(first, LifecycleEndToEndTest.judgedScores(20, 10, 20));
    // Mallory writes "Bob" over her own key and passes three agreements: not bob's record.
    for (int i = 0; i < 3; i++) {
      String id = funded("public", "pessimistic", "mallory", "Bob");
      anonymous
          .withKey(Fixtures.key("mallory"), clock)
          .deliver(id, "# Findings\n\nA.\n", "markdown");
      evaluator.verify(id, LifecycleEndToEndTest.judgedScores(95, 95, 95));
    }
    JsonNode bob = anonymous.reputation("api_key", "bob");
    assertThat(bob.path("verification_key").asText())
        .isEqualTo(Fixtures.key("bob").publicKey().toBase64Url());
    JsonNode passRate = byId(bob.path("signals"), "provider").get(Aggregates.PASS_RATE);
    assertThat(passRate.path("value").decimalValue()).isEqualByComparingTo("0");
    assertThat(passRate.path("sample_size").asInt()).isOne();

    assertThatThrownBy(() -> anonymous.reputation("api_key", ""))
        .isInstanceOfSatisfying(
            AsaApiException.class,
            e -> {
              assertThat(e.status()).isEqualTo(422);
              assertThat(e.getMessage()).contains("value");
            });
  }

  @Test
  void aNameStaysBoundToItsFirstKeyAfterItsFirstAgreementLeavesTheWindow() {
    String first = funded("public", "pessimistic");
    provider.deliver(first, "# Findings\n\nText.\n", "markdown");
    evaluator.verify(first, LifecycleEndToEndTest.judgedScores(95, 95, 95));
    clock.advance(Duration.ofDays(400)); // past the 365-day window
    String id = funded("public", "pessimistic", "mallory", "bob");
    anonymous.withKey(Fixtures.key("mallory"), clock).deliver(id, "# Findings\n\nA.\n", "markdown");
    evaluator.verify(id, LifecycleEndToEndTest.judgedScores(95, 95, 95));
    JsonNode bob = anonymous.reputation("api_key", "bob");
    assertThat(bob.path("verification_key").asText())
        .isEqualTo(Fixtures.key("bob").publicKey().toBase64Url());
    assertThat(byId(bob.path("signals"), "provider"))
        .as("bob's one agreement is out of the window, and mallory's is not his")
        .isEmpty();
  }

  private ObjectNode peerSignal(String value, Ed25519PrivateKey key) {
    return peerSignal(value, key, Fixtures.key("bob").publicKey().toBase64Url());
  }

  /** A signal from the peer server about api_key:bob, whose record it says {@code about} holds. */
  private ObjectNode peerSignal(String value, Ed25519PrivateKey key, String about) {
    Signal s =
        new Signal(
            "behavioral",
            Aggregates.PASS_RATE,
            "asa:peer",
            new Identity("api_key", "bob", null),
            about,
            Role.PROVIDER,
            new BigDecimal(value),
            Aggregates.confidence(30),
            "365d",
            30,
            clock.instant());
    return SignedSignals.sign(s, key);
  }

  private static ObjectNode batch(JsonNode... signals) {
    ObjectNode body = Json.object();
    ArrayNode list = body.putArray("signals");
    for (JsonNode s : signals) {
      list.add(s);
    }
    return body;
  }

  private static void refused(Runnable call, String pointer) {
    assertThatThrownBy(call::run)
        .isInstanceOfSatisfying(
            AsaApiException.class,
            e -> {
              assertThat(e.status()).isEqualTo(422);
              assertThat(e.getMessage()).contains(pointer);
            });
  }

  private JsonNode combined(String signalId) {
    for (JsonNode c : anonymous.reputation("api_key", "bob").path("combined")) {
      if (c.path("signal_id").asText().equals(signalId)) {
        return c;
      }
    }
    throw new AssertionError("no combined " + signalId);
  }

  private BigDecimal combinedPassRate() {
    return combined(Aggregates.PASS_RATE).path("value").decimalValue();
  }

  @Test
  void aTrustedIssuersSignalCountsAndAnAlteredOrUntrustedOneIsRefused() {
    String first = funded("public", "pessimistic");
    provider.deliver(first, "# Findings\n\nText.\n", "markdown");
    evaluator.verify(first, LifecycleEndToEndTest.judgedScores(95, 95, 95)); // 100% of 1

    AsaClient courier = anonymous.withKey(Fixtures.key("courier"), clock);
    JsonNode kept = courier.postReputationSignals(batch(peerSignal("90", peer)));
    assertThat(kept.path("kept").asInt()).isOne();

    // (100 x 1 + 90 x 30) / 31 = 90.32
    assertThat(combinedPassRate()).isEqualByComparingTo("90.32");
    assertThat(combined(Aggregates.PASS_RATE).path("sample_size").asInt()).isEqualTo(31);
    // A signal about "bob" that belongs to another key (mallory's, say) is kept but never counts
    // for bob's key.
    String mallorys = Fixtures.key("mallory").publicKey().toBase64Url();
    assertThat(
            courier
                .postReputationSignals(batch(peerSignal("0", peer, mallorys)))
                .path("kept")
                .asInt())
        .isOne();
    assertThat(combinedPassRate()).isEqualByComparingTo("90.32");
    refused(
        () -> courier.postReputationSignals(batch(peerSignal("90", peer, null))),
        "/signals/0/subject/key");

    // The same signal re-signed by a key the operator does not trust.
    refused(
        () -> courier.postReputationSignals(batch(peerSignal("99", Fixtures.key("mallory")))),
        "/signals/0/verification/key");
    // Altered after signing: a better value, or moved to another agent.
    ObjectNode better = peerSignal("90", peer).put("value", 99);
    refused(() -> courier.postReputationSignals(batch(better)), "/signals/0/verification/proof");
    ObjectNode moved = peerSignal("90", peer);
    ((ObjectNode) moved.path("subject")).put("value", "mallory");
    refused(
        () -> courier.postReputationSignals(batch(peerSignal("95", peer), moved)),
        "/signals/1/verification/proof");
    ObjectNode unsigned = peerSignal("90", peer);
    unsigned.remove("verification");
    refused(() -> courier.postReputationSignals(batch(unsigned)), "/signals/0/verification");
    // A refused batch kept nothing, not even its good first signal.
    JsonNode foreign = anonymous.reputation("api_key", "bob").path("foreign_signals");
    assertThat(foreign).hasSize(2); // bob's, and the one about mallory's key
    assertThat(combinedPassRate()).isEqualByComparingTo("90.32");
    assertThatThrownBy(() -> anonymous.postReputationSignals(batch(peerSignal("90", peer))))
        .as("posting signals is a signed request")
        .isInstanceOfSatisfying(AsaApiException.class, e -> assertThat(e.status()).isEqualTo(401));
  }
}
