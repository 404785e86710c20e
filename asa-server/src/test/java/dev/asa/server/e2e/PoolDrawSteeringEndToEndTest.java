package dev.asa.server.e2e;

import static dev.asa.server.e2e.PoolAgreements.activate;
import static dev.asa.server.e2e.PoolAgreements.pooled;
import static dev.asa.server.e2e.PoolAgreements.recompute;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.asa.client.AsaApiException;
import dev.asa.client.AsaClient;
import dev.asa.crypto.KeyFile;
import dev.asa.integrity.Calibration;
import dev.asa.integrity.Deviation;
import dev.asa.integrity.PoolMember;
import dev.asa.integrity.TrackRecord;
import dev.asa.server.AsaServer;
import dev.asa.server.ServerKey;
import dev.asa.server.config.ServerConfig;
import dev.asa.server.store.Store;
import dev.asa.server.store.Stores;
import dev.asa.testing.Fixtures;
import dev.asa.testing.MutableClock;
import java.math.BigDecimal;
import java.net.URI;
import java.nio.file.Path;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 53, item 3, through the real server and its registry: a party's unverified claim about
 * itself does not steer the pool draw. The provider claims the honest evaluators' organization,
 * written with odd spacing and case; before the fix that excluded every one of them and its own
 * stand-in was drawn every time. Now only what the server checks (a party's key) and what an
 * evaluator declared about itself ({@code conflicts_of_interest}) exclude, and the {@code
 * evaluator_assigned} event names each excluded member with its rule.
 */
class PoolDrawSteeringEndToEndTest {
  private static final int AGREEMENTS = 30;

  @TempDir Path dataDir;
  private final MutableClock clock = new MutableClock(Instant.parse("2026-12-01T10:00:00Z"));
  private AsaServer server;
  private AsaClient anonymous;

  @BeforeEach
  void start() throws Exception {
    // The server's key seeds every draw: a fixed key (and clock) makes the draws the same each run.
    KeyFile.write(dataDir.resolve(ServerKey.FILE_NAME), Fixtures.key("steering-server"));
    server =
        AsaServer.start(
            ServerConfig.defaults()
                .withPort(0)
                .withDataDir(dataDir)
                .withClock(clock)
                .withOperatorKey(Fixtures.key("operator").publicKey())
                .withRateLimit(10_000, 10_000)
                .withTimerPolling(false));
    anonymous = AsaClient.connect(URI.create(server.url("127.0.0.1")));
  }

  @AfterEach
  void stop() {
    server.close();
  }

  private AsaClient as(String who) {
    return anonymous.withKey(Fixtures.key(who), clock);
  }

  private static String keyOf(String who) {
    return Fixtures.key(who).publicKey().toBase64Url();
  }

  /** Registers through POST /evaluators, signed by the evaluator's own key. */
  private void register(String who, String organization, String... conflictsWith) {
    ObjectNode body =
        AsaClient.evaluatorRegistration("api_key", who, "Judge " + who, List.of("general"));
    body.put("organization", organization);
    if (conflictsWith.length > 0) {
      var conflicts = body.putArray("conflicts_of_interest");
      for (String party : conflictsWith) {
        conflicts.add(keyOf(party));
      }
    }
    as(who).registerEvaluator(body);
  }

  /** Gives each a record that clears the qualification bar, as its past work would have. */
  private void qualify(List<String> names) {
    try (Store store = Stores.open(null, dataDir)) {
      for (String who : names) {
        store
            .evaluators()
            .update(
                keyOf(who),
                m ->
                    new PoolMember(
                        m.profile(),
                        new TrackRecord(
                            60,
                            20,
                            19,
                            new Calibration(
                                Map.of(
                                    "accuracy",
                                    new Deviation(20, new BigDecimal("80"), BigDecimal.ZERO)),
                                Map.of()),
                            Map.of()),
                        m.standing()),
                clock.instant());
      }
    }
  }

  /** A pooled agreement whose provider claims the honest evaluators' organization. */
  private static ObjectNode claimingImpartial(String id) {
    ObjectNode doc = pooled(id);
    ((ObjectNode) doc.at("/parties/provider")).put("organization", "  iMPARTIAL   ltd ");
    return doc;
  }

  @Test
  void aProviderClaimingTheHonestEvaluatorsOrganizationDoesNotSteerTheDraw() {
    register("honest-1", "Impartial Ltd");
    register("honest-2", "Impartial Ltd");
    register("stand-in", "Stand-in Ltd"); // the provider's own evaluator, by another name
    qualify(List.of("honest-1", "honest-2", "stand-in"));

    Map<String, Integer> drawn = new HashMap<>();
    for (int i = 0; i < AGREEMENTS; i++) {
      String id = "asa-steer-%02d".formatted(i);
      activate(as("alice"), as("bob"), claimingImpartial(id));
      PoolAgreements.Recorded r = recompute(server, as("alice"), id);
      assertThat(r.candidates())
          .as("the provider's claim removes nobody")
          .containsExactlyInAnyOrder(
              Fixtures.key("honest-1").publicKey(),
              Fixtures.key("honest-2").publicKey(),
              Fixtures.key("stand-in").publicKey());
      assertThat(r.event().path("payload").path("excluded")).isEmpty();
      drawn.merge(r.primaryIdentity(), 1, Integer::sum);
    }
    // Each of the three is drawn at about its fair third (10 of 30); before the fix the honest
    // two were excluded and the stand-in was drawn 30 of 30.
    assertThat(drawn.keySet()).containsExactlyInAnyOrder("honest-1", "honest-2", "stand-in");
    assertThat(drawn.values())
        .as("drawn: %s", drawn)
        .allSatisfy(n -> assertThat(n).isBetween(4, 18));
    assertThat(drawn.get("honest-1") + drawn.get("honest-2"))
        .as("the honest evaluators together: %s", drawn)
        .isGreaterThanOrEqualTo(12);
  }

  @Test
  void anEvaluatorThatDeclaredAConflictWithTheProviderIsExcludedAndTheRecordSaysWhy() {
    register("honest-1", "Impartial Ltd");
    register("honest-2", "Impartial Ltd");
    register("recused", "Impartial Ltd", "bob"); // its own word: it must not judge bob's work
    qualify(List.of("honest-1", "honest-2", "recused"));

    for (int i = 0; i < 5; i++) {
      String id = "asa-recused-%02d".formatted(i);
      activate(as("alice"), as("bob"), claimingImpartial(id));
      PoolAgreements.Recorded r = recompute(server, as("alice"), id);
      assertThat(r.candidates())
          .containsExactlyInAnyOrder(
              Fixtures.key("honest-1").publicKey(), Fixtures.key("honest-2").publicKey());
      assertThat(r.event().path("payload").path("excluded").toString())
          .as("the draw's record names who was excluded and by which rule, not whom it named")
          .isEqualTo(
              "[{\"evaluator\":\"" + keyOf("recused") + "\",\"rules\":[\"declared_conflict\"]}]");
    }
    // The record that names them is the parties' (and the evaluators') to read, not a stranger's.
    assertThatThrownBy(() -> as("mallory").events("asa-recused-00"))
        .isInstanceOfSatisfying(AsaApiException.class, e -> assertThat(e.status()).isEqualTo(404));
  }

  @Test
  void anEvaluatorHoldingTheProvidersKeyIsExcludedByThatRule() {
    register("honest-1", "Impartial Ltd");
    register("bob", "Independent Judges"); // the provider's own key, registered as an evaluator
    qualify(List.of("honest-1", "bob"));

    activate(as("alice"), as("bob"), pooled("asa-steer-key"));
    PoolAgreements.Recorded r = recompute(server, as("alice"), "asa-steer-key");
    assertThat(r.primaryIdentity()).isEqualTo("honest-1");
    assertThat(r.event().path("payload").path("excluded").toString())
        .isEqualTo(
            "[{\"evaluator\":\"" + keyOf("bob") + "\",\"rules\":[\"same_key_as_provider\"]}]");
  }
}
