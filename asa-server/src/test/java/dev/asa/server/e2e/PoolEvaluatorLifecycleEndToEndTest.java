package dev.asa.server.e2e;

import static dev.asa.server.e2e.PoolAgreements.activate;
import static dev.asa.server.e2e.PoolAgreements.pooled;
import static dev.asa.server.e2e.PoolAgreements.recompute;
import static dev.asa.server.e2e.PoolAgreements.verification;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.asa.client.AsaApiException;
import dev.asa.client.AsaClient;
import dev.asa.integrity.PoolMember;
import dev.asa.integrity.Standing;
import dev.asa.lifecycle.EventChain;
import dev.asa.server.AsaServer;
import dev.asa.server.config.ServerConfig;
import dev.asa.server.pool.AssignmentConfig;
import dev.asa.testing.Fixtures;
import dev.asa.testing.MutableClock;
import java.math.BigDecimal;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Agreements judged by a pool evaluator from proposal to payment, over HTTP: the assigned evaluator
 * acts exactly as a named one would (reads, submits, its result moves the money), and every other
 * key, pool members included, is a stranger to the agreement.
 */
class PoolEvaluatorLifecycleEndToEndTest {
  @TempDir Path dataDir;
  private final MutableClock clock = new MutableClock(Instant.parse("2026-11-22T10:00:00Z"));
  private final InMemoryPool pool = new InMemoryPool();
  private AsaServer server;
  private AsaClient anonymous;
  private AsaClient client;
  private AsaClient provider;

  @BeforeEach
  void start() {
    server =
        AsaServer.start(
            ServerConfig.defaults()
                .withPort(0)
                .withDataDir(dataDir)
                .withClock(clock)
                .withAssignment(AssignmentConfig.DEFAULTS.withPool(pool)));
    anonymous = AsaClient.connect(URI.create(server.url("127.0.0.1")));
    client = as("alice");
    provider = as("bob");
  }

  private AsaClient as(String name) {
    return anonymous.withKey(Fixtures.key(name), clock);
  }

  @AfterEach
  void stop() {
    server.close();
  }

  @Test
  void aPoolAssignedEvaluatorJudgesTheDeliveryAndTheMoneyMoves() {
    List.of("judge-1", "judge-2", "judge-3").forEach(n -> pool.register(InMemoryPool.qualified(n)));
    String id = "asa-pool-life";
    activate(client, provider, pooled(id));
    PoolAgreements.Recorded r = recompute(server, client, id);
    String judge = r.primaryIdentity();
    String stranger =
        List.of("judge-1", "judge-2", "judge-3").stream()
            .filter(n -> !n.equals(judge))
            .findFirst()
            .orElseThrow();
    AsaClient evaluator = as(judge);
    AsaClient other = as(stranger);

    // The assigned evaluator reads what an evaluator may read, and finds the agreement by party.
    assertThat(evaluator.agreement(id).path("state").asText()).isEqualTo("ACTIVE");
    assertThat(evaluator.events(id).path("chain_valid").asBoolean()).isTrue();
    JsonNode listed = evaluator.list(judge, null, 0).path("items");
    assertThat(listed).extracting(a -> a.path("agreement_id").asText()).containsExactly(id);
    assertThat(listed.get(0).path("evaluator").asText()).isEqualTo(judge);
    // Another pool member is a stranger: the agreement does not exist for it.
    assertNotFound(() -> other.agreement(id));

    client.fund(id);
    clock.advance(Duration.ofMinutes(10));
    provider.deliver(
        id, "# Federated learning\n\nDifferential privacy bounds leakage.\n", "markdown");
    assertNotFound(() -> other.verify(id, LifecycleEndToEndTest.judgedScores(99, 99, 99)));
    assertNotFound(() -> as("eval-1").verify(id, LifecycleEndToEndTest.judgedScores(99, 99, 99)));

    ObjectNode verified = evaluator.verify(id, LifecycleEndToEndTest.judgedScores(88, 82, 94));
    assertThat(verified.path("state").asText()).isEqualTo("VERIFIED");
    JsonNode result = verified.path("verification");
    assertThat(result.path("evaluator").path("identity").path("value").asText()).isEqualTo(judge);
    assertThat(result.path("evaluator").path("type").asText()).isEqualTo("pool");
    assertThat(result.path("determination").path("payment_release_percent").decimalValue())
        .isEqualByComparingTo("100");
    assertThat(pool.assessments())
        .singleElement()
        .satisfies(a ->
            assertThat(a.evaluatorKeyId())
                .isEqualTo(Fixtures.key(judge).publicKey().toBase64Url()));
    assertThat(pool.memberNamed(judge).record().evaluations()).isEqualTo(61);

    clock.advance(Duration.ofSeconds(7200));
    assertThat(client.close(id).path("state").asText()).isEqualTo("CLOSED");
    JsonNode payment = client.status(id).path("payment");
    assertThat(payment.path("status").asText()).isEqualTo("settled");
    assertThat(payment.path("released_to_provider").asText()).isEqualTo("10.00");

    JsonNode events = client.events(id);
    assertThat(events.path("events"))
        .extracting(e -> e.path("type").asText())
        .containsExactly(
            "created",
            "signed",
            "signed",
            "evaluator_assigned",
            "funded",
            "delivered",
            "verified",
            "closed");
    assertThat(EventChain.firstBreak(events)).isEmpty();
  }

  @Test
  void marketplaceAssignsTheBestMatchWithinTheCriteriaAndItsResultSettles() {
    pool.register(
        market("cheap", "0.20", 18, "4", List.of("medicine"))); // 90%: qualifies, ranks low
    pool.register(market("best", "0.40", 20, "3", List.of("medicine")));
    pool.register(market("close-second", "0.30", 20, "5", List.of("medicine")));
    pool.register(market("pricey", "2.00", 20, "1", List.of("medicine")));
    pool.register(market("generalist", "0.10", 20, "1", List.of()));
    ObjectNode doc = pooled("asa-market");
    verification(doc)
        .putObject("evaluator_selection")
        .put("mode", "marketplace")
        .putObject("criteria")
        .put("domain", "medicine")
        .put("max_price_usd", new BigDecimal("0.50"));
    activate(client, provider, doc);
    PoolAgreements.Recorded r = recompute(server, client, "asa-market");
    assertThat(r.fact().path("mode").asText()).isEqualTo("marketplace");
    assertThat(r.primaryIdentity()).isEqualTo("best");
    JsonNode ranking = r.event().path("payload").path("ranking");
    assertThat(ranking)
        .as("best first; pricey and generalist do not meet the criteria")
        .extracting(f -> f.path("key").asText())
        .containsExactly(key("best"), key("close-second"), key("cheap"));
    assertThat(r.event().path("payload").path("draws")).isEmpty();

    client.fund("asa-market");
    provider.deliver("asa-market", "# Notes\n\nSome text.\n", "markdown");
    // 0.30*70 + 0.25*60 + 0.30*70 + 0.15*100 = 72: the >= 60 tier releases 50%.
    as("best").verify("asa-market", LifecycleEndToEndTest.judgedScores(70, 60, 70));
    clock.advance(Duration.ofHours(3));
    client.close("asa-market");
    JsonNode payment = client.status("asa-market").path("payment");
    assertThat(payment.path("released_to_provider").asText()).isEqualTo("5.00");
    assertThat(payment.path("refunded_to_client").asText()).isEqualTo("5.00");
  }

  @Test
  void mutualModeWithoutProposalsFallsBackToTheRandomDrawAndSaysSo() {
    List.of("judge-1", "judge-2").forEach(n -> pool.register(InMemoryPool.qualified(n)));
    ObjectNode doc = pooled("asa-mutual");
    verification(doc).putObject("evaluator_selection").put("mode", "mutual").put("max_rounds", 2);
    activate(client, provider, doc);
    PoolAgreements.Recorded r = recompute(server, client, "asa-mutual");
    assertThat(r.fact().path("mode").asText()).isEqualTo("mutual");
    assertThat(r.fact().path("notes").toString())
        .contains("the parties agreed on no eligible evaluator; drawn at random from the pool");
    PoolAgreements.deliverAndVerify(client, provider, as(r.primaryIdentity()), "asa-mutual");
  }

  private static String key(String name) {
    return Fixtures.key(name).publicKey().toBase64Url();
  }

  private static PoolMember market(
      String name, String price, int passesOf20, String deviation, List<String> domains) {
    return new PoolMember(
        InMemoryPool.profile(name, "Org of " + name, null, new BigDecimal(price), domains),
        InMemoryPool.record(60, 20, passesOf20, deviation),
        Standing.ACTIVE);
  }

  private static void assertNotFound(Runnable call) {
    assertThatThrownBy(call::run)
        .isInstanceOfSatisfying(AsaApiException.class, e -> assertThat(e.status()).isEqualTo(404));
  }
}
