package dev.asa.server.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.asa.agreement.Role;
import dev.asa.client.AsaClient;
import dev.asa.crypto.Ed25519PrivateKey;
import dev.asa.json.Json;
import dev.asa.server.AsaServer;
import dev.asa.server.config.ServerConfig;
import dev.asa.signedrequests.RequestSigner;
import dev.asa.testing.Fixtures;
import dev.asa.testing.MutableClock;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What the browser console reads (issue 18), over HTTP on SQLite: the filters of {@code GET
 * /agreements} and their refusals, the operator's listing of every agreement, {@code GET
 * /agreements/counts} for a party, a stranger and the operator, and {@code GET /admin/health}.
 *
 * <p>Four agreements, a minute apart: alice's {@code first} (general, 10.00 USD, proposed), {@code
 * research} (research, 250.00 USD, active), {@code euros} (general, 9.50 EUR, proposed), and
 * carol's {@code carols} (general, 99.00 USD, proposed), in which alice takes no part: carol has a
 * display name of her own (markup included), dave none, and eval-1 is "Judge One" (elsewhere it has
 * none).
 */
class ConsoleApiTest {
  @TempDir static Path dataDir;
  static final Instant T0 = Instant.parse("2026-11-22T10:00:00Z");
  static final MutableClock clock = new MutableClock(T0);
  static final HttpClient http = HttpClient.newHttpClient();
  static AsaServer server;
  static String first;
  static String research;
  static String euros;
  static String carols;

  /** Carol's display name: text with markup in it, which the API hands on as it is. */
  static final String CAROLS = "Carol's <b>research</b> & co";

  static final Ed25519PrivateKey ALICE = Fixtures.key("alice");
  static final Ed25519PrivateKey OPERATOR = Fixtures.key("operator");
  static final Ed25519PrivateKey MALLORY = Fixtures.key("mallory");

  @BeforeAll
  static void start() {
    server =
        AsaServer.start(
            ServerConfig.defaults()
                .withPort(0)
                .withDataDir(dataDir)
                .withClock(clock)
                .withOperatorKey(OPERATOR.publicKey())
                .withRateLimit(10_000, 10_000)
                .withTimerPolling(false));
    first = create("alice", Fixtures.general());
    clock.advance(Duration.ofMinutes(1));
    research = create("alice", priced(Fixtures.fromTemplate("research"), "250.00", "USD"));
    client("alice").sign(research, Role.CLIENT, ALICE);
    client("bob").sign(research, Role.PROVIDER, Fixtures.key("bob"));
    clock.advance(Duration.ofMinutes(1));
    euros = create("alice", priced(Fixtures.general(), "9.50", "EUR"));
    clock.advance(Duration.ofMinutes(1));
    ObjectNode theirs = priced(Fixtures.general(), "99.00", "USD");
    ((ObjectNode) theirs.path("parties"))
        .set("client", Fixtures.party("carol", Fixtures.key("carol")).put("display_name", CAROLS));
    ObjectNode dave = Fixtures.party("dave", Fixtures.key("dave"));
    dave.remove("display_name");
    ((ObjectNode) theirs.path("parties")).set("provider", dave);
    ((ObjectNode) theirs.path("parties").path("evaluator")).put("display_name", "Judge One");
    carols = create("carol", theirs);
  }

  @AfterAll
  static void stop() {
    server.close();
  }

  @Test
  void eachFilterNarrowsAPartysList() throws Exception {
    assertThat(ids(ALICE, "party=alice")).containsExactly(euros, research, first);
    assertThat(ids(ALICE, "party=alice&state=active")).containsExactly(research);
    assertThat(ids(ALICE, "party=alice&state=PROPOSED")).containsExactly(euros, first);
    assertThat(ids(ALICE, "party=alice&service_type=research")).containsExactly(research);
    assertThat(ids(ALICE, "party=alice&created_after=2026-11-22T10:00:30Z"))
        .containsExactly(euros, research);
    assertThat(ids(ALICE, "party=alice&created_before=2026-11-22T11:00:30%2B01:00"))
        .as("an offset other than Z")
        .containsExactly(first);
    assertThat(ids(ALICE, "party=alice&min_amount=10")).containsExactly(research, first);
    assertThat(ids(ALICE, "party=alice&max_amount=10.00")).containsExactly(euros, first);
    assertThat(ids(ALICE, "party=alice&min_amount=9.5&max_amount=9.5")).containsExactly(euros);
    assertThat(ids(ALICE, "party=alice&currency=EUR")).containsExactly(euros);
    assertThat(ids(ALICE, "party=alice&currency=USD&state=proposed")).containsExactly(first);
    // Alice names carol: she learns nothing of carol's agreement.
    assertThat(ids(ALICE, "party=carol")).isEmpty();

    JsonNode item = get(ALICE, "/agreements?party=alice&currency=EUR").body().path("items").get(0);
    assertThat(item.path("amount").asText()).isEqualTo("9.50");
    assertThat(item.path("currency").asText()).isEqualTo("EUR");
    assertThat(item.path("state").asText()).isEqualTo("PROPOSED");
  }

  /**
   * Beside each party's identity, a summary carries the display name the agreement gives it ({@code
   * client_display_name}...), and leaves the member out where it gives none: in a party's listing
   * and in the operator's alike.
   */
  @Test
  void eachPartyOfASummaryCarriesTheDisplayNameTheAgreementGivesIt() throws Exception {
    for (Ed25519PrivateKey key : List.of(Fixtures.key("carol"), OPERATOR)) {
      JsonNode item = get(key, "/agreements?party=carol").body().path("items").get(0);
      assertThat(item.path("agreement_id").asText()).isEqualTo(carols);
      assertThat(item.path("client").asText()).isEqualTo("carol");
      assertThat(item.path("client_display_name").asText()).isEqualTo(CAROLS);
      assertThat(item.path("provider").asText()).isEqualTo("dave");
      assertThat(item.has("provider_display_name")).as("dave is given no name").isFalse();
      assertThat(item.path("evaluator").asText()).isEqualTo("eval-1");
      assertThat(item.path("evaluator_display_name").asText()).isEqualTo("Judge One");
    }
    JsonNode everyone = get(OPERATOR, "/agreements").body().path("items");
    assertThat(everyone.findValuesAsText("client_display_name"))
        .containsExactly(CAROLS, "alice", "alice", "alice");
    assertThat(everyone.findValuesAsText("provider_display_name"))
        .as("carol's agreement gives dave none")
        .containsExactly("bob", "bob", "bob");
    assertThat(everyone.findValuesAsText("evaluator_display_name")).containsExactly("Judge One");
  }

  @Test
  void aBadValueOfEachParameterIsA400NamingIt() throws Exception {
    Map<String, String> bad =
        Map.ofEntries(
            Map.entry("state", "open"),
            Map.entry("service_type", "Research"),
            Map.entry("created_after", "yesterday"),
            Map.entry("created_before", "2026-11-22"),
            Map.entry("min_amount", "-1"),
            Map.entry("max_amount", "1e3"),
            Map.entry("currency", "usd"),
            Map.entry("cursor", "not-a-cursor"));
    for (var e : bad.entrySet()) {
      for (Ed25519PrivateKey key : List.of(ALICE, OPERATOR)) {
        Answer a = get(key, "/agreements?party=alice&" + e.getKey() + "=" + e.getValue());
        assertThat(a.status()).as(e.getKey() + " " + a.body()).isEqualTo(400);
        assertThat(a.contentType()).isEqualTo("application/problem+json");
        assertThat(a.body().path("query_parameter").asText()).isEqualTo(e.getKey());
        assertThat(a.body().path("detail").asText()).startsWith(e.getKey());
      }
    }
    assertThat(get(ALICE, "/agreements?party=alice&state=open").body().path("detail").asText())
        .contains("PROPOSED, NEGOTIATING, ACTIVE");
    Answer inverted = get(ALICE, "/agreements?party=alice&min_amount=20&max_amount=10");
    assertThat(inverted.status()).isEqualTo(400);
    assertThat(inverted.body().path("query_parameter").asText()).isEqualTo("max_amount");
    assertThat(get(ALICE, "/agreements?party=alice&limit=0").status()).isEqualTo(400);

    Answer noParty = get(ALICE, "/agreements?state=active");
    assertThat(noParty.status()).isEqualTo(400);
    assertThat(noParty.body().path("query_parameter").asText()).isEqualTo("party");
    assertThat(get(ALICE, "/agreements/counts").body().path("query_parameter").asText())
        .isEqualTo("party");
    assertThat(get(OPERATOR, "/agreements/counts?currency=usd").status()).isEqualTo(400);
    assertThat(get(OPERATOR, "/agreements/counts?created_after=now").status()).isEqualTo(400);
  }

  @Test
  void theOperatorListsEveryAgreementNewestFirstAndPages() throws Exception {
    assertThat(ids(OPERATOR, "")).containsExactly(carols, euros, research, first);
    assertThat(ids(OPERATOR, "state=proposed&currency=USD")).containsExactly(carols, first);
    assertThat(ids(OPERATOR, "party=carol")).containsExactly(carols);
    assertThat(ids(OPERATOR, "party=alice")).containsExactly(euros, research, first);

    JsonNode page = get(OPERATOR, "/agreements?limit=3").body();
    assertThat(page.path("items").findValuesAsText("agreement_id"))
        .containsExactly(carols, euros, research);
    JsonNode rest =
        get(OPERATOR, "/agreements?limit=3&cursor=" + page.path("next_cursor").asText()).body();
    assertThat(rest.path("items").findValuesAsText("agreement_id")).containsExactly(first);
    assertThat(rest.path("next_cursor").isNull()).isTrue();

    // Any other key must name a party.
    assertThat(get(MALLORY, "/agreements").status()).isEqualTo(400);
  }

  @Test
  void countsByStateForAPartyAStrangerAndTheOperator() throws Exception {
    JsonNode alices = get(ALICE, "/agreements/counts?party=alice").body();
    assertThat(alices.path("counts").size()).isEqualTo(9);
    assertThat(alices.path("counts").path("PROPOSED").asLong()).isEqualTo(2);
    assertThat(alices.path("counts").path("ACTIVE").asLong()).isEqualTo(1);
    assertThat(alices.path("counts").path("CLOSED").asLong()).isZero();
    assertThat(alices.path("total").asLong()).isEqualTo(3);
    assertThat(alices.path("complete").asBoolean()).isTrue();

    JsonNode dollars =
        get(ALICE, "/agreements/counts?party=alice&currency=USD&state=closed").body();
    assertThat(dollars.path("counts").path("PROPOSED").asLong())
        .as("state is not a filter of counts")
        .isEqualTo(1);
    assertThat(dollars.path("total").asLong()).isEqualTo(2);
    assertThat(
            get(ALICE, "/agreements/counts?party=alice&service_type=research&min_amount=100")
                .body()
                .path("total")
                .asLong())
        .isEqualTo(1);

    JsonNode strangers = get(MALLORY, "/agreements/counts?party=alice").body();
    assertThat(strangers.path("total").asLong()).isZero();
    assertThat(strangers.path("counts").size()).isEqualTo(9);

    JsonNode all = get(OPERATOR, "/agreements/counts").body();
    assertThat(all.path("counts").path("PROPOSED").asLong()).isEqualTo(3);
    assertThat(all.path("total").asLong()).isEqualTo(4);
    assertThat(all.path("complete").asBoolean()).isTrue();
    assertThat(get(OPERATOR, "/agreements/counts?party=carol").body().path("total").asLong())
        .isEqualTo(1);
  }

  @Test
  void theHealthSummaryIsTheOperatorsAndAddsUpTheAgreements() throws Exception {
    Answer health = get(OPERATOR, "/admin/health");
    assertThat(health.status()).as(health.body().toString()).isEqualTo(200);
    JsonNode byState = health.body().path("agreements").path("by_state");
    assertThat(byState.size()).isEqualTo(9);
    assertThat(byState.path("PROPOSED").path("count").asLong()).isEqualTo(3);
    assertThat(byState.path("PROPOSED").path("amounts"))
        .isEqualTo(Json.object().put("EUR", "9.50").put("USD", "109.00"));
    assertThat(byState.path("ACTIVE").path("amounts"))
        .isEqualTo(Json.object().put("USD", "250.00"));
    assertThat(byState.path("CLOSED").path("count").asLong()).isZero();
    assertThat(health.body().path("requests").path("count").asLong()).isPositive();
    assertThat(health.body().path("verification_jobs").path("queued").asLong()).isZero();
    assertThat(health.body().path("timers").has("pending")).isTrue();
    assertThat(health.body().path("outbox").path("attempts").isObject()).isTrue();
    assertThat(health.body().path("ledger").isArray()).isTrue();
    assertThat(Instant.parse(health.body().path("generated_at").asText())).isAfterOrEqualTo(T0);

    assertThat(get(ALICE, "/admin/health").status()).isEqualTo(403);
  }

  // ---- set-up ---------------------------------------------------------------------------------

  static ObjectNode priced(ObjectNode doc, String amount, String currency) {
    ((ObjectNode) doc.path("escrow").path("payment"))
        .put("amount", amount)
        .put("currency", currency);
    return doc;
  }

  static AsaClient client(String who) {
    return AsaClient.connect(URI.create(server.url("127.0.0.1"))).withKey(Fixtures.key(who), clock);
  }

  static String create(String who, ObjectNode doc) {
    return client(who).createAgreement(doc).path("agreement_id").asText();
  }

  record Answer(int status, String contentType, JsonNode body) {}

  static List<String> ids(Ed25519PrivateKey key, String query) throws Exception {
    Answer a = get(key, query.isEmpty() ? "/agreements" : "/agreements?" + query);
    assertThat(a.status()).as(query + " " + a.body()).isEqualTo(200);
    assertThat(a.body().path("next_cursor").isNull()).as(query).isTrue();
    return a.body().path("items").findValuesAsText("agreement_id");
  }

  static Answer get(Ed25519PrivateKey key, String path) throws Exception {
    URI uri = URI.create(server.url("127.0.0.1") + path);
    HttpRequest.Builder b = HttpRequest.newBuilder(uri).GET();
    new RequestSigner(key, clock, new SecureRandom())
        .sign("GET", uri, null)
        .asMap()
        .forEach(b::header);
    HttpResponse<String> r = http.send(b.build(), HttpResponse.BodyHandlers.ofString());
    return new Answer(
        r.statusCode(), r.headers().firstValue("content-type").orElse(""), Json.parse(r.body()));
  }
}
