package dev.asa.server.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.asa.agreement.Role;
import dev.asa.client.AsaApiException;
import dev.asa.client.AsaClient;
import dev.asa.crypto.DidKey;
import dev.asa.crypto.Ed25519PrivateKey;
import dev.asa.document.Agreement;
import dev.asa.server.AsaServer;
import dev.asa.server.config.ServerConfig;
import dev.asa.template.TemplateApplier;
import dev.asa.testing.Fixtures;
import dev.asa.testing.MutableClock;
import java.net.URI;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 58, items 2 to 4, through HTTP: a document that arrives signed, a did:key party without a
 * separate key, the status and dates a new document may carry, and the multi-dimensional rule.
 */
class PrintedAgreementEndToEndTest {
  private static final Instant NOW = Instant.parse("2026-11-22T10:00:00Z");

  @TempDir Path dataDir;
  private final MutableClock clock = new MutableClock(NOW);
  private AsaServer server;
  private AsaClient client;
  private AsaClient provider;

  @BeforeEach
  void start() {
    server =
        AsaServer.start(ServerConfig.defaults().withPort(0).withDataDir(dataDir).withClock(clock));
    AsaClient anonymous = AsaClient.connect(URI.create(server.url("127.0.0.1")));
    client = anonymous.withKey(Fixtures.key("alice"), clock);
    provider = anonymous.withKey(Fixtures.key("bob"), clock);
  }

  @AfterEach
  void stop() {
    server.close();
  }

  /** The general template's document, complete as the parties would sign it off the server. */
  private static ObjectNode complete(String id) {
    ObjectNode doc = TemplateApplier.apply(Fixtures.general());
    doc.put("agreement_id", id);
    doc.put("created_at", NOW.toString());
    return doc;
  }

  private static ObjectNode sign(ObjectNode doc, Role role, Ed25519PrivateKey key) {
    byte[] input =
        Agreement.computeHash(doc).toString().getBytes(java.nio.charset.StandardCharsets.UTF_8);
    doc.withObject("/signatures")
        .putObject(role.wireName())
        .put("scheme", "ed25519")
        .put("value", key.sign(input).toBase64Url());
    return doc;
  }

  @Test
  void aDocumentSignedByBothIsActiveInOneCall() {
    ObjectNode doc = complete("asa-printed-both");
    sign(doc, Role.CLIENT, Fixtures.key("alice"));
    sign(doc, Role.PROVIDER, Fixtures.key("bob"));
    doc.put("status", "active"); // the state the server gives it: accepted
    client.createAgreement(doc);

    JsonNode agreement = client.agreement("asa-printed-both").path("agreement");
    assertThat(agreement.path("status").asText()).isEqualTo("active");
    assertThat(agreement.at("/signatures/client/value").asText())
        .isEqualTo(doc.at("/signatures/client/value").asText());
    assertThat(agreement.at("/metadata/activated_at").asText()).isEqualTo(NOW.toString());
    assertThat(client.events("asa-printed-both").path("events").findValuesAsText("type"))
        .containsExactly("created", "signed", "signed");
    // Activated as a sign call activates it: the provider may deliver at once (no escrow to fund).
    assertThatThrownBy(() -> provider.sign("asa-printed-both", Role.PROVIDER, Fixtures.key("bob")))
        .isInstanceOf(AsaApiException.class);
  }

  @Test
  void oneSignatureIsRecordedAndTheOtherPartySignsLater() {
    ObjectNode doc = complete("asa-printed-one");
    sign(doc, Role.CLIENT, Fixtures.key("alice"));
    client.createAgreement(doc);
    JsonNode agreement = client.agreement("asa-printed-one").path("agreement");
    assertThat(agreement.path("status").asText()).isEqualTo("proposed");
    assertThat(agreement.at("/signatures/client/scheme").asText()).isEqualTo("ed25519");

    provider.sign("asa-printed-one", Role.PROVIDER, Fixtures.key("bob"));
    assertThat(client.agreement("asa-printed-one").at("/agreement/status").asText())
        .isEqualTo("active");
  }

  @Test
  void aSignatureThatDoesNotVerifyIsRefusedNamingTheParty() {
    ObjectNode swapped = complete("asa-printed-swapped");
    sign(swapped, Role.CLIENT, Fixtures.key("bob")); // the provider's key under the client
    assertRefused(() -> client.createAgreement(swapped), "/signatures/client");

    ObjectNode stale = complete("asa-printed-stale");
    sign(stale, Role.CLIENT, Fixtures.key("alice"));
    sign(stale, Role.PROVIDER, Fixtures.key("bob"));
    stale.withObject("/service").put("description", "changed after signing");
    assertRefused(
        () -> client.createAgreement(stale), "/signatures/client", "/signatures/provider");

    ObjectNode evaluator = complete("asa-printed-evaluator");
    sign(evaluator, Role.CLIENT, Fixtures.key("alice"));
    ((ObjectNode) evaluator.get("signatures")).set("evaluator", evaluator.at("/signatures/client"));
    assertRefused(() -> client.createAgreement(evaluator), "/signatures/evaluator");
  }

  @Test
  void statusIsRefusedOnlyWhenItIsNotTheStartingState() {
    ObjectNode proposed = Fixtures.general().put("status", "proposed");
    assertThat(client.createAgreement(proposed).path("agreement").path("status").asText())
        .isEqualTo("proposed");
    ObjectNode unsigned = Fixtures.general().put("status", "active");
    assertRefused(() -> client.createAgreement(unsigned), "/status");
  }

  @Test
  void aDidKeyPartyNeedsNoSeparateKey() {
    ObjectNode doc = Fixtures.general();
    ObjectNode alice = doc.withObject("/parties/client");
    alice.remove("verification_key");
    alice.putObject("identity").put("scheme", "did").put("value", did("alice"));
    ObjectNode evaluator = doc.withObject("/parties/evaluator");
    evaluator.remove("verification_key");
    evaluator.putObject("identity").put("scheme", "did").put("value", did("eval-1"));
    String id = client.createAgreement(doc).path("agreement").path("agreement_id").asText();
    client.sign(id, Role.CLIENT, Fixtures.key("alice"));
    provider.sign(id, Role.PROVIDER, Fixtures.key("bob"));
    assertThat(client.agreement(id).at("/agreement/status").asText()).isEqualTo("active");

    ObjectNode other = Fixtures.general();
    other
        .withObject("/parties/client")
        .putObject("identity")
        .put("scheme", "did")
        .put("value", did("carol"));
    assertRefused(() -> client.createAgreement(other), "/parties/client/verification_key");

    ObjectNode keyless = Fixtures.general();
    keyless.withObject("/parties/client").remove("verification_key");
    assertRefused(() -> client.createAgreement(keyless), "/parties/client/verification_key");
  }

  @Test
  void datesAlreadyPastAreRefused() {
    ObjectNode expired = Fixtures.general().put("expires_at", "2026-11-22T09:00:00Z");
    assertRefused(() -> client.createAgreement(expired), "/expires_at");
    ObjectNode old = Fixtures.general().put("created_at", "2026-11-21T10:00:00Z");
    assertRefused(() -> client.createAgreement(old), "/created_at");
    ObjectNode recent = Fixtures.general().put("created_at", "2026-11-22T09:58:00Z");
    assertThat(client.createAgreement(recent).at("/agreement/created_at").asText())
        .isEqualTo("2026-11-22T09:58:00Z");
  }

  @Test
  void aSingleQualityDimensionIsRefused() {
    ObjectNode doc = Fixtures.general();
    ObjectNode criteria = doc.withObject("/quality_criteria");
    criteria
        .putArray("dimensions")
        .addObject()
        .put("name", "accuracy")
        .put("weight", 1)
        .put("metric", "percentage")
        .putObject("slo")
        .put("operator", "gte")
        .put("value", 80);
    criteria.putArray("quality_gates");
    assertRefused(() -> client.createAgreement(doc), "/quality_criteria/dimensions");
  }

  private static String did(String name) {
    return DidKey.of(Fixtures.key(name).publicKey());
  }

  private static void assertRefused(Runnable call, String... pointers) {
    assertThatThrownBy(call::run)
        .isInstanceOfSatisfying(
            AsaApiException.class,
            e -> {
              assertThat(e.status()).as(e.problem().toString()).isEqualTo(422);
              List<String> found = new ArrayList<>();
              e.problem().path("errors").forEach(v -> found.add(v.path("pointer").asText()));
              assertThat(found).as(e.problem().toString()).containsExactlyInAnyOrder(pointers);
            });
  }
}
