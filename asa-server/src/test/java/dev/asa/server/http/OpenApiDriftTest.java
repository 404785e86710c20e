package dev.asa.server.http;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.asa.client.AsaClient;
import dev.asa.crypto.Ed25519PrivateKey;
import dev.asa.json.Json;
import dev.asa.negotiation.NegotiationPolicy;
import dev.asa.server.AsaServer;
import dev.asa.server.config.ServerConfig;
import dev.asa.signedrequests.RequestSigner;
import dev.asa.template.Templates;
import dev.asa.testing.Fixtures;
import dev.asa.testing.MutableClock;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The OpenAPI document cannot drift from the server (issue 17): it is a valid OpenAPI 3.1 document;
 * it describes exactly the routes of {@link Routes}' table; and a real answer of every route, from
 * a lifecycle driven over the wire (create, negotiate, seal, sign, fund, deliver, verify,
 * challenge, ruling, close, escrow, events, the filtered list and its counts, standalone seals and
 * verifications, the market, the evaluator registry and queue, the admin routes and health) and a
 * few refusals, has a documented status and content type and a body the declared schema accepts.
 */
class OpenApiDriftTest {
  @TempDir static Path dataDir;
  static final MutableClock clock = new MutableClock(Instant.parse("2026-11-22T10:00:00Z"));
  static AsaServer server;
  static JsonNode document;
  static final HttpClient http = HttpClient.newHttpClient();

  @BeforeAll
  static void start() throws Exception {
    server =
        AsaServer.start(
            ServerConfig.defaults()
                .withPort(0)
                .withDataDir(dataDir)
                .withClock(clock)
                .withOperatorKey(Fixtures.key("operator").publicKey())
                .withRateLimit(10_000, 10_000)
                .withTimerPolling(false));
    Exchange served = call(null, "GET", "/openapi.json", null);
    assertThat(served.status()).isEqualTo(200);
    assertThat(served.contentType()).startsWith("application/json");
    document = served.body();
  }

  @AfterAll
  static void stop() {
    server.close();
  }

  /** One request and its answer, as seen on the wire. */
  record Exchange(String method, String path, int status, String contentType, JsonNode body) {}

  @Test
  void theDocumentIsAValidOpenApi31Document() {
    assertThat(document.path("openapi").asText()).startsWith("3.1.");
    assertThat(OpenApiContract.oasViolations(document)).isEmpty();
  }

  /** The validator is not a rubber stamp: each of these breaks the OpenAPI 3.1 schema. */
  @Test
  void theOfficialSchemaRejectsABrokenDocument() {
    ObjectNode noDescription = document.deepCopy();
    ((ObjectNode) noDescription.at("/paths/~1health/get/responses/200")).remove("description");
    ObjectNode noTitle = document.deepCopy();
    ((ObjectNode) noTitle.path("info")).remove("title");
    ObjectNode badSchema = document.deepCopy();
    ((ObjectNode) badSchema.at("/components/schemas/Health")).put("type", "thing");
    Map.of(
            "a response without a description", noDescription,
            "info without a title", noTitle,
            "a schema of type 'thing'", badSchema)
        .forEach((what, broken) ->
            assertThat(OpenApiContract.oasViolations(broken)).as(what).isNotEmpty());
  }

  @Test
  void everyRouteOfTheTableIsDocumentedAndNothingElse() {
    Set<String> table =
        server.routes().stream()
            .map(r -> r.method() + " " + r.path())
            .collect(Collectors.toCollection(TreeSet::new));
    Set<String> javalin =
        server.endpoints().stream()
            .map(e -> e.method.name() + " " + e.path)
            .collect(Collectors.toCollection(TreeSet::new));
    assertThat(table).as("the table is what Javalin serves").isEqualTo(javalin);
    assertThat(new TreeSet<>(new OpenApiContract(document).operations())).isEqualTo(table);
  }

  @Test
  void everyPublicRouteIsDocumentedAsUnsignedAndEveryOtherAsSigned() {
    for (RouteInfo route : server.routes()) {
      JsonNode op =
          document
              .path("paths")
              .path(route.path())
              .path(route.method().toLowerCase(java.util.Locale.ROOT));
      JsonNode security = op.path("security");
      String label = route + " security " + security;
      switch (route.access()) {
        case PUBLIC -> assertThat(security.isArray() && security.isEmpty()).as(label).isTrue();
        case SIGNED, OPERATOR ->
            assertThat(security.isMissingNode()).as(label + " (inherits the signature)").isTrue();
        case SIGNED_OR_PUBLIC_RESULT ->
            assertThat(security.toString()).as(label).contains("{}").contains("httpSignature");
      }
    }
  }

  @Test
  void aRealAnswerOfEveryRouteMatchesTheDocument() throws Exception {
    List<Exchange> seen = new ArrayList<>(Lifecycle.drive());
    OpenApiContract contract = new OpenApiContract(document);
    List<String> problems = new ArrayList<>();
    Set<String> covered = new TreeSet<>();
    for (Exchange e : seen) {
      String path = e.path().split("\\?")[0];
      problems.addAll(contract.check(e.method(), path, e.status(), e.contentType(), e.body()));
      contract.template(path).ifPresent(t -> covered.add(e.method() + " " + t));
    }
    assertThat(problems).isEmpty();
    assertThat(covered)
        .as("routes with a real answer checked")
        .containsAll(new OpenApiContract(document).operations());
  }

  @Test
  void anUndocumentedMemberFailsTheCheck() {
    OpenApiContract contract = new OpenApiContract(document);
    JsonNode health = Json.object().put("status", "ok");
    assertThat(contract.check("GET", "/health", 200, "application/json", health)).isEmpty();
    JsonNode more = Json.object().put("status", "ok").put("uptime", 3);
    assertThat(contract.check("GET", "/health", 200, "application/json", more)).isNotEmpty();
    assertThat(contract.check("GET", "/health", 418, "application/json", health)).isNotEmpty();
    assertThat(contract.check("GET", "/no/such/route", 200, "application/json", health))
        .isNotEmpty();
  }

  /** The agreement inside an envelope is held to the agreement's own JSON Schema, embedded. */
  @Test
  void anEnvelopeIsCheckedDownToTheAgreementSchema() throws Exception {
    OpenApiContract contract = new OpenApiContract(document);
    ObjectNode envelope =
        (ObjectNode)
            call(Lifecycle.ALICE, "POST", "/agreements", Json.write(Fixtures.general())).body();
    String path = "/agreements/" + envelope.path("agreement_id").asText();
    assertThat(contract.check("GET", path, 200, "application/json", envelope)).isEmpty();
    ObjectNode extra = envelope.deepCopy().put("surprise", true);
    assertThat(contract.check("GET", path, 200, "application/json", extra)).isNotEmpty();
    ObjectNode broken = envelope.deepCopy();
    ((ObjectNode) broken.path("agreement")).put("escrow", "not an object");
    assertThat(contract.check("GET", path, 200, "application/json", broken))
        .anySatisfy(m -> assertThat(m).contains("/agreement/escrow"));
  }

  /** Drives the server through every route, recording each answer. */
  static final class Lifecycle {
    final List<Exchange> seen = new ArrayList<>();
    static final Ed25519PrivateKey ALICE = Fixtures.key("alice");
    static final Ed25519PrivateKey BOB = Fixtures.key("bob");
    static final Ed25519PrivateKey EVALUATOR = Fixtures.key("eval-1");
    static final Ed25519PrivateKey OPERATOR = Fixtures.key("operator");
    static final Ed25519PrivateKey JUDGE = Fixtures.key("judge-9");

    static List<Exchange> drive() throws Exception {
      Lifecycle l = new Lifecycle();
      l.publicRoutes();
      String disputed = l.disputedAndRuled();
      String closed = l.closedAfterTheWindow();
      l.refusals(disputed);
      l.standalone();
      l.registry();
      l.archived(closed);
      l.timedOutNegotiation();
      return l.seen;
    }

    Exchange go(Ed25519PrivateKey key, String method, String path, JsonNode body) throws Exception {
      Exchange e = call(key, method, path, body == null ? null : Json.write(body));
      seen.add(e);
      return e;
    }

    Exchange ok(Ed25519PrivateKey key, String method, String path, JsonNode body) throws Exception {
      Exchange e = go(key, method, path, body);
      assertThat(e.status()).as(method + " " + path + " " + e.body()).isBetween(200, 299);
      return e;
    }

    void publicRoutes() throws Exception {
      for (String path :
          List.of(
              "/health",
              "/ready",
              "/version",
              "/openapi.json",
              "/docs",
              "/docs/assets/swagger-ui.css",
              "/console",
              "/console/assets/console.js",
              "/templates",
              "/templates/general",
              "/schemas/asa/1.0.0/agreement.json",
              "/.well-known/asa/server-key")) {
        ok(null, "GET", path, null);
      }
      go(null, "GET", "/", null);
      go(null, "GET", "/templates/poetry", null);
      go(null, "GET", "/schemas/asa/9.0.0/agreement.json", null);
      go(null, "GET", "/docs/assets/secrets.txt", null);
      go(null, "GET", "/console/assets/secrets.txt", null);
    }

    String created(Ed25519PrivateKey key) throws Exception {
      return created(key, Fixtures.general());
    }

    String created(Ed25519PrivateKey key, ObjectNode doc) throws Exception {
      return ok(key, "POST", "/agreements", doc).body().path("agreement_id").asText();
    }

    void signBoth(String id) throws Exception {
      for (var party : List.of(List.of("client", ALICE), List.of("provider", BOB))) {
        Ed25519PrivateKey key = (Ed25519PrivateKey) party.get(1);
        String hash =
            ok(key, "GET", "/agreements/" + id, null).body().path("agreement_hash").asText();
        ObjectNode body = Json.object();
        body.put("party", (String) party.get(0));
        body.putObject("signature")
            .put("scheme", "ed25519")
            .put("value", key.sign(hash.getBytes(StandardCharsets.UTF_8)).toBase64Url());
        body.put("agreement_hash", hash);
        ok(key, "POST", "/agreements/" + id + "/sign", body);
      }
    }

    void deliverAndVerify(String id, int score) throws Exception {
      ok(
          BOB,
          "POST",
          "/agreements/" + id + "/deliver",
          Json.object()
              .put("content", "# Findings\n\nzq-secret-token-1-x and more.\n")
              .put("format", "markdown"));
      ObjectNode result = Json.object().put("confidence", 0.85).put("model", "judge-model-x");
      ArrayNode dims = result.putArray("dimensions");
      for (String name : List.of("accuracy", "completeness", "relevance")) {
        dims.addObject().put("name", name).put("score", score).put("evidence", "checked");
      }
      ok(
          EVALUATOR,
          "POST",
          "/agreements/" + id + "/verify",
          Json.object().set("evaluator_result", result));
    }

    String disputedAndRuled() throws Exception {
      String id = created(ALICE);
      String a = "/agreements/" + id;
      ok(ALICE, "GET", "/agreements?party=alice&limit=5", null);
      ok(ALICE, "GET", "/agreements?party=alice&state=proposed&currency=USD&min_amount=1", null);
      ok(ALICE, "GET", "/agreements/counts?party=alice&service_type=general", null);
      String negotiation =
          ok(BOB, "PATCH", a + "/negotiate", counter("12.50"))
              .body()
              .path("agreement")
              .path("metadata")
              .path("negotiation")
              .path("negotiation_id")
              .asText();
      ok(
          ALICE,
          "PATCH",
          a + "/negotiate",
          Json.object()
              .put("round", 2)
              .put("negotiation_id", negotiation)
              .put("action", "accept")
              .put("rationale_code", "accept_as_proposed"));
      ok(ALICE, "GET", a + "/negotiation", null);
      ObjectNode seal = Json.object();
      seal.putArray("criteria")
          .addObject()
          .put("id", "sc-1")
          .put("category", "happy_path")
          .put("assertion", "Mentions token 1")
          .put("expected", "the text names token 1")
          .put("message", "Missing requirement 1")
          .putObject("check")
          .put("type", "contains")
          .put("value", "zq-secret-token-1-x");
      ok(ALICE, "POST", a + "/seal", seal);
      ok(ALICE, "GET", a + "/seal", null);
      signBoth(id);
      ok(ALICE, "POST", a + "/fund", null);
      deliverAndVerify(id, 50);
      ok(ALICE, "GET", a + "/verification", null);
      go(null, "GET", a + "/verification", null); // 404: this agreement's result is not public
      go(ALICE, "GET", a + "/hardening", null);
      ok(
          BOB,
          "POST",
          a + "/challenge",
          Json.object().put("party", "provider").put("reason_code", "quality_below_agreed_slo"));
      ok(
          OPERATOR,
          "POST",
          a + "/ruling",
          Json.object().put("release_percent", 40).put("reason", "a partial deliverable"));
      ok(BOB, "GET", a + "/anchor", null); // ruled: anchorable
      // Bob's identity is no CoC chain: nothing to anchor in (nothing is fetched).
      refused(409, BOB, "POST", a + "/anchor", Json.object().put("chain_url", "https://x.test/c"));
      refused(422, BOB, "POST", a + "/anchor", Json.object().put("chain", 1));
      ok(ALICE, "GET", a, null);
      ok(ALICE, "GET", a + "/status", null);
      ok(BOB, "GET", a + "/events", null);
      ok(ALICE, "GET", a + "/escrow", null);
      ok(OPERATOR, "GET", a + "/escrow", null); // the operator reads every agreement
      ok(OPERATOR, "GET", "/agreements?limit=5", null); // and lists them all
      ok(OPERATOR, "GET", "/agreements/counts", null);
      ok(
          BOB,
          "GET",
          "/accounts/" + URLEncoder.encode(BOB.publicKey().toBase64Url(), StandardCharsets.UTF_8),
          null);
      return id;
    }

    /** With a collateral the provider stakes, returned when the agreement closes on a PASS. */
    String closedAfterTheWindow() throws Exception {
      ObjectNode doc = Fixtures.general();
      ((ObjectNode) doc.path("escrow")).putObject("collateral").put("amount", "3.00");
      String id = created(ALICE, doc);
      signBoth(id);
      ok(ALICE, "POST", "/agreements/" + id + "/fund", null);
      ok(ALICE, "GET", "/agreements/" + id + "/escrow", null); // collateral awaiting
      refused(409, BOB, "POST", "/agreements/" + id + "/deliver", deliverable());
      refused(422, BOB, "POST", "/agreements/" + id + "/collateral", Json.object().put("x", 1));
      ok(BOB, "POST", "/agreements/" + id + "/collateral", null);
      refused(409, BOB, "POST", "/agreements/" + id + "/collateral", null); // staked already
      deliverAndVerify(id, 90);
      clock.advance(Duration.ofSeconds(7201));
      ok(ALICE, "POST", "/agreements/" + id + "/close", null);
      ok(ALICE, "GET", "/agreements/" + id + "/status", null);
      ok(ALICE, "GET", "/agreements/" + id + "/forensics", null);
      ok(BOB, "GET", "/agreements/" + id + "/escrow", null); // returned
      ok(ALICE, "GET", "/market/general", null);
      ok(null, "GET", "/reputation?scheme=api_key&value=bob", null);
      return id;
    }

    /** Last: archives every agreement that ended, then reads one of them (410). */
    void archived(String closed) throws Exception {
      refused(422, OPERATOR, "POST", "/admin/archive", Json.object().put("closed_before", "soon"));
      refused(
          403, ALICE, "POST", "/admin/archive", Json.object().put("closed_before", "2026-01-01"));
      clock.advance(Duration.ofSeconds(1)); // the agreements that ended did so before the cutoff
      JsonNode archive =
          ok(
                  OPERATOR,
                  "POST",
                  "/admin/archive",
                  Json.object().put("closed_before", clock.instant().toString()))
              .body();
      String name = archive.path("name").asText();
      for (int i = 0; i < 300 && !archive.path("status").asText().equals("complete"); i++) {
        Thread.sleep(100);
        archive = ok(OPERATOR, "GET", "/admin/archives/" + name, null).body();
      }
      assertThat(archive.path("status").asText()).isEqualTo("complete");
      ok(OPERATOR, "GET", "/admin/archives", null);
      ok(OPERATOR, "GET", "/admin/archives/" + name + "/file", null);
      go(OPERATOR, "GET", "/admin/archives/asa-archive-nothing.jsonl", null); // 404
      Exchange gone = go(ALICE, "GET", "/agreements/" + closed, null);
      assertThat(gone.status()).as(gone.body().toString()).isEqualTo(410);
      assertThat(gone.body().path("archive").asText()).isEqualTo(name);
    }

    /** The provider's first-round counter-offer on the price. */
    static ObjectNode counter(String amount) {
      ObjectNode counter =
          Json.object()
              .put("round", 1)
              .put("action", "counter")
              .put("rationale_code", "market_rate_alignment");
      counter.putObject("proposed_changes").put("escrow.payment.amount", amount);
      return counter;
    }

    /** A negotiation nobody answers: the server's own round, with a reason and no party. */
    void timedOutNegotiation() throws Exception {
      String id = created(ALICE);
      ok(BOB, "PATCH", "/agreements/" + id + "/negotiate", counter("11.00"));
      clock.advance(Duration.ofSeconds(NegotiationPolicy.DEFAULTS.timeoutSeconds() + 1));
      assertThat(server.fireDueTimers()).isPositive();
      JsonNode rounds = ok(ALICE, "GET", "/agreements/" + id + "/negotiation", null).body();
      JsonNode last = rounds.path("rounds").get(rounds.path("rounds").size() - 1);
      assertThat(last.path("reason").asText()).as(rounds.toString()).contains("timed out");
      assertThat(last.has("party")).isFalse();
    }

    static ObjectNode deliverable() {
      return Json.object()
          .put("content", "# Findings\n\nzq-secret-token-1-x and more.\n")
          .put("format", "markdown");
    }

    /** A refusal, which must come with the status expected (and then match the document). */
    void refused(int status, Ed25519PrivateKey key, String method, String path, JsonNode body)
        throws Exception {
      Exchange e = go(key, method, path, body);
      assertThat(e.status()).as(method + " " + path + " " + e.body()).isEqualTo(status);
      assertThat(e.contentType()).isEqualTo("application/problem+json");
    }

    void refusals(String disputed) throws Exception {
      String a = "/agreements/" + disputed;
      refused(401, null, "GET", a, null);
      refused(403, Fixtures.key("mallory"), "GET", "/admin/config", null);
      refused(404, Fixtures.key("mallory"), "GET", a, null); // hides that it exists
      refused(404, Fixtures.key("mallory"), "GET", a + "/forensics", null);
      ok(OPERATOR, "GET", a + "/forensics", null); // the dispute body: the whole trail
      refused(409, ALICE, "POST", a + "/close", null); // closed already
      refused(422, ALICE, "POST", "/agreements", Json.object().put("asa_version", "1.0.0"));
      refused(400, ALICE, "GET", "/agreements", null); // no party
      refused(400, ALICE, "GET", "/agreements?party=alice&state=open", null);
      refused(400, OPERATOR, "GET", "/agreements/counts?created_after=today", null);
      refused(403, ALICE, "GET", "/admin/health", null);
      refused(422, ALICE, "GET", "/market/general%01", null); // names the path parameter
      refused(422, null, "GET", "/reputation?scheme=api_key", null); // names the missing value
      refused(
          422,
          ALICE,
          "POST",
          "/reputation/signals",
          Json.object().set("signals", Json.object().putArray("x"))); // no signal
      String huge = "x".repeat((int) ServerConfig.DEFAULT_MAX_BODY_BYTES);
      refused(413, null, "POST", "/agreements", Json.object().put("pad", huge));
    }

    void standalone() throws Exception {
      ObjectNode seal = Json.object();
      seal.putArray("criteria")
          .addObject()
          .put("id", "sc-1")
          .put("category", "happy_path")
          .put("assertion", "Mentions token 1")
          .put("expected", "the text names token 1")
          .put("message", "Missing requirement 1")
          .putObject("check")
          .put("type", "contains")
          .put("value", "zq-secret-token-1-x");
      String sealId = ok(ALICE, "POST", "/shadow/seals", seal).body().path("seal_id").asText();
      ok(
          ALICE,
          "POST",
          "/shadow/seals/" + sealId + "/validate",
          Json.object()
              .put("content", "# Work\n\nzq-secret-token-1-x\n")
              .put("format", "markdown"));
      ok(ALICE, "GET", "/shadow/seals/" + sealId + "/report", null);

      ObjectNode request = Json.object();
      request
          .putObject("deliverable")
          .put("content", "# Findings\n\nBatteries are recycled.\n")
          .put("format", "markdown")
          .put("type", "general");
      request
          .putObject("original_request")
          .put("description", "Summarise the findings on battery recycling");
      request.putObject("verification_config").put("depth", "structural");
      String verificationId =
          ok(ALICE, "POST", "/verifications", request).body().path("verification_id").asText();
      ok(ALICE, "GET", "/verifications/" + verificationId, null);
      ok(ALICE, "GET", "/verifications/" + verificationId + "/status", null);
    }

    void registry() throws Exception {
      ObjectNode canary = Json.object();
      canary.put("id", "general-bad-01");
      canary.put("service_type", "general");
      canary.putObject("request").put("description", "Explain how TLS certificates are checked");
      canary
          .putObject("deliverable")
          .put("content", "# Certificates\n\nBrowsers check them.\n")
          .put("format", "markdown");
      canary.set(
          "criteria", Templates.get("general").orElseThrow().defaults().get("quality_criteria"));
      canary
          .putObject("known_scores")
          .put("accuracy", 20)
          .put("completeness", 15)
          .put("relevance", 30);
      canary.put("tolerance", 15);
      ok(OPERATOR, "PUT", "/admin/canaries", Json.mapper().createArrayNode().add(canary));
      ok(OPERATOR, "GET", "/admin/config", null);
      ok(OPERATOR, "GET", "/metrics", null);
      ok(OPERATOR, "GET", "/admin/health", null);

      // A new evaluator, short of the qualification bar, finds a qualification canary in its queue.
      String judge = JUDGE.publicKey().toBase64Url();
      ok(
          JUDGE,
          "POST",
          "/evaluators",
          AsaClient.evaluatorRegistration("ed25519", judge, "Judge Nine", List.of("general"))
              .put("model", "judge-large-2")
              .put("price_usd", 0.30));
      ok(ALICE, "GET", "/evaluators?service_type=general&limit=10", null);
      ok(ALICE, "GET", "/evaluators/" + judge, null);
      JsonNode tasks = ok(JUDGE, "GET", "/evaluator/tasks", null).body().path("tasks");
      assertThat(tasks.size()).as("a qualification canary").isEqualTo(1);
      ObjectNode answer = Json.object();
      ArrayNode scores = answer.putObject("evaluator_result").putArray("dimensions");
      for (JsonNode dimension : tasks.get(0).path("dimensions")) {
        String name = dimension.isTextual() ? dimension.asText() : dimension.path("name").asText();
        scores.addObject().put("name", name).put("score", 0).put("evidence", "thin");
      }
      String task = tasks.get(0).path("task_id").asText();
      ok(JUDGE, "POST", "/evaluator/tasks/" + task + "/result", answer);
      go(JUDGE, "POST", "/evaluator/tasks/" + task + "/result", answer); // 409, answered already
      ok(
          OPERATOR,
          "POST",
          "/evaluators/" + judge + "/suspend",
          Json.object().put("reason", "a test"));
      ok(OPERATOR, "POST", "/evaluators/" + judge + "/reinstate", null);
    }
  }

  /** A request signed (RFC 9421) with {@code key}, or unsigned when it is null. */
  static Exchange call(Ed25519PrivateKey key, String method, String path, String body)
      throws Exception {
    URI uri = URI.create(server.url("127.0.0.1") + path);
    byte[] bytes = body == null ? null : body.getBytes(StandardCharsets.UTF_8);
    HttpRequest.Builder b =
        HttpRequest.newBuilder(uri)
            // the server may refuse on Content-Length (413) before reading the body
            .expectContinue(true)
            .method(
                method,
                bytes == null
                    ? HttpRequest.BodyPublishers.noBody()
                    : HttpRequest.BodyPublishers.ofByteArray(bytes));
    if (bytes != null) {
      b.header("Content-Type", "application/json");
    }
    if (key != null) {
      new RequestSigner(key, clock, new SecureRandom())
          .sign(method, uri, bytes)
          .asMap()
          .forEach(b::header);
    }
    HttpResponse<String> r = http.send(b.build(), HttpResponse.BodyHandlers.ofString());
    String type = r.headers().firstValue("content-type").orElse("");
    JsonNode json =
        type.contains("json") && !type.contains("ndjson") && !r.body().isEmpty()
            ? Json.parse(r.body())
            : null;
    return new Exchange(method, path, r.statusCode(), type, json);
  }
}
