package dev.asa.server.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.asa.agreement.Role;
import dev.asa.client.AsaApiException;
import dev.asa.client.AsaClient;
import dev.asa.server.AsaServer;
import dev.asa.server.config.ServerConfig;
import dev.asa.testing.Fixtures;
import dev.asa.testing.MutableClock;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Sybil limits (whitepaper 11, issue 56) through HTTP: terms that require a history refuse a fresh
 * identity at activation, naming each requirement and what is missing; an unproven party may be
 * held to a value cap instead; a proven one passes; a stranger writing the proven one's name over
 * its own key is fresh.
 */
class SybilLimitsEndToEndTest {
  @TempDir Path dataDir;
  private final MutableClock clock = new MutableClock(Instant.parse("2026-11-22T10:00:00Z"));
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
                .withClock(clock)
                .withTimerPolling(false)
                .withRateLimit(10_000, 10_000));
    anonymous = AsaClient.connect(URI.create(server.url("127.0.0.1")));
    client = anonymous.withKey(Fixtures.key("alice"), clock);
  }

  @AfterEach
  void stop() {
    server.close();
  }

  private AsaClient as(String key) {
    return anonymous.withKey(Fixtures.key(key), clock);
  }

  private String proposed(ObjectNode doc, String providerKey, String identity, String amount) {
    ((ObjectNode) doc.path("parties"))
        .set("provider", Fixtures.party(identity, Fixtures.key(providerKey)));
    ((ObjectNode) doc.path("escrow").path("payment")).put("amount", amount);
    String id = client.createAgreement(doc).path("agreement_id").asText();
    client.sign(id, Role.CLIENT, Fixtures.key("alice"));
    return id;
  }

  /** A passed agreement of {@code providerKey}'s that reaches its record. */
  private void aPass(String providerKey) {
    ObjectNode doc = Fixtures.general();
    doc.putObject("verification")
        .put("strategy", "pessimistic")
        .put("result_visibility", "parties_and_arp");
    String id = proposed(doc, providerKey, providerKey, "10.00");
    as(providerKey).sign(id, Role.PROVIDER, Fixtures.key(providerKey));
    client.fund(id);
    as(providerKey).deliver(id, "# Findings\n\nText.\n", "markdown");
    as("eval-1").verify(id, LifecycleEndToEndTest.judgedScores(95, 95, 95));
  }

  private static ObjectNode requiringHistory() {
    ObjectNode doc = Fixtures.general();
    ObjectNode provider = doc.putObject("eligibility").putObject("provider");
    provider.put("min_completed_agreements", 2).put("min_age_days", 1);
    provider
        .putArray("min_signals")
        .addObject()
        .put("signal", "asa:verification_pass_rate")
        .put("at_least", 80)
        .put("min_sample", 2);
    provider.put("value_cap_when_unproven", "5.00");
    return doc;
  }

  private static void refusedNaming(Runnable call, String... parts) {
    assertThatThrownBy(call::run)
        .isInstanceOfSatisfying(
            AsaApiException.class,
            e -> {
              assertThat(e.status()).isEqualTo(409);
              assertThat(e.getMessage()).contains(parts);
            });
  }

  @Test
  void aFreshIdentityIsRefusedNamingWhatItLacksOrHeldToTheCap() {
    String big = proposed(requiringHistory(), "carol", "carol", "10.00");
    refusedNaming(
        () -> as("carol").sign(big, Role.PROVIDER, Fixtures.key("carol")),
        "/eligibility/provider/min_completed_agreements: 0 completed here, 2 required",
        "/eligibility/provider/min_age_days: never seen here before",
        "/eligibility/provider/min_signals/0: asa:verification_pass_rate has no figure here",
        "held to 5.00, and this agreement is for 10.00");
    assertThat(client.status(big).path("state").asText())
        .as("nothing changed")
        .isEqualTo("PROPOSED");

    String small = proposed(requiringHistory(), "carol", "carol", "4.00");
    assertThat(as("carol").sign(small, Role.PROVIDER, Fixtures.key("carol")).path("state").asText())
        .as("unproven, but within the cap")
        .isEqualTo("ACTIVE");
  }

  @Test
  void aProvenProviderPassesAndItsNameOverAnotherKeyDoesNot() {
    aPass("bob");
    aPass("bob");
    String tooSoon = proposed(requiringHistory(), "bob", "bob", "10.00");
    refusedNaming(
        () -> as("bob").sign(tooSoon, Role.PROVIDER, Fixtures.key("bob")),
        "/eligibility/provider/min_age_days: 0 day(s) here, 1 required");

    clock.advance(Duration.ofDays(2));
    String proven = proposed(requiringHistory(), "bob", "bob", "10.00");
    assertThat(as("bob").sign(proven, Role.PROVIDER, Fixtures.key("bob")).path("state").asText())
        .isEqualTo("ACTIVE");

    String borrowed = proposed(requiringHistory(), "mallory", "bob", "10.00");
    refusedNaming(
        () -> as("mallory").sign(borrowed, Role.PROVIDER, Fixtures.key("mallory")),
        "0 completed here");
  }

  @Test
  void aChainLengthIsRequiredOfAVerifiedChainAndAnIdentityWithoutOneFallsShort() {
    ObjectNode doc = Fixtures.general();
    doc.putObject("eligibility").putObject("provider").put("min_chain_length", 5);
    String id = proposed(doc, "bob", "bob", "10.00");
    refusedNaming(
        () -> as("bob").sign(id, Role.PROVIDER, Fixtures.key("bob")),
        "/eligibility/provider/min_chain_length: no verified CoC chain, 5 required");
  }

  @Test
  void theRequirementsAreCheckedAtCreation() {
    ObjectNode noMoney = requiringHistory();
    noMoney.remove("escrow");
    assertThatThrownBy(() -> client.createAgreement(noMoney))
        .isInstanceOfSatisfying(
            AsaApiException.class,
            e -> {
              assertThat(e.status()).isEqualTo(422);
              assertThat(e.getMessage()).contains("/eligibility/provider/value_cap_when_unproven");
            });
    ObjectNode unknownRole = Fixtures.general();
    unknownRole.putObject("eligibility").putObject("arbiter").put("min_age_days", 3);
    assertThatThrownBy(() -> client.createAgreement(unknownRole))
        .isInstanceOfSatisfying(
            AsaApiException.class,
            e -> assertThat(e.getMessage()).contains("/eligibility/arbiter"));
  }
}
