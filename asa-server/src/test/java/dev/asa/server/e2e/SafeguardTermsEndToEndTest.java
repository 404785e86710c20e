package dev.asa.server.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.asa.agreement.Role;
import dev.asa.client.AsaApiException;
import dev.asa.client.AsaClient;
import dev.asa.json.Json;
import dev.asa.server.AsaServer;
import dev.asa.server.config.ServerConfig;
import dev.asa.server.escrow.EscrowConfig;
import dev.asa.server.escrow.WebhookReceiver;
import dev.asa.server.net.FetchPolicy;
import dev.asa.template.TemplateApplier;
import dev.asa.testing.Fixtures;
import dev.asa.testing.MutableClock;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Safeguards the terms can name (issue 52, item 7): each one either works or is refused when the
 * agreement is proposed, with 422 and the pointer of the member, so that no party signs believing
 * in a protection that does nothing. The dispute package holds exactly the evidence the terms ask
 * for; the automatic filing condition is one the server knows and fires; a named evaluator can
 * answer (it has a key) unless it is the server's own; and no judge shares the provider's model.
 */
class SafeguardTermsEndToEndTest {
  @TempDir Path dataDir;
  private final MutableClock clock = new MutableClock(Instant.parse("2026-12-02T10:00:00Z"));
  private AsaServer server;
  private WebhookReceiver ajp;
  private AsaClient client;
  private AsaClient provider;
  private AsaClient evaluator;

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
                .withRateLimit(10_000, 10_000)
                .withTimerPolling(false)
                .withEscrow(
                    EscrowConfig.DEFAULTS.withDisputeEndpoints(
                        Map.of("ajp", URI.create(ajp.uri() + "/disputes"))))
                .withFetchPolicy(new FetchPolicy(List.of(ajp.uri().toString()))));
    AsaClient anonymous = AsaClient.connect(URI.create(server.url("127.0.0.1")));
    client = anonymous.withKey(Fixtures.key("alice"), clock);
    provider = anonymous.withKey(Fixtures.key("bob"), clock);
    evaluator = anonymous.withKey(Fixtures.key("eval-1"), clock);
  }

  @AfterEach
  void stop() {
    server.close();
    ajp.close();
  }

  private static ObjectNode general(Consumer<ObjectNode> change) {
    ObjectNode doc = Fixtures.general();
    change.accept(doc);
    return doc;
  }

  private static ObjectNode dispute(ObjectNode doc) {
    return doc.has("dispute") ? (ObjectNode) doc.get("dispute") : doc.putObject("dispute");
  }

  /** Refused with 422 at exactly {@code pointer}, with a message containing {@code fragment}. */
  private void assertRefusedAt(ObjectNode doc, String pointer, String fragment) {
    int before = client.list("alice", null, 100).path("items").size();
    AsaApiException e = refused(() -> client.createAgreement(doc));
    assertThat(e.status()).as(e.body()).isEqualTo(422);
    assertThat(e.errors())
        .as(e.body())
        .anySatisfy(f -> {
          assertThat(f.pointer()).isEqualTo(pointer);
          assertThat(f.detail()).contains(fragment);
        });
    assertThat(client.list("alice", null, 100).path("items").size())
        .as("nothing was stored")
        .isEqualTo(before);
  }

  private static AsaApiException refused(Runnable call) {
    try {
      call.run();
    } catch (AsaApiException e) {
      return e;
    }
    throw new AssertionError("the call was not refused");
  }

  // ---- dispute.evidence_includes -------------------------------------------------------------

  @Test
  void evidenceTheServerCannotFileIsRefusedNamingTheItem() {
    assertRefusedAt(
        general(d -> dispute(d).putArray("evidence_includes").add("agreement").add("bogus_item")),
        "/dispute/evidence_includes/1",
        "bogus_item");
    assertRefusedAt(
        general(d -> dispute(d).putArray("evidence_includes").add("agreement").add("agreement")),
        "/dispute/evidence_includes/1",
        "twice");
    assertRefusedAt(
        general(d -> dispute(d).putArray("evidence_includes")),
        "/dispute/evidence_includes",
        "at least one");
  }

  @Test
  void theFiledPackageHoldsExactlyTheEvidenceAskedFor() {
    ObjectNode doc =
        general(d -> {
          ArrayNode items = dispute(d).putArray("evidence_includes");
          items.add("deliverable_hash").add("verification_result");
        });
    String id = client.createAgreement(doc).path("agreement_id").asText();
    client.sign(id, Role.CLIENT, Fixtures.key("alice"));
    provider.sign(id, Role.PROVIDER, Fixtures.key("bob"));
    client.fund(id);
    provider.deliver(id, "# Findings\n\nText.\n", "markdown");
    // Composite 40, under the template's threshold of 60: the dispute is filed automatically.
    evaluator.verify(id, LifecycleEndToEndTest.judgedScores(60, 4, 20));
    clock.advance(Duration.ofHours(2));
    server.fireDueTimers();
    assertThat(client.agreement(id).path("state").asText()).isEqualTo("CLOSED");
    server.deliverDueMessages();

    assertThat(ajp.appliedBodies()).hasSize(1);
    JsonNode filing = Json.parseTrusted(ajp.appliedBodies().values().iterator().next());
    JsonNode data = filing.path("data");
    assertThat(data.path("agreement_id").asText()).isEqualTo(id);
    assertThat(data.path("agreement_hash").asText()).startsWith("sha256:");
    List<String> items = new ArrayList<>();
    data.path("evidence").fieldNames().forEachRemaining(items::add);
    assertThat(items).containsExactly("deliverable_hash", "verification_result");
    assertThat(data.path("evidence").path("deliverable_hash").asText()).startsWith("sha256:");
  }

  // ---- dispute.auto_file_on ------------------------------------------------------------------

  @Test
  void anAutomaticFilingConditionTheServerDoesNotKnowIsRefused() {
    assertRefusedAt(
        general(d -> dispute(d).put("auto_file_on", "verification_failure_on_tuesdays")),
        "/dispute/auto_file_on",
        "verification_failure_below_threshold");
    // Without a threshold the condition could never be met (the template's is taken out).
    ObjectNode noThreshold = TemplateApplier.apply(Fixtures.general());
    dispute(noThreshold).remove("threshold");
    assertRefusedAt(noThreshold, "/dispute/threshold", "auto_file_on");
  }

  @Test
  void theKnownConditionFilesUnderTheThresholdAndNotAtIt() {
    String low = verifiedAndClosed(60, 4, 20); // composite 40
    server.deliverDueMessages();
    assertThat(ajp.appliedBodies()).hasSize(1);
    String high = verifiedAndClosed(95, 80, 95); // composite 92
    server.deliverDueMessages();
    assertThat(ajp.appliedBodies()).as("nothing filed at 92").hasSize(1);
    JsonNode filing = Json.parseTrusted(ajp.appliedBodies().values().iterator().next());
    assertThat(filing.path("data").path("agreement_id").asText()).isEqualTo(low);
    assertThat(filing.path("data").path("reason_code").asText())
        .isEqualTo("quality_below_agreed_slo");
    assertThat(client.agreement(high).at("/agreement/metadata/settlement/auto_filed_dispute"))
        .isEmpty();
  }

  private String verifiedAndClosed(int accuracy, int completeness, int relevance) {
    String id = client.createAgreement(Fixtures.general()).path("agreement_id").asText();
    client.sign(id, Role.CLIENT, Fixtures.key("alice"));
    provider.sign(id, Role.PROVIDER, Fixtures.key("bob"));
    client.fund(id);
    provider.deliver(id, "# Findings\n\nText.\n", "markdown");
    evaluator.verify(id, LifecycleEndToEndTest.judgedScores(accuracy, completeness, relevance));
    clock.advance(Duration.ofHours(2));
    server.fireDueTimers();
    assertThat(client.agreement(id).path("state").asText()).isEqualTo("CLOSED");
    return id;
  }

  // ---- parties.evaluator without a verification_key ------------------------------------------

  @Test
  void aNamedEvaluatorWithoutAKeyIsRefusedUnlessItIsTheServersOwn() {
    assertRefusedAt(
        general(d -> ((ObjectNode) d.at("/parties/evaluator")).remove("verification_key")),
        "/parties/evaluator/verification_key",
        "builtin");
    ObjectNode builtin =
        general(d ->
            ((ObjectNode) d.at("/parties/evaluator"))
                .put("type", "builtin")
                .remove("verification_key"));
    assertThat(client.createAgreement(builtin).path("state").asText()).isEqualTo("PROPOSED");
  }

  // ---- parties.evaluator.config.model equal to parties.provider.model ------------------------

  @Test
  void aJudgeRunningTheProvidersModelIsRefusedAtCreation() {
    for (String judge : List.of("gpt-4o", "openai/GPT-4o-2024-08-06", "ＧＰＴ-4o\u200B")) {
      assertRefusedAt(
          general(d -> {
            ((ObjectNode) d.at("/parties/provider")).put("model", "gpt-4o");
            ((ObjectNode) d.at("/parties/evaluator")).putObject("config").put("model", judge);
          }),
          "/parties/evaluator/config/model",
          "provider");
    }
    // Another model, even of the same family's other size, is a different judge.
    ObjectNode other =
        general(d -> {
          ((ObjectNode) d.at("/parties/provider")).put("model", "gpt-4o");
          ((ObjectNode) d.at("/parties/evaluator")).putObject("config").put("model", "gpt-4o-mini");
        });
    assertThat(client.createAgreement(other).path("state").asText()).isEqualTo("PROPOSED");
  }
}
