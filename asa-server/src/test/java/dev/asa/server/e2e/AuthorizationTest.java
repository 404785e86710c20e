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
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The authorization table of docs/access.md, cell by cell, through real HTTP with real request
 * signatures. The expectations are written out here, not derived from the policy, so that a change
 * to the policy shows up as a failing cell.
 */
class AuthorizationTest {
  @TempDir static Path dataDir;
  static AsaServer server;
  static AsaClient anonymous;
  static final HttpClient http = HttpClient.newHttpClient();

  static final String CLIENT = "alice";
  static final String PROVIDER = "bob";
  static final String EVALUATOR = "eval-1";
  static final String STRANGER = "mallory";
  static final String OPERATOR = "operator";

  @BeforeAll
  static void start() {
    server =
        AsaServer.start(
            ServerConfig.defaults()
                .withPort(0)
                .withDataDir(dataDir)
                .withOperatorKey(Fixtures.key(OPERATOR).publicKey())
                .withRateLimit(10_000, 10_000)
                // A 0 s challenge window is due at once: the server's own timer must not close it
                // first.
                .withTimerPolling(false));
    anonymous = AsaClient.connect(URI.create(server.url("127.0.0.1")));
  }

  @AfterAll
  static void stop() {
    server.close();
  }

  /** A = allowed (not 401/403/404), F = 403 forbidden, N = 404 as if it did not exist. */
  static Stream<Arguments> table() {
    String[] callers = {CLIENT, PROVIDER, EVALUATOR, STRANGER, OPERATOR};
    Object[][] rows = {
      //  operation                      client provider evaluator stranger operator
      {"read agreement", "A", "A", "A", "N", "A"},
      {"read status", "A", "A", "A", "N", "A"},
      {"read events", "A", "A", "A", "N", "A"},
      {"negotiate", "A", "A", "F", "N", "N"},
      {"sign client slot", "A", "F", "F", "N", "N"},
      {"sign provider slot", "F", "A", "F", "N", "N"},
      {"deliver", "F", "A", "F", "N", "N"},
      {
        "trigger verification", "A", "A", "N", "N", "N"
      }, // eval-1 is no party where the built-in judges
      {"submit verification result", "F", "F", "A", "N", "N"},
      {"challenge", "A", "A", "F", "N", "N"},
      {"close", "A", "A", "A", "N", "N"},
      {"fund", "A", "F", "F", "N", "N"},
      {"read escrow", "A", "A", "A", "N", "A"},
      {"rule", "F", "F", "F", "N", "A"},
    };
    List<Arguments> cells = new ArrayList<>();
    for (Object[] row : rows) {
      for (int i = 0; i < callers.length; i++) {
        cells.add(Arguments.of(row[0], callers[i], row[i + 1]));
      }
    }
    return cells.stream();
  }

  @ParameterizedTest(name = "{0} by {1}: {2}")
  @MethodSource("table")
  void cell(String operation, String caller, String expected) throws Exception {
    String id = agreementReadyFor(operation);
    JsonNode before = as(CLIENT).events(id);
    int status = attempt(operation, caller, id);
    switch (expected) {
      case "A" -> assertThat(status).as("%s by %s", operation, caller).isBetween(200, 299);
      case "F" -> assertThat(status).as("%s by %s", operation, caller).isEqualTo(403);
      case "N" -> assertThat(status).as("%s by %s", operation, caller).isEqualTo(404);
      default -> throw new IllegalArgumentException(expected);
    }
    if (!expected.equals("A")) {
      assertThat(as(CLIENT).events(id))
          .as("a refused call leaves the log as it was")
          .isEqualTo(before);
    }
  }

  @Test
  void onlyTheClientNamedInTheDocumentMayCreateIt() throws Exception {
    for (String who : List.of(PROVIDER, EVALUATOR, STRANGER, OPERATOR)) {
      assertThat(send(who, "POST", "/agreements", Json.write(Fixtures.general())).statusCode())
          .as(who)
          .isEqualTo(403);
    }
    assertThat(send(CLIENT, "POST", "/agreements", Json.write(Fixtures.general())).statusCode())
        .isEqualTo(201);
  }

  @Test
  void aListShowsOnlyTheCallersOwnAgreements() throws Exception {
    String id = as(CLIENT).createAgreement(Fixtures.general()).path("agreement_id").asText();
    assertThat(as(CLIENT).list("alice", null, 200).path("items").findValuesAsText("agreement_id"))
        .contains(id);
    assertThat(as(PROVIDER).list("bob", null, 200).path("items").findValuesAsText("agreement_id"))
        .contains(id);
    // Mallory names alice's identity: she gets none of alice's agreements.
    assertThat(as(STRANGER).list("alice", null, 200).path("items")).isEmpty();
  }

  /**
   * The console's operator view: everything a party may read, of agreements it takes no part in.
   */
  @Test
  void theOperatorReadsAnyAgreementAndAStrangerStillGetsNothing() throws Exception {
    String id = funded(Fixtures.general());
    String base = "/agreements/" + id;
    for (String path :
        List.of(
            base, base + "/status", base + "/events", base + "/negotiation", base + "/escrow")) {
      HttpResponse<String> read = send(OPERATOR, "GET", path, null);
      assertThat(read.statusCode()).as(path + " " + read.body()).isEqualTo(200);
      assertThat(Json.parse(read.body()).path("agreement_id").asText()).as(path).isEqualTo(id);
      assertThat(send("someone-random", "GET", path, null).statusCode()).as(path).isEqualTo(404);
    }
    assertThat(
            Json.parse(send(OPERATOR, "GET", base + "/escrow", null).body())
                .path("status")
                .asText())
        .isEqualTo("held");
    assertThat(
            Json.parse(send(OPERATOR, "GET", base + "/events", null).body())
                .path("chain_valid")
                .asBoolean())
        .isTrue();
    // Reading is all: the operator still cannot act as a party.
    assertThat(send(OPERATOR, "POST", base + "/close", null).statusCode()).isEqualTo(404);
  }

  @Test
  void adminRoutesAreTheOperatorsAlone() throws Exception {
    assertThat(send(OPERATOR, "GET", "/admin/config", null).statusCode()).isEqualTo(200);
    for (String who : List.of(CLIENT, PROVIDER, EVALUATOR, STRANGER)) {
      assertThat(send(who, "GET", "/admin/config", null).statusCode()).as(who).isEqualTo(403);
    }
    assertThat(send(null, "GET", "/admin/config", null).statusCode()).isEqualTo(401);
  }

  @Test
  void everyNonPublicRouteNeedsASignature() throws Exception {
    String id = as(CLIENT).createAgreement(Fixtures.general()).path("agreement_id").asText();
    for (String[] route :
        new String[][] {
          {"GET", "/agreements/" + id},
          {"GET", "/agreements/" + id + "/status"},
          {"GET", "/agreements/" + id + "/events"},
          {"GET", "/agreements?party=alice"},
          {"POST", "/agreements"},
          {"POST", "/agreements/" + id + "/sign"},
          {"PATCH", "/agreements/" + id + "/negotiate"},
          {"POST", "/agreements/" + id + "/close"}
        }) {
      HttpResponse<String> r = send(null, route[0], route[1], route[0].equals("GET") ? null : "{}");
      assertThat(r.statusCode()).as("%s %s", route[0], route[1]).isEqualTo(401);
      assertThat(Json.parse(r.body()).path("reason").asText()).isEqualTo("missing_signature");
    }
    for (String path :
        List.of(
            "/health",
            "/templates",
            "/templates/general",
            "/schemas/asa/1.0.0/agreement.json",
            "/.well-known/asa/server-key")) {
      assertThat(send(null, "GET", path, null).statusCode()).as(path).isEqualTo(200);
    }
  }

  @Test
  void aPublicResultIsReadableWithoutASignatureOthersAreNot() throws Exception {
    ObjectNode doc = Fixtures.general();
    doc.putObject("verification").put("result_visibility", "public");
    String pub = verified(doc);
    assertThat(send(null, "GET", "/agreements/" + pub + "/verification", null).statusCode())
        .isEqualTo(200);
    String priv = verified(Fixtures.general());
    // Unsigned, a private result answers exactly like a missing agreement
    // (ServerOwnedStateAttackTest compares the bodies).
    assertThat(send(null, "GET", "/agreements/" + priv + "/verification", null).statusCode())
        .isEqualTo(404);
    assertThat(send(STRANGER, "GET", "/agreements/" + priv + "/verification", null).statusCode())
        .isEqualTo(404);
    assertThat(send(PROVIDER, "GET", "/agreements/" + priv + "/verification", null).statusCode())
        .isEqualTo(200);
  }

  // ---- set-up and attempts ------------------------------------------------------------------

  static AsaClient as(String who) {
    return anonymous.withKey(Fixtures.key(who));
  }

  private static String agreementReadyFor(String operation) {
    return switch (operation) {
      case "fund" -> active(Fixtures.general());
      case "deliver", "read escrow" -> funded(Fixtures.general());
      case "rule" -> {
        String id = verified(Fixtures.general());
        as(CLIENT).challenge(id, Role.CLIENT, "quality_below_agreed_slo");
        yield id;
      }
      // Asking the built-in evaluator to run is for agreements whose terms make it the judge.
      case "trigger verification" -> delivered(Fixtures.judgedByBuiltIn(Fixtures.general()));
      case "submit verification result" -> delivered(Fixtures.general());
      case "challenge" -> verified(Fixtures.general());
      case "close" -> {
        ObjectNode doc = Fixtures.general();
        doc.putObject("verification").put("challenge_window_seconds", 0);
        yield verified(doc);
      }
      default -> as(CLIENT).createAgreement(Fixtures.general()).path("agreement_id").asText();
    };
  }

  private static String active(ObjectNode doc) {
    String id = as(CLIENT).createAgreement(doc).path("agreement_id").asText();
    as(CLIENT).sign(id, Role.CLIENT, Fixtures.key(CLIENT));
    as(PROVIDER).sign(id, Role.PROVIDER, Fixtures.key(PROVIDER));
    return id;
  }

  private static String funded(ObjectNode doc) {
    String id = active(doc);
    as(CLIENT).fund(id);
    return id;
  }

  private static String delivered(ObjectNode doc) {
    String id = funded(doc);
    as(PROVIDER).deliver(id, "# Report\n\nText.\n", "markdown");
    return id;
  }

  private static String verified(ObjectNode doc) {
    String id = delivered(doc);
    as(EVALUATOR).verify(id, LifecycleEndToEndTest.judgedScores(90, 90, 90));
    return id;
  }

  private static int attempt(String operation, String caller, String id) throws Exception {
    String base = "/agreements/" + id;
    return switch (operation) {
      case "read agreement" -> send(caller, "GET", base, null).statusCode();
      case "read status" -> send(caller, "GET", base + "/status", null).statusCode();
      case "read events" -> send(caller, "GET", base + "/events", null).statusCode();
      case "negotiate" ->
          send(
                  caller,
                  "PATCH",
                  base + "/negotiate",
                  "{\"round\":1,\"action\":\"counter\",\"rationale_code\":\"quality_requirement_change\",\"proposed_changes\":{\"quality_criteria.composite_threshold\":72}}")
              .statusCode();
      case "sign client slot" ->
          send(caller, "POST", base + "/sign", signBody(id, "client", CLIENT)).statusCode();
      case "sign provider slot" ->
          send(caller, "POST", base + "/sign", signBody(id, "provider", PROVIDER)).statusCode();
      case "deliver" ->
          send(
                  caller,
                  "POST",
                  base + "/deliver",
                  "{\"content\":\"# Done\\n\",\"format\":\"markdown\"}")
              .statusCode();
      case "trigger verification" -> {
        int s = send(caller, "POST", base + "/verify", null).statusCode();
        yield s == 422
            ? 200
            : s; // allowed: the built-in evaluator ran and said which scores it lacks
      }
      case "submit verification result" ->
          send(
                  caller,
                  "POST",
                  base + "/verify",
                  Json.write(
                      Json.object()
                          .set("evaluator_result", LifecycleEndToEndTest.judgedScores(90, 90, 90))))
              .statusCode();
      case "challenge" ->
          send(
                  caller,
                  "POST",
                  base + "/challenge",
                  "{\"reason_code\":\"quality_below_agreed_slo\"}")
              .statusCode();
      case "close" -> send(caller, "POST", base + "/close", null).statusCode();
      case "fund" -> send(caller, "POST", base + "/fund", null).statusCode();
      case "read escrow" -> send(caller, "GET", base + "/escrow", null).statusCode();
      case "rule" ->
          send(
                  caller,
                  "POST",
                  base + "/ruling",
                  "{\"release_percent\":40,\"reason\":\"partly useful\"}")
              .statusCode();
      default -> throw new IllegalArgumentException(operation);
    };
  }

  /** A valid signature body for a slot, made with that slot's key: only who sends it varies. */
  private static String signBody(String id, String party, String slotKey) {
    String hash = as(CLIENT).agreement(id).path("agreement_hash").asText();
    ObjectNode b = Json.object().put("party", party);
    b.putObject("signature")
        .put("scheme", "ed25519")
        .put(
            "value",
            Fixtures.key(slotKey).sign(hash.getBytes(StandardCharsets.UTF_8)).toBase64Url());
    return Json.write(b);
  }

  /** A request signed with the named fixture key, or unsigned when {@code who} is null. */
  static HttpResponse<String> send(String who, String method, String path, String body)
      throws Exception {
    URI uri = URI.create(server.url("127.0.0.1") + path);
    byte[] bytes = body == null ? null : body.getBytes(StandardCharsets.UTF_8);
    HttpRequest.Builder b =
        HttpRequest.newBuilder(uri)
            .method(
                method,
                bytes == null
                    ? HttpRequest.BodyPublishers.noBody()
                    : HttpRequest.BodyPublishers.ofByteArray(bytes));
    if (who != null) {
      Ed25519PrivateKey key = Fixtures.key(who);
      new RequestSigner(key, Clock.systemUTC(), new SecureRandom())
          .sign(method, uri, bytes)
          .asMap()
          .forEach(b::header);
    }
    return http.send(b.build(), HttpResponse.BodyHandlers.ofString());
  }
}
