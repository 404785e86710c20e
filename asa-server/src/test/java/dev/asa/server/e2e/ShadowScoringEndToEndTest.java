package dev.asa.server.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.asa.agreement.Role;
import dev.asa.client.AsaApiException;
import dev.asa.client.AsaClient;
import dev.asa.json.Json;
import dev.asa.server.AsaServer;
import dev.asa.server.config.ServerConfig;
import dev.asa.shadow.Commitment;
import dev.asa.shadow.SealVerification;
import dev.asa.shadow.SealedEnvelope;
import dev.asa.testing.Fixtures;
import dev.asa.testing.MutableClock;
import java.net.URI;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 7 through HTTP: the client seals criteria before signing, the provider cannot read them by
 * any route before the reveal, verification validates the deliverable against them and applies the
 * gate (warning, quarantine, FAIL), hardening lets the provider re-deliver once on opaque failure
 * messages, the reveal verifies offline, and tampering with the stored criteria is caught.
 */
class ShadowScoringEndToEndTest {
  @TempDir Path dataDir;
  private final MutableClock clock = new MutableClock(Instant.parse("2026-11-22T10:00:00Z"));
  private AsaServer server;
  private AsaClient client;
  private AsaClient provider;
  private AsaClient evaluator;
  private AsaClient operator;
  private AsaClient stranger;

  @BeforeEach
  void start() {
    server =
        AsaServer.start(
            ServerConfig.defaults()
                .withPort(0)
                .withDataDir(dataDir)
                .withClock(clock)
                .withOperatorKey(Fixtures.key("operator").publicKey()));
    AsaClient anonymous = AsaClient.connect(URI.create(server.url("127.0.0.1")));
    client = anonymous.withKey(Fixtures.key("alice"), clock);
    provider = anonymous.withKey(Fixtures.key("bob"), clock);
    evaluator = anonymous.withKey(Fixtures.key("eval-1"), clock);
    operator = anonymous.withKey(Fixtures.key("operator"), clock);
    stranger = anonymous.withKey(Fixtures.key("mallory"), clock);
  }

  @AfterEach
  void stop() {
    server.close();
  }

  /** {@code n} criteria, each passing when the deliverable contains its secret token. */
  private static ObjectNode sealRequest(int n, String scale) {
    ObjectNode body = Json.object();
    ArrayNode criteria = body.putArray("criteria");
    for (int i = 1; i <= n; i++) {
      criteria
          .addObject()
          .put("id", "sc-" + i)
          .put("category", i % 2 == 0 ? "edge_case" : "happy_path")
          .put("assertion", "Mentions secret topic " + i)
          .put("expected", "the text names token " + i)
          .put("message", "Missing requirement number " + i)
          .putObject("check")
          .put("type", "contains")
          .put("value", token(i));
    }
    if (scale != null) {
      body.put("scale", scale);
    }
    return body;
  }

  private static String token(int i) {
    return "zq-secret-token-" + i + "-x";
  }

  /** Markdown that contains the tokens of criteria 1..n except those in {@code failing}. */
  private static String work(int n, List<Integer> failing) {
    return "# Findings\n\n"
        + IntStream.rangeClosed(1, n)
            .filter(i -> !failing.contains(i))
            .mapToObj(ShadowScoringEndToEndTest::token)
            .collect(Collectors.joining(" "))
        + "\n";
  }

  /** Created, sealed by the client, then signed by both and funded. */
  private String sealedAndFunded(ObjectNode sealRequest) {
    String id = client.createAgreement(Fixtures.general()).path("agreement_id").asText();
    JsonNode sealed = client.seal(id, sealRequest);
    assertThat(sealed.path("commitment").asText()).startsWith("sha256:");
    assertThat(sealed.toString()).doesNotContain(token(1));
    client.sign(id, Role.CLIENT, Fixtures.key("alice"));
    provider.sign(id, Role.PROVIDER, Fixtures.key("bob"));
    client.fund(id);
    return id;
  }

  private JsonNode verifyWithScores(String id) {
    return evaluator.verify(id, LifecycleEndToEndTest.judgedScores(95, 80, 95));
  }

  @Test
  void threeOfTenFailedIsThirtyModerateAttachedWithAWarning() {
    String id = sealedAndFunded(sealRequest(10, null));
    provider.deliver(id, work(10, List.of(2, 5, 9)), "markdown");
    // 30% is above the hardening threshold: the evaluator's first answer opens a hardening cycle
    // instead of a verdict, and waits for the provider, who re-delivers as is.
    JsonNode opened = verifyWithScores(id);
    assertThat(opened.path("state").asText()).isEqualTo("DELIVERED");
    assertThat(opened.toString()).doesNotContain("30.0").doesNotContain(token(1));
    assertThatThrownBy(() -> verifyWithScores(id))
        .isInstanceOf(AsaApiException.class)
        .satisfies(e -> assertThat(((AsaApiException) e).status()).isEqualTo(409));
    provider.deliver(id, work(10, List.of(2, 5, 9)), "markdown");

    JsonNode verified = verifyWithScores(id);
    JsonNode result = verified.path("verification");
    JsonNode report = result.path("shadow_score");
    assertThat(report.path("report").path("shadow_score").decimalValue())
        .isEqualByComparingTo("30.0");
    assertThat(report.path("report").path("level").asText()).isEqualTo("moderate");
    assertThat(report.path("sealed_tests").path("failed").asInt()).isEqualTo(3);
    assertThat(result.path("shadow_gate").asText()).isEqualTo("proceed_with_warning");
    assertThat(result.path("shadow_warning").asText()).contains("30.0");
    assertThat(verified.path("state").asText()).isEqualTo("VERIFIED");
    assertThat(
            client
                .verification(id)
                .path("shadow_score")
                .path("report")
                .path("shadow_score")
                .decimalValue())
        .isEqualByComparingTo("30.0");
  }

  @Test
  void fourOfEightFailedIsFiftyQuarantinedWithThePaymentHeld() {
    String id = sealedAndFunded(sealRequest(8, "SS-100"));
    provider.deliver(id, work(8, List.of(1, 3, 6, 8)), "markdown");
    verifyWithScores(id); // opens hardening
    provider.deliver(id, work(8, List.of(1, 3, 6, 8)), "markdown");
    JsonNode verified = verifyWithScores(id);
    JsonNode report = verified.path("verification").path("shadow_score");
    assertThat(report.path("report").path("shadow_score").decimalValue())
        .isEqualByComparingTo("50.0");
    assertThat(report.path("report").path("level").asText()).isEqualTo("significant");
    assertThat(verified.path("verification").path("shadow_gate").asText()).isEqualTo("quarantine");
    assertThat(verified.path("state").asText()).isEqualTo("DISPUTED");
    JsonNode agreement = client.agreement(id).path("agreement");
    assertThat(agreement.path("status").asText()).isEqualToIgnoringCase("disputed");
    assertThat(agreement.path("metadata").path("dispute").path("reason_code").asText())
        .isEqualTo("shadow_score_quarantine");
    assertThat(
            agreement
                .path("metadata")
                .path("dispute")
                .path("evidence")
                .path("shadow_score")
                .path("report")
                .path("shadow_score")
                .decimalValue())
        .isEqualByComparingTo("50.0");
    assertThat(client.escrow(id).path("status").asText()).isEqualTo("frozen");
  }

  @Test
  void sixOfTenFailedHardensToTwoOfTenWithVelocityForty() {
    String id = sealedAndFunded(sealRequest(10, "SS-250"));
    provider.deliver(id, work(10, List.of(1, 2, 3, 4, 5, 6)), "markdown");
    verifyWithScores(id); // opens hardening

    JsonNode messages = provider.hardening(id);
    assertThat(messages.path("messages").size()).isEqualTo(6);
    assertThat(messages.path("messages").get(0).path("message").asText())
        .startsWith("Missing requirement number");
    assertThat(messages.path("messages").get(0).path("id").asText()).startsWith("f-");
    assertThat(messages.toString())
        .doesNotContain("zq-secret")
        .doesNotContain("sc-1")
        .doesNotContain("Mentions secret");

    provider.deliver(id, work(10, List.of(7, 8)), "markdown");
    JsonNode verified = verifyWithScores(id);
    JsonNode report = verified.path("verification").path("shadow_score");
    assertThat(report.path("report").path("shadow_score").decimalValue())
        .isEqualByComparingTo("20.0");
    JsonNode hardening = report.path("hardening");
    assertThat(hardening.path("cycles_completed").asInt()).isEqualTo(1);
    assertThat(hardening.path("initial_shadow_score").decimalValue()).isEqualByComparingTo("60.0");
    assertThat(hardening.path("final_shadow_score").decimalValue()).isEqualByComparingTo("20.0");
    assertThat(hardening.path("hardening_velocity").decimalValue()).isEqualByComparingTo("40.0");
    assertThat(verified.path("verification").path("shadow_gate").asText())
        .isEqualTo("proceed_with_warning");
    assertThat(verified.path("state").asText()).isEqualTo("VERIFIED");
    assertThatThrownBy(() -> provider.hardening(id)).isInstanceOf(AsaApiException.class);
  }

  @Test
  void sixOfTenFailedAndNotFixedIsFailWithNothingReleased() {
    String id = sealedAndFunded(sealRequest(10, null));
    provider.deliver(id, work(10, List.of(1, 2, 3, 4, 5, 6)), "markdown");
    verifyWithScores(id); // opens hardening
    provider.deliver(
        id, work(10, List.of(1, 2, 3, 4, 5, 6, 7)), "markdown"); // worse: the better one stands
    JsonNode verified = verifyWithScores(id);
    JsonNode result = verified.path("verification");
    assertThat(result.path("shadow_score").path("report").path("shadow_score").decimalValue())
        .isEqualByComparingTo("60.0");
    assertThat(result.path("shadow_score").path("report").path("level").asText())
        .isEqualTo("critical");
    assertThat(
            result.path("shadow_score").path("hardening").path("hardening_velocity").decimalValue())
        .isEqualByComparingTo("0.0");
    assertThat(result.path("shadow_gate").asText()).isEqualTo("fail");
    assertThat(result.path("determination").path("result").asText()).isEqualTo("FAIL");
    assertThat(result.path("determination").path("payment_release_percent").decimalValue())
        .isEqualByComparingTo("0");
  }

  @Test
  void theProviderCannotReadTheCriteriaByAnyRouteBeforeTheRevealAndAnyoneCanCheckItAfter()
      throws SQLException {
    String id = client.createAgreement(Fixtures.general()).path("agreement_id").asText();
    client.seal(id, sealRequest(10, null));
    assertThat(status(() -> provider.sealOf(id))).isEqualTo(403);
    assertThat(status(() -> evaluator.sealOf(id))).isEqualTo(403);
    assertThat(status(() -> stranger.sealOf(id))).isEqualTo(404);
    assertThat(status(() -> provider.seal(id, sealRequest(3, null))))
        .as("only the client seals")
        .isEqualTo(403);
    assertThat(status(() -> client.seal(id, sealRequest(3, null))))
        .as("one seal per agreement")
        .isEqualTo(409);
    JsonNode own = client.sealOf(id);
    assertThat(own.path("criteria").size()).isEqualTo(10);
    operator.sealOf(id);

    JsonNode terms = provider.agreement(id).path("agreement");
    String commitment =
        terms
            .path("verification")
            .path("shadow_seal")
            .path("statement")
            .path("commitment")
            .asText();
    assertThat(commitment).isEqualTo(own.path("statement").path("commitment").asText());
    client.sign(id, Role.CLIENT, Fixtures.key("alice"));
    provider.sign(id, Role.PROVIDER, Fixtures.key("bob"));
    client.fund(id);
    provider.deliver(id, work(10, List.of(4)), "markdown");
    assertThat(status(() -> provider.hardening(id))).isEqualTo(409);

    for (JsonNode seen :
        List.of(
            provider.agreement(id),
            provider.events(id),
            provider.status(id),
            provider.escrow(id),
            provider.negotiation(id))) {
      assertThat(seen.toString())
          .doesNotContain("zq-secret")
          .doesNotContain("Mentions secret")
          .doesNotContain("Missing requirement");
    }
    assertThat(status(() -> provider.verification(id))).isEqualTo(404);
    assertThat(status(() -> client.seal(id, sealRequest(3, null))))
        .as("sealing after signing")
        .isEqualTo(409);

    verifyWithScores(id); // 1 of 10: 10.0 minor, no hardening; verification reveals
    JsonNode revealed = provider.sealOf(id);
    SealedEnvelope envelope = SealedEnvelope.parse(revealed);
    SealVerification check =
        SealVerification.check(
            envelope, Optional.of(server.serverKey()), Optional.of(Commitment.parse(commitment)));
    assertThat(check.valid()).as(check.problem().orElse("")).isTrue();

    try (Connection db = database()) {
      PreparedStatement s =
          db.prepareStatement(
              "SELECT r.caller FROM seal_reads r JOIN seals s ON s.id = r.seal_id WHERE s.agreement_id = ? ORDER BY r.at");
      s.setString(1, id);
      try (ResultSet rs = s.executeQuery()) {
        List<String> callers = new java.util.ArrayList<>();
        while (rs.next()) {
          callers.add(rs.getString(1));
        }
        assertThat(callers).hasSize(3);
        assertThat(callers.get(0)).isEqualTo(Fixtures.key("alice").publicKey().toBase64Url());
        assertThat(callers.get(1)).startsWith("operator ");
        assertThat(callers.get(2)).isEqualTo(Fixtures.key("bob").publicKey().toBase64Url());
      }
    }
  }

  @Test
  void criteriaAlteredInTheDatabaseAfterSealingBreakTheSealAndBlockEnforcement()
      throws SQLException {
    String id = sealedAndFunded(sealRequest(10, null));
    try (Connection db = database()) {
      PreparedStatement read =
          db.prepareStatement("SELECT envelope FROM seals WHERE agreement_id = ?");
      read.setString(1, id);
      String envelope;
      try (ResultSet rs = read.executeQuery()) {
        rs.next();
        envelope = rs.getString(1);
      }
      // Weaken criterion 3 to something any deliverable passes.
      PreparedStatement write =
          db.prepareStatement("UPDATE seals SET envelope = ? WHERE agreement_id = ?");
      write.setString(1, envelope.replace(token(3), "Findings"));
      write.setString(2, id);
      assertThat(write.executeUpdate()).isEqualTo(1);
    }
    provider.deliver(id, work(10, List.of()), "markdown");
    JsonNode verified = verifyWithScores(id);
    JsonNode report = verified.path("verification").path("shadow_score");
    assertThat(report.path("report").path("seal_broken").asBoolean()).isTrue();
    assertThat(report.path("report").path("advisory").asBoolean()).isTrue();
    assertThat(verified.path("verification").path("shadow_gate").asText()).isEqualTo("blocked");
    assertThat(verified.path("state").asText())
        .as("enforcement blocked: to a ruling, money frozen")
        .isEqualTo("DISPUTED");
    assertThat(client.escrow(id).path("status").asText()).isEqualTo("frozen");
    assertThat(
            client
                .agreement(id)
                .path("agreement")
                .path("metadata")
                .path("dispute")
                .path("reason_code")
                .asText())
        .isEqualTo("shadow_seal_broken");
  }

  @Test
  void aProposalCannotCarryASealOfItsOwn() {
    ObjectNode doc = Fixtures.general();
    doc.with("verification")
        .putObject("shadow_seal")
        .putObject("statement")
        .put("commitment", "sha256:" + "0".repeat(64));
    assertThat(status(() -> client.createAgreement(doc))).isEqualTo(422);
  }

  @Test
  void aStandaloneSealIsValidatedAndReportedForItsSealerOnly() {
    JsonNode sealed = client.sealStandalone(sealRequest(10, null));
    String sealId = sealed.path("seal_id").asText();
    assertThat(sealed.path("statement").path("seal_id").asText()).isEqualTo(sealId);
    assertThat(sealed.path("commitment").asText()).startsWith("sha256:");
    assertThat(sealed.toString()).doesNotContain("zq-secret");
    assertThat(status(() -> provider.sealReport(sealId))).isEqualTo(404);
    assertThat(status(() -> client.sealReport(sealId))).as("not validated yet").isEqualTo(404);
    assertThat(status(() -> provider.validateSeal(sealId, "x", null))).isEqualTo(404);

    JsonNode validated = client.validateSeal(sealId, work(10, List.of(1, 2, 3)), "markdown");
    assertThat(validated.path("gate").asText()).isEqualTo("proceed_with_warning");
    assertThat(validated.path("report").path("report").path("shadow_score").decimalValue())
        .isEqualByComparingTo("30.0");
    assertThat(client.sealReport(sealId).path("report")).isEqualTo(validated.path("report"));
  }

  private Connection database() throws SQLException {
    return DriverManager.getConnection("jdbc:sqlite:" + dataDir.resolve("asa.db"));
  }

  private static int status(Runnable call) {
    try {
      call.run();
    } catch (AsaApiException e) {
      return e.status();
    }
    throw new AssertionError("the call succeeded");
  }
}
