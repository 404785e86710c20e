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
import dev.asa.server.verification.engine.VerificationConfig;
import dev.asa.testing.Fixtures;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Verification depth by reputation (whitepaper 3.5, issue 56) through HTTP: the same terms give a
 * provider with a record a structural verification at once and a newcomer a semantic one in the
 * background, each result saying which figure the choice rested on; a stranger writing the
 * record-holder's name over its own key is a newcomer; and no party picks another depth.
 */
class DepthByReputationEndToEndTest {
  @TempDir Path dataDir;
  private AsaServer server;
  private AsaClient anonymous;
  private AsaClient client;

  @BeforeEach
  void start() {
    server =
        AsaServer.start(
            ServerConfig.defaults()
                .withPort(0)
                .withDataDir(dataDir)
                .withRateLimit(10_000, 10_000)
                .withVerification(
                    new VerificationConfig(
                        Map.of(
                            "agent_as_judge",
                            () -> new VerificationApiEndToEndTest.WordJudge("fake/judge-a", 0)),
                        "agent_as_judge",
                        1,
                        Map.of())));
    anonymous = AsaClient.connect(URI.create(server.url("127.0.0.1")));
    client = anonymous.withKey(Fixtures.key("alice"));
  }

  @AfterEach
  void stop() {
    server.close();
  }

  private String funded(ObjectNode doc, String providerKey, String identity) {
    ((ObjectNode) doc.path("parties"))
        .set("provider", Fixtures.party(identity, Fixtures.key(providerKey)));
    String id = client.createAgreement(doc).path("agreement_id").asText();
    client.sign(id, Role.CLIENT, Fixtures.key("alice"));
    anonymous.withKey(Fixtures.key(providerKey)).sign(id, Role.PROVIDER, Fixtures.key(providerKey));
    client.fund(id);
    anonymous
        .withKey(Fixtures.key(providerKey))
        .deliver(id, "# Findings\n\nThe answer.\n", "markdown");
    return id;
  }

  /** Three passed agreements of bob's that reach ARP: a record of 100% over 3. */
  private void aRecordFor(String providerKey) {
    for (int i = 0; i < 3; i++) {
      ObjectNode doc = Fixtures.general();
      doc.putObject("verification")
          .put("strategy", "pessimistic")
          .put("result_visibility", "parties_and_arp");
      String id = funded(doc, providerKey, providerKey);
      anonymous
          .withKey(Fixtures.key("eval-1"))
          .verify(id, LifecycleEndToEndTest.judgedScores(95, 95, 95));
    }
  }

  /**
   * The same terms every time: structural for a pass rate of 90 over 3, semantic otherwise, over
   * criteria that both depths can score (the structural evaluator judges format and time only).
   */
  private static ObjectNode byReputation() {
    ObjectNode doc = Fixtures.judgedByBuiltIn(Fixtures.general());
    ObjectNode criteria = doc.putObject("quality_criteria");
    var dimensions = criteria.putArray("dimensions");
    ObjectNode format = dimensions.addObject().put("name", "format_compliance").put("weight", 0.6);
    format.put("metric", "percentage").putObject("slo").put("operator", "gte").put("value", 80);
    ObjectNode time = dimensions.addObject().put("name", "timeliness").put("weight", 0.4);
    time.put("metric", "boolean").putObject("slo").put("operator", "eq").put("value", true);
    criteria.put("composite_threshold", 70).put("composite_method", "weighted_average");
    criteria.putArray("quality_gates");
    doc.putObject("verification")
        .put("strategy", "pessimistic")
        .putObject("depth_by_reputation")
        .put("signal", "asa:verification_pass_rate")
        .put("at_least", 90)
        .put("min_sample", 3)
        .put("then", "structural")
        .put("otherwise", "semantic");
    return doc;
  }

  @Test
  void aProviderWithARecordGetsStructuralAndANewcomerSemantic() throws Exception {
    aRecordFor("bob");

    String known = funded(byReputation(), "bob", "bob");
    JsonNode verified = client.verify(known);
    assertThat(verified.path("state").asText())
        .as("structural: at once")
        .isIn("VERIFIED", "CLOSED");
    JsonNode evidence = client.verification(known).path("depth_evidence");
    assertThat(evidence.path("depth").asText()).isEqualTo("structural");
    assertThat(evidence.path("figure").path("signal_id").asText())
        .isEqualTo("asa:verification_pass_rate");
    assertThat(evidence.path("figure").path("value").decimalValue()).isEqualByComparingTo("100");
    assertThat(evidence.path("figure").path("sample_size").asInt()).isEqualTo(3);
    assertThat(evidence.path("because").asText()).contains("at least 90");
    assertThat(client.verification(known).path("evaluator").path("type").asText())
        .isEqualTo("builtin_structural");

    String newcomer = funded(byReputation(), "carol", "carol");
    JsonNode accepted = client.verify(newcomer);
    String verificationId = accepted.path("verification_id").asText();
    assertThat(verificationId).as("semantic: a background job, 202").isNotEmpty();
    JsonNode result = client.awaitVerification(verificationId, Duration.ofSeconds(20), p -> {});
    assertThat(result.path("evaluator").path("type").asText()).isEqualTo("builtin_agent_as_judge");
    assertThat(result.path("depth_evidence").path("depth").asText()).isEqualTo("semantic");
    assertThat(result.path("depth_evidence").path("figure").isNull()).isTrue();
    assertThat(result.path("depth_evidence").path("because").asText())
        .contains("no asa:verification_pass_rate");

    // Mallory writes "bob" over her own key: bob's record is not hers.
    String borrowed = funded(byReputation(), "mallory", "bob");
    String job = client.verify(borrowed).path("verification_id").asText();
    JsonNode hers = client.awaitVerification(job, Duration.ofSeconds(20), p -> {});
    assertThat(hers.path("depth_evidence").path("depth").asText()).isEqualTo("semantic");
    assertThat(hers.path("depth_evidence").path("provider").path("key").asText())
        .isEqualTo(Fixtures.key("mallory").publicKey().toBase64Url());
  }

  @Test
  void noPartyPicksAnotherDepthThanTheRuleGives() {
    String newcomer = funded(byReputation(), "carol", "carol");
    assertThatThrownBy(() -> client.verifyWith(newcomer, Json.object().put("depth", "structural")))
        .isInstanceOfSatisfying(
            AsaApiException.class,
            e -> {
              assertThat(e.status()).isEqualTo(409);
              assertThat(e.getMessage()).contains("depth_by_reputation").contains("semantic");
            });
    assertThat(client.status(newcomer).path("state").asText()).isEqualTo("DELIVERED");
  }

  @Test
  void theRuleIsCheckedWhenTheAgreementIsCreated() {
    ObjectNode both = byReputation();
    ((ObjectNode) both.path("verification")).put("depth", "semantic");
    assertThatThrownBy(() -> client.createAgreement(both))
        .isInstanceOfSatisfying(
            AsaApiException.class,
            e -> {
              assertThat(e.status()).isEqualTo(422);
              assertThat(e.getMessage()).contains("/verification/depth_by_reputation");
            });
    ObjectNode same = byReputation();
    ((ObjectNode) same.path("verification").path("depth_by_reputation")).put("then", "semantic");
    assertThatThrownBy(() -> client.createAgreement(same))
        .isInstanceOfSatisfying(
            AsaApiException.class, e -> assertThat(e.getMessage()).contains("same depth"));
    ObjectNode unknown = byReputation();
    ((ObjectNode) unknown.path("verification").path("depth_by_reputation")).put("then", "light");
    assertThatThrownBy(() -> client.createAgreement(unknown))
        .isInstanceOfSatisfying(
            AsaApiException.class,
            e -> assertThat(e.getMessage()).contains("/verification/depth_by_reputation/then"));
  }
}
