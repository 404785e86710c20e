package dev.asa.server.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.asa.agreement.Role;
import dev.asa.client.AsaApiException;
import dev.asa.client.AsaClient;
import dev.asa.crypto.Digest;
import dev.asa.dispute.AjpJson;
import dev.asa.json.Json;
import dev.asa.server.AsaServer;
import dev.asa.server.config.ServerConfig;
import dev.asa.server.escrow.EscrowConfig;
import dev.asa.server.escrow.WebhookReceiver;
import dev.asa.server.net.FetchPolicy;
import dev.asa.testing.Fixtures;
import dev.asa.testing.MutableClock;
import java.io.InputStream;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Disputes as the Agent Justice Protocol files them (issue 57, item 3) through HTTP: a challenge
 * sends the AJP endpoint a claim of AJP's shape (the reference code's own claims as the yardstick)
 * whose hash AJP's rule reproduces, citing exactly the evidence {@code evidence_includes} asks for;
 * the forensics route gives the dispute body the whole trail, a party its own parts, a stranger
 * nothing.
 */
class AjpFilingEndToEndTest {
  @TempDir Path dataDir;
  private final MutableClock clock = new MutableClock(Instant.parse("2026-11-22T10:00:00Z"));
  private AsaServer server;
  private WebhookReceiver ajp;
  private AsaClient client;
  private AsaClient provider;
  private AsaClient evaluator;
  private AsaClient arbiter;
  private AsaClient stranger;

  @BeforeEach
  void start() {
    var serverKey = dev.asa.server.ServerKey.loadOrCreate(dataDir).publicKey();
    ajp = new WebhookReceiver(serverKey, clock);
    server =
        AsaServer.start(
            ServerConfig.defaults()
                .withPort(0)
                .withDataDir(dataDir)
                .withClock(clock)
                .withTimerPolling(false)
                .withEscrow(
                    EscrowConfig.DEFAULTS
                        .withDisputeEndpoints(Map.of("ajp", URI.create(ajp.uri() + "/disputes")))
                        .withArbiterKeys(Set.of(Fixtures.key("arbiter").publicKey())))
                .withFetchPolicy(new FetchPolicy(List.of(ajp.uri().toString()))));
    AsaClient anonymous = AsaClient.connect(URI.create(server.url("127.0.0.1")));
    client = anonymous.withKey(Fixtures.key("alice"), clock);
    provider = anonymous.withKey(Fixtures.key("bob"), clock);
    evaluator = anonymous.withKey(Fixtures.key("eval-1"), clock);
    arbiter = anonymous.withKey(Fixtures.key("arbiter"), clock);
    stranger = anonymous.withKey(Fixtures.key("mallory"), clock);
  }

  @AfterEach
  void stop() {
    server.close();
    ajp.close();
  }

  private String challenged() {
    ObjectNode doc = Fixtures.general();
    ObjectNode dispute = doc.putObject("dispute").put("protocol", "ajp");
    dispute.putArray("evidence_includes").add("agreement").add("verification_result");
    String id = client.createAgreement(doc).path("agreement_id").asText();
    client.sign(id, Role.CLIENT, Fixtures.key("alice"));
    provider.sign(id, Role.PROVIDER, Fixtures.key("bob"));
    client.fund(id);
    provider.deliver(id, "# Findings\n\nText.\n", "markdown");
    evaluator.verify(id, LifecycleEndToEndTest.judgedScores(50, 80, 75));
    client.challenge(id, Role.CLIENT, "quality_below_agreed_slo");
    return id;
  }

  private static JsonNode referenceClaim() throws Exception {
    try (InputStream in =
        AjpFilingEndToEndTest.class.getResourceAsStream("/dev/asa/dispute/ajp-claims.json")) {
      return Json.parse(in.readAllBytes()).get(0);
    }
  }

  @Test
  void aChallengeFilesAClaimOfAjpsShapeWithExactlyTheEvidenceAskedFor() throws Exception {
    String id = challenged();
    server.deliverDueMessages();
    assertThat(ajp.appliedBodies()).hasSize(1);
    JsonNode data = Json.parseTrusted(ajp.appliedBodies().values().iterator().next()).path("data");
    JsonNode claim = data.path("claim");

    JsonNode reference = referenceClaim();
    assertThat(shape(claim)).isEqualTo(shape(reference.path("claim")));
    ObjectNode unhashed = claim.deepCopy();
    unhashed.remove("claim_hash");
    assertThat(claim.path("claim_hash").asText())
        .as("AJP's own rule: SHA-256 hex of sorted, compact, ASCII-escaped JSON")
        .isEqualTo(AjpJson.hash(unhashed));
    assertThat(claim.path("claimant").path("agent_id").asText()).isEqualTo("api_key:alice");
    assertThat(claim.path("respondent").path("agent_id").asText()).isEqualTo("api_key:bob");
    assertThat(claim.path("harm").path("quantified_value").path("amount").asText())
        .isEqualTo("10.00");
    assertThat(claim.path("agreement_reference").path("asa_id").asText()).isEqualTo(id);
    assertThat(claim.path("agreement_reference").path("breached_clauses").toString())
        .contains("quality_criteria.dimensions.accuracy");

    ArrayNode records = (ArrayNode) data.path("evidence_records");
    assertThat(records.findValuesAsText("evidence_type"))
        .containsExactly("transaction_receipt", "external_attestation");
    assertThat(claim.path("supporting_evidence").toString())
        .isEqualTo(Json.write(Json.mapper().valueToTree(records.findValuesAsText("evidence_id"))));
    for (JsonNode r : records) {
      assertThat(shape(r)).isEqualTo(shape(reference.path("evidence_record")));
      String content = r.path("content").asText();
      assertThat(r.path("content_hash").asText())
          .isEqualTo(Digest.sha256(content.getBytes(StandardCharsets.UTF_8)).hex());
    }
    assertThat(data.path("evidence").has("event_log")).as("not asked for, not sent").isFalse();
  }

  @Test
  void theDisputeBodySeesTheWholeTrailAPartyItsOwnPartsAStrangerNothing() {
    String id = challenged();
    JsonNode full = arbiter.forensics(id);
    assertThat(full.path("view").asText()).isEqualTo("dispute_body");
    assertThat(full.has("canaries")).isTrue();
    assertThat(full.path("verifications").get(0).path("dimensions").size()).isEqualTo(4);
    assertThat(full.path("events").path("chain_valid").asBoolean()).isTrue();
    assertThat(full.path("dispute").path("reason_code").asText())
        .isEqualTo("quality_below_agreed_slo");
    assertThat(full.path("ledger").path("transfers").size()).isPositive();

    JsonNode partial = provider.forensics(id);
    assertThat(partial.path("view").asText()).isEqualTo("party");
    assertThat(partial.has("canaries")).isFalse();
    assertThat(partial.path("verifications").size()).isOne();

    assertThatThrownBy(() -> stranger.forensics(id))
        .isInstanceOfSatisfying(AsaApiException.class, e -> assertThat(e.status()).isEqualTo(404));
  }

  @Test
  void anAjpDecisionComesBackAsTheRuling() {
    String id = challenged();
    server.deliverDueMessages();
    JsonNode claim =
        Json.parseTrusted(ajp.appliedBodies().values().iterator().next())
            .path("data")
            .path("claim");
    // As AJP's reference code writes a decision (section 6.6), floats and all.
    ObjectNode decision = Json.object();
    decision.put("version", 1).put("decision_id", "dec-1").put("dispute_id", "dis-1");
    decision.put("claim_id", claim.path("claim_id").asText());
    decision.put("resolution_tier", "automated");
    decision
        .putObject("fault_determination")
        .put("claimant_fault_pct", 0)
        .put("respondent_fault_pct", 70)
        .put("no_fault_pct", 30)
        .put("basis", "proximate_cause");
    decision
        .putObject("remediation")
        .put("type", "compensation")
        .putObject("reputation_impact")
        .put("respondent_adjustment", -2.5);

    ObjectNode wrongClaim =
        decision.deepCopy().put("claim_id", "0b7c4f3e-0000-4000-8000-000000000000");
    assertThatThrownBy(() -> arbiter.ruleByAjpDecision(id, wrongClaim))
        .isInstanceOfSatisfying(
            AsaApiException.class,
            e -> {
              assertThat(e.status()).isEqualTo(422);
              assertThat(e.getMessage()).contains("/ajp_decision/claim_id");
            });
    ObjectNode badSum = decision.deepCopy();
    ((ObjectNode) badSum.path("fault_determination")).put("no_fault_pct", 40);
    assertThatThrownBy(() -> arbiter.ruleByAjpDecision(id, badSum))
        .isInstanceOfSatisfying(
            AsaApiException.class,
            e -> assertThat(e.getMessage()).contains("/ajp_decision/fault_determination"));
    assertThatThrownBy(() -> client.ruleByAjpDecision(id, decision))
        .isInstanceOfSatisfying(AsaApiException.class, e -> assertThat(e.status()).isEqualTo(403));

    // The provider, the respondent, was found 70% at fault: it keeps 30% of the 10.00.
    JsonNode ruled = arbiter.ruleByAjpDecision(id, decision);
    assertThat(ruled.path("state").asText()).isEqualTo("CLOSED");
    JsonNode settlement = ruled.path("agreement").path("metadata").path("settlement");
    assertThat(settlement.path("released_to_provider").asText()).isEqualTo("3.00");
    assertThat(settlement.path("refunded_to_client").asText()).isEqualTo("7.00");
    assertThat(settlement.path("ruling").toString()).contains("AJP decision dec-1");
  }

  private static List<String> shape(JsonNode node) {
    List<String> out = new ArrayList<>();
    shape("", node, out);
    out.sort(null);
    return out;
  }

  private static void shape(String at, JsonNode node, List<String> out) {
    out.add(at + ":" + (node.isIntegralNumber() ? "integer" : node.getNodeType()));
    if (node.isObject()) {
      for (Iterator<String> it = node.fieldNames(); it.hasNext(); ) {
        String name = it.next();
        shape(at + "/" + name, node.get(name), out);
      }
    } else if (node.isArray() && !node.isEmpty()) {
      shape(at + "/*", node.get(0), out);
    }
  }
}
