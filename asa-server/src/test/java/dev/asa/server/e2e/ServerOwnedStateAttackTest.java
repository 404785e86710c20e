package dev.asa.server.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.asa.agreement.Role;
import dev.asa.client.AsaApiException;
import dev.asa.client.AsaClient;
import dev.asa.server.AsaServer;
import dev.asa.server.config.ServerConfig;
import dev.asa.server.escrow.EscrowConfig;
import dev.asa.server.escrow.WebhookReceiver;
import dev.asa.server.net.FetchPolicy;
import dev.asa.testing.Fixtures;
import dev.asa.testing.MutableClock;
import java.math.BigDecimal;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Issue 12's attacks on what the server owns, through real HTTP: forged server facts, money out of
 * an escrow that holds none, a party ruling on its own dispute, an evaluator beating its deadline's
 * timer, deliverable content outliving its agreement, and unsigned probes of private results.
 */
class ServerOwnedStateAttackTest {
  @TempDir Path dataDir;
  private final MutableClock clock = new MutableClock(Instant.parse("2026-11-22T10:00:00Z"));
  private AsaServer server;
  private WebhookReceiver payments;
  private AsaClient client;
  private AsaClient provider;
  private AsaClient evaluator;
  private AsaClient arbiter;
  private final HttpClient http = HttpClient.newHttpClient();

  @BeforeEach
  void start() {
    var serverKey = dev.asa.server.ServerKey.loadOrCreate(dataDir).publicKey();
    payments = new WebhookReceiver(serverKey, clock);
    server =
        AsaServer.start(
            ServerConfig.defaults()
                .withPort(0)
                .withDataDir(dataDir)
                .withClock(clock)
                .withTimerPolling(false)
                .withOperatorKey(Fixtures.key("operator").publicKey())
                .withFetchPolicy(new FetchPolicy(List.of(payments.uri() + "/")))
                .withEscrow(
                    EscrowConfig.DEFAULTS
                        .withCallbackUrlPrefixes(List.of(payments.uri().toString()))
                        // The client's key is also a configured arbiter: it must still never rule
                        // on its own case.
                        .withArbiterKeys(
                            Set.of(
                                Fixtures.key("arbiter").publicKey(),
                                Fixtures.key("alice").publicKey()))));
    AsaClient anonymous = AsaClient.connect(URI.create(server.url("127.0.0.1")));
    client = anonymous.withKey(Fixtures.key("alice"), clock);
    provider = anonymous.withKey(Fixtures.key("bob"), clock);
    evaluator = anonymous.withKey(Fixtures.key("eval-1"), clock);
    arbiter = anonymous.withKey(Fixtures.key("arbiter"), clock);
  }

  @AfterEach
  void stop() {
    server.close();
    payments.close();
  }

  // ---- forged facts ---------------------------------------------------------------------------

  @Test
  void aProposalClaimingItsEscrowIsHeldIsRefusedAndNoMoneyAppears() {
    ObjectNode doc = Fixtures.general();
    doc.put("agreement_id", "asa-forged-escrow");
    doc.put("expires_at", "2026-11-22T10:00:05Z");
    ((ObjectNode) doc.path("escrow"))
        .putObject("binding")
        .put("type", "http_callback")
        .put("url", payments.uri() + "/asa");
    doc.putObject("metadata")
        .putObject("escrow")
        .put("status", "held")
        .put("funded_at", "2026-11-22T10:00:00Z")
        .put("amount", "10.00")
        .put("currency", "USD");
    assertRefusedAtMetadata(() -> client.createAgreement(doc));

    assertThatThrownBy(() -> client.agreement("asa-forged-escrow"))
        .isInstanceOfSatisfying(
            AsaApiException.class,
            e -> assertThat(e.status()).as("nothing was created").isEqualTo(404));
    clock.advance(Duration.ofMinutes(5));
    server.fireDueTimers();
    server.deliverDueMessages();
    assertThat(payments.appliedBodies()).as("no escrow.refund for money never received").isEmpty();
    assertThat(client.account(Fixtures.key("alice").publicKey().toBase64Url()).path("balances"))
        .isEmpty();
  }

  @ParameterizedTest(name = "metadata.{0}")
  @ValueSource(
      strings = {
        "negotiation",
        "verification",
        "settlement",
        "dispute",
        "deliverable",
        "shadow",
        "anything"
      })
  void anyForgedServerFactIsRefusedNamingTheMember(String fact) {
    ObjectNode doc = Fixtures.general();
    ObjectNode forged = doc.putObject("metadata").putObject(fact);
    forged
        .put("status", "accepted")
        .put("round", 5)
        .put("payment_release_percent", 100)
        .put("money_moved", true);
    assertRefusedAtMetadata(() -> client.createAgreement(doc));
  }

  @Test
  void anAgreementThatExpiresUnfundedMovesNoMoneyAndSendsNoInstruction() {
    ObjectNode doc = Fixtures.general();
    doc.put("expires_at", "2026-11-22T10:00:05Z");
    ((ObjectNode) doc.path("escrow"))
        .putObject("binding")
        .put("type", "http_callback")
        .put("url", payments.uri() + "/asa");
    String id = client.createAgreement(doc).path("agreement_id").asText();
    clock.advance(Duration.ofSeconds(10));
    server.fireDueTimers();
    server.deliverDueMessages();
    assertThat(client.agreement(id).path("state").asText()).isEqualTo("EXPIRED");
    JsonNode escrow = client.escrow(id);
    assertThat(escrow.path("transfers")).isEmpty();
    assertThat(escrow.path("messages")).isEmpty();
    assertThat(payments.appliedBodies()).isEmpty();
  }

  @Test
  void factsAreShownButADocumentThatCarriesThemBackIsRefused() {
    String id = active(Fixtures.general());
    JsonNode shown = client.agreement(id).path("agreement");
    assertThat(shown.path("metadata").path("activated_at").isTextual())
        .as("facts are rendered")
        .isTrue();
    ObjectNode resent = shown.deepCopy();
    resent.put("agreement_id", "asa-resent");
    resent.remove(List.of("status", "signatures"));
    assertRefusedAtMetadata(() -> client.createAgreement(resent));
  }

  // ---- no one judges their own case ------------------------------------------------------------

  @Test
  void aPartyWhoIsAlsoAnArbiterCannotRuleOnItsOwnDispute() {
    String id = funded(Fixtures.general());
    provider.deliver(id, "# Findings\n", "markdown");
    evaluator.verify(id, LifecycleEndToEndTest.judgedScores(75, 80, 75));
    client.challenge(id, Role.CLIENT, "quality_below_agreed_slo");
    JsonNode before = client.escrow(id);

    assertThatThrownBy(() -> client.rule(id, BigDecimal.ZERO, "I rule for myself"))
        .isInstanceOfSatisfying(
            AsaApiException.class,
            e -> {
              assertThat(e.status()).isEqualTo(403);
              assertThat(e.detail()).contains("may not rule on its dispute");
            });
    assertThat(client.escrow(id)).as("nothing moved").isEqualTo(before);
    assertThat(client.agreement(id).path("state").asText()).isEqualTo("DISPUTED");

    JsonNode ruled = arbiter.rule(id, new BigDecimal("85"), "the evaluator's score stands");
    assertThat(ruled.path("state").asText()).isEqualTo("CLOSED");
  }

  // ---- the evaluator's deadline ----------------------------------------------------------------

  @Test
  void aResultAfterTheEvaluatorDeadlineIsRefusedAndTheTimeoutActionRuns() {
    ObjectNode doc = Fixtures.general();
    doc.withObject("/escrow/dead_mans_switch").put("timeout_action", "split_50_50");
    String id = funded(doc);
    provider.deliver(id, "# Findings\n", "markdown");
    clock.advance(
        Duration.ofSeconds(3601)); // past evaluator_timeout_seconds; the timer has not run

    assertThatThrownBy(() -> evaluator.verify(id, LifecycleEndToEndTest.judgedScores(95, 95, 95)))
        .isInstanceOfSatisfying(
            AsaApiException.class,
            e -> {
              assertThat(e.status()).isEqualTo(409);
              assertThat(e.detail()).contains("deadline").contains("split_50_50");
            });
    assertThat(client.agreement(id).path("state").asText()).isEqualTo("EXPIRED");
    List<String> types = client.events(id).path("events").findValuesAsText("type");
    assertThat(types).contains("evaluator_timed_out", "expired").doesNotContain("verified");
    assertThat(client.escrow(id).path("transfers").findValuesAsText("amount")).contains("5.00");
    server.fireDueTimers(); // the timer, when it comes, finds nothing left to do
    assertThat(client.events(id).path("events").findValuesAsText("type")).isEqualTo(types);
  }

  @Test
  void anEvaluatorCannotClaimTheSeriesGuaranteeTheServerJudges() {
    ObjectNode doc = Fixtures.general();
    doc.withObject("/escrow/dead_mans_switch").put("timeout_action", "split_50_50");
    String id = funded(doc);
    provider.deliver(id, "# Findings\n", "markdown");
    ObjectNode scores = LifecycleEndToEndTest.judgedScores(95, 95, 95);
    scores.withObject("/checks").put("guarantee_met", true);

    assertThatThrownBy(() -> evaluator.verify(id, scores))
        .isInstanceOfSatisfying(
            AsaApiException.class,
            e -> {
              assertThat(e.status()).isEqualTo(422);
              assertThat(e.errors())
                  .anySatisfy(f ->
                      assertThat(f.pointer()).isEqualTo("/evaluator_result/checks/guarantee_met"));
            });
    assertThat(client.agreement(id).path("state").asText()).isEqualTo("DELIVERED");
  }

  // ---- content isolation at every ending
  // ---------------------------------------------------------

  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {"split_50_50", "return_to_client", "ruled"})
  void deliverableContentIsErasedAtEveryEndingOnlyItsDigestStays(String ending) throws Exception {
    ObjectNode doc = Fixtures.general();
    doc.withObject("/escrow/dead_mans_switch")
        .put("timeout_action", ending.equals("ruled") ? "hold_for_backup_evaluator" : ending);
    String id = funded(doc);
    provider.deliver(id, "# Confidential findings\n\nThe launch code is 0000.\n", "markdown");
    clock.advance(Duration.ofSeconds(3601));
    server.fireDueTimers();
    if (ending.equals("ruled")) {
      assertThat(client.agreement(id).path("state").asText()).isEqualTo("DISPUTED");
      arbiter.rule(id, new BigDecimal("40"), "a partial deliverable");
      assertThat(client.agreement(id).path("state").asText()).isEqualTo("CLOSED");
    } else {
      assertThat(client.agreement(id).path("state").asText()).isEqualTo("EXPIRED");
    }
    try (var c = java.sql.DriverManager.getConnection("jdbc:sqlite:" + dataDir.resolve("asa.db"));
        var rs =
            c.createStatement().executeQuery("SELECT content, content_hash FROM deliverables")) {
      assertThat(rs.next()).isTrue();
      assertThat(rs.getString(1)).as("content erased").isNull();
      assertThat(rs.getString(2)).as("digest kept").startsWith("sha256:");
    }
  }

  // ---- unsigned probes -------------------------------------------------------------------------

  @Test
  void anUnsignedReadOfAPrivateResultAnswersLikeAMissingAgreement() throws Exception {
    String id = funded(Fixtures.general());
    provider.deliver(id, "# Findings\n", "markdown");
    evaluator.verify(id, LifecycleEndToEndTest.judgedScores(75, 80, 75));
    HttpResponse<String> existing = get("/agreements/" + id + "/verification");
    String missingId = "asa-0000-missing-000000";
    HttpResponse<String> missing = get("/agreements/" + missingId + "/verification");
    assertThat(existing.statusCode()).isEqualTo(404).isEqualTo(missing.statusCode());
    assertThat(existing.headers().firstValue("content-type"))
        .isEqualTo(missing.headers().firstValue("content-type"));
    // Alike but for the id, and the request id each answer carries.
    String requestId = "\"request_id\":\"[0-9a-f]{32}\"";
    assertThat(existing.body().replace(id, "ID").replaceAll(requestId, ""))
        .isEqualTo(missing.body().replace(missingId, "ID").replaceAll(requestId, ""));
  }

  // ---- helpers ---------------------------------------------------------------------------------

  private HttpResponse<String> get(String path) throws Exception {
    return http.send(
        HttpRequest.newBuilder(URI.create(server.url("127.0.0.1") + path)).GET().build(),
        HttpResponse.BodyHandlers.ofString());
  }

  private static void assertRefusedAtMetadata(Runnable call) {
    assertThatThrownBy(call::run)
        .isInstanceOfSatisfying(
            AsaApiException.class,
            e -> {
              assertThat(e.status()).isEqualTo(422);
              assertThat(e.errors())
                  .anySatisfy(f -> {
                    assertThat(f.pointer()).isEqualTo("/metadata");
                    assertThat(f.detail()).contains("server-owned");
                  });
            });
  }

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
}
