package dev.asa.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import dev.asa.agreement.Role;
import dev.asa.crypto.Ed25519PrivateKey;
import dev.asa.crypto.Ed25519Signature;
import dev.asa.json.Json;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The client against a scripted stand-in for the server: what goes on the wire, and how answers are
 * read.
 */
class AsaClientTest {

  /** One request as the stand-in saw it. */
  record Seen(
      String method, String target, String contentType, String idempotencyKey, String body) {
    JsonNode json() throws IOException {
      return Json.parse(body);
    }
  }

  /** One scripted answer. */
  record Answer(int status, String contentType, String body) {}

  private HttpServer server;
  private final List<Seen> seen = new ArrayList<>();
  private final Deque<Answer> script = new ArrayDeque<>();
  private AsaClient client;

  @BeforeEach
  void start() throws IOException {
    server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    server.createContext("/", this::handle);
    server.start();
    client =
        AsaClient.connect(URI.create("http://127.0.0.1:" + server.getAddress().getPort() + "/"));
  }

  @AfterEach
  void stop() {
    server.stop(0);
  }

  private void handle(HttpExchange ex) throws IOException {
    String body = new String(ex.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
    synchronized (seen) {
      seen.add(
          new Seen(
              ex.getRequestMethod(),
              ex.getRequestURI().getRawPath()
                  + (ex.getRequestURI().getRawQuery() == null
                      ? ""
                      : "?" + ex.getRequestURI().getRawQuery()),
              ex.getRequestHeaders().getFirst("Content-Type"),
              ex.getRequestHeaders().getFirst("Idempotency-Key"),
              body));
    }
    Answer answer = script.isEmpty() ? new Answer(200, "application/json", "{}") : script.poll();
    byte[] bytes = answer.body().getBytes(StandardCharsets.UTF_8);
    ex.getResponseHeaders().set("Content-Type", answer.contentType());
    ex.sendResponseHeaders(answer.status(), bytes.length == 0 ? -1 : bytes.length);
    try (var out = ex.getResponseBody()) {
      out.write(bytes);
    }
  }

  private void answer(int status, String body) {
    script.add(
        new Answer(status, status < 300 ? "application/json" : "application/problem+json", body));
  }

  @Test
  void signReadsTheHashSignsItLocallyAndPostsTheSignature() throws IOException {
    Ed25519PrivateKey key = Ed25519PrivateKey.generate(new SecureRandom());
    String hash = "sha256:" + "ab".repeat(32);
    answer(
        200,
        "{\"agreement_id\":\"asa-1\",\"state\":\"PROPOSED\",\"agreement_hash\":\"" + hash + "\"}");
    answer(200, "{\"agreement_id\":\"asa-1\",\"state\":\"PROPOSED\"}");

    ObjectNode response = client.sign("asa-1", Role.PROVIDER, key);

    assertThat(response.path("state").asText()).isEqualTo("PROPOSED");
    assertThat(seen)
        .extracting(Seen::method, Seen::target)
        .containsExactly(
            org.assertj.core.groups.Tuple.tuple("GET", "/agreements/asa-1"),
            org.assertj.core.groups.Tuple.tuple("POST", "/agreements/asa-1/sign"));
    JsonNode posted = seen.get(1).json();
    assertThat(posted.path("party").asText()).isEqualTo("provider");
    assertThat(posted.at("/signature/scheme").asText()).isEqualTo("ed25519");
    Ed25519Signature signature =
        Ed25519Signature.fromBase64Url(posted.at("/signature/value").asText());
    assertThat(key.publicKey().verify(hash.getBytes(StandardCharsets.UTF_8), signature)).isTrue();
    assertThat(seen.get(1).contentType()).isEqualTo("application/json");
  }

  @Test
  void createSendsTheDocumentAndTheIdempotencyKey() throws IOException {
    answer(201, "{\"agreement_id\":\"asa-2\",\"state\":\"PROPOSED\"}");
    ObjectNode doc = AgreementBuilder.template("general").description("task").build();

    ObjectNode created = client.createAgreement(doc, "key-1");

    assertThat(created.path("agreement_id").asText()).isEqualTo("asa-2");
    assertThat(seen.get(0).method()).isEqualTo("POST");
    assertThat(seen.get(0).target()).isEqualTo("/agreements");
    assertThat(seen.get(0).idempotencyKey()).isEqualTo("key-1");
    assertThat(seen.get(0).json()).isEqualTo(doc);
  }

  @Test
  void eachEndpointHasItsMethodAndPath() {
    client.health();
    client.templates();
    client.template("code_generation");
    client.schema("1.0.0");
    client.status("asa-1");
    client.events("asa-1");
    client.negotiate("asa-1", Json.object().put("party", "client").put("action", "accept"));
    client.deliver("asa-1", "# Report", "markdown");
    client.verify("asa-1");
    client.challenge("asa-1", Role.CLIENT, "evaluator_error");
    client.close("asa-1");

    assertThat(seen)
        .extracting(s -> s.method() + " " + s.target())
        .containsExactly(
            "GET /health",
            "GET /templates",
            "GET /templates/code_generation",
            "GET /schemas/asa/1.0.0/agreement.json",
            "GET /agreements/asa-1/status",
            "GET /agreements/asa-1/events",
            "PATCH /agreements/asa-1/negotiate",
            "POST /agreements/asa-1/deliver",
            "POST /agreements/asa-1/verify",
            "POST /agreements/asa-1/challenge",
            "POST /agreements/asa-1/close");
    assertThat(seen.get(8).body()).isEqualTo("{}");
    assertThat(seen.get(10).body()).isEmpty();
    assertThat(seen.get(10).idempotencyKey()).isNull();
  }

  @Test
  void theRegistryRoutesHaveTheirMethodsPathsAndBodies() throws IOException {
    ObjectNode registration =
        AsaClient.evaluatorRegistration("api_key", "judge-7", "Judge Seven", List.of("research"))
            .put("price_usd", 0.3);
    client.registerEvaluator(registration);
    client.evaluators(null, null, 0);
    client.evaluators("research", "abc_-", 20);
    client.evaluator("did:key:z6Mk/x");
    client.suspendEvaluator("k1", "scores known-bad canaries as good");
    client.reinstateEvaluator("k1");
    client.loadCanaries(Json.mapper().createArrayNode().add(Json.object().put("id", "c1")));
    client.adminConfig();

    assertThat(seen)
        .extracting(s -> s.method() + " " + s.target())
        .containsExactly(
            "POST /evaluators",
            "GET /evaluators",
            "GET /evaluators?service_type=research&cursor=abc_-&limit=20",
            "GET /evaluators/did%3Akey%3Az6Mk%2Fx",
            "POST /evaluators/k1/suspend",
            "POST /evaluators/k1/reinstate",
            "PUT /admin/canaries",
            "GET /admin/config");
    assertThat(seen.get(0).json())
        .isEqualTo(
            Json.parse(
                "{\"identity\": {\"scheme\": \"api_key\", \"value\": \"judge-7\"},"
                    + " \"display_name\": \"Judge Seven\", \"service_types\": [\"research\"],"
                    + " \"price_usd\": 0.3}"));
    assertThat(seen.get(4).json())
        .isEqualTo(Json.object().put("reason", "scores known-bad canaries as good"));
    assertThat(seen.get(5).body()).isEmpty();
    assertThat(seen.get(6).json().path(0).path("id").asText()).isEqualTo("c1");
    assertThat(seen.get(6).contentType()).isEqualTo("application/json");
  }

  @Test
  void listEncodesThePartyAndLeavesOutWhatIsNotGiven() {
    client.list("did:key:z6Mk+x y", null, 0);
    client.list("eval-1", "c/1=", 25);

    assertThat(seen.get(0).target()).isEqualTo("/agreements?party=did%3Akey%3Az6Mk%2Bx+y");
    assertThat(seen.get(1).target()).isEqualTo("/agreements?party=eval-1&cursor=c%2F1%3D&limit=25");
  }

  @Test
  void filtersCountsAndHealthGoOnTheWireAsTheServerNamesThem() {
    ListFilter filter =
        ListFilter.NONE
            .withState(dev.asa.lifecycle.State.ACTIVE)
            .withServiceType("research")
            .withCreated(java.time.Instant.parse("2026-11-22T10:00:00Z"), null)
            .withAmounts(new java.math.BigDecimal("10.00"), new java.math.BigDecimal("250"))
            .withCurrency("USD");
    client.list("alice", filter, null, 10);
    client.list(null, ListFilter.NONE, null, 0); // the operator's listing of everything
    client.counts("alice", filter);
    client.counts(null, ListFilter.NONE);
    client.adminHealth();

    assertThat(seen.get(0).target())
        .isEqualTo(
            "/agreements?party=alice&state=ACTIVE&service_type=research"
                + "&created_after=2026-11-22T10%3A00%3A00Z&min_amount=10.00&max_amount=250"
                + "&currency=USD&limit=10");
    assertThat(seen.get(1).target()).isEqualTo("/agreements");
    assertThat(seen.get(2).target())
        .as("a count takes no state")
        .isEqualTo(
            "/agreements/counts?party=alice&service_type=research"
                + "&created_after=2026-11-22T10%3A00%3A00Z&min_amount=10.00&max_amount=250"
                + "&currency=USD");
    assertThat(seen.get(3).target()).isEqualTo("/agreements/counts");
    assertThat(seen.get(4).target()).isEqualTo("/admin/health");
  }

  @Test
  void idsAreEncodedAsOnePathSegment() {
    client.agreement("a/b c");

    assertThat(seen.get(0).target()).isEqualTo("/agreements/a%2Fb%20c");
  }

  @Test
  void aProblemBecomesAnExceptionWithItsFieldErrors() {
    answer(
        422,
        "{\"type\":\"https://asa.dev/problems/invalid-document\",\"status\":422,\"detail\":\"/party: required\","
            + "\"errors\":[{\"pointer\":\"/party\",\"detail\":\"required\"}]}");

    assertThatThrownBy(() -> client.signRaw("asa-1", null, "x"))
        .isInstanceOfSatisfying(
            AsaApiException.class,
            e -> {
              assertThat(e.status()).isEqualTo(422);
              assertThat(e.kind()).isEqualTo("invalid-document");
              assertThat(e.errors())
                  .containsExactly(new AsaApiException.FieldError("/party", "required"));
            });
  }

  @Test
  void aSuccessThatIsNotJsonIsReportedNotSwallowed() {
    script.add(new Answer(200, "text/html", "<html>hello</html>"));

    assertThatThrownBy(() -> client.health())
        .isInstanceOf(AsaApiException.class)
        .hasMessageContaining("is this an ASA server?")
        .hasMessageContaining("<html>hello</html>");
  }

  @Test
  void aServerThatIsNotRunningIsNamedInTheError() throws IOException {
    int port;
    try (ServerSocket probe = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      port = probe.getLocalPort();
    }
    AsaClient offline = AsaClient.connect(URI.create("http://127.0.0.1:" + port));

    assertThatThrownBy(() -> offline.status("asa-1"))
        .isInstanceOfSatisfying(
            AsaApiException.class,
            e -> {
              assertThat(e.status()).isZero();
              assertThat(e.getMessage())
                  .contains("http://127.0.0.1:" + port + "/agreements/asa-1/status")
                  .contains("./asa serve");
            });
  }

  @Test
  void theServerAddressMustBeHttp() {
    assertThatThrownBy(() -> AsaClient.connect(URI.create("ftp://example.org")))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("http://127.0.0.1:8080");
    assertThat(AsaClient.connect(URI.create("http://h:1//")).server())
        .isEqualTo(URI.create("http://h:1"));
  }

  // ---- the typed agreement routes --------------------------------------------------------

  private static String envelope(String state) {
    return "{\"agreement_id\":\"asa-1\",\"state\":\""
        + state
        + "\",\"version\":2,\"agreement_hash\":\"sha256:"
        + "ab".repeat(32)
        + "\",\"allowed_actions\":[],\"agreement\":{}}";
  }

  @Test
  void typedSignUsesTheClientsOwnKeyAndAnswersTheEnvelope() throws IOException {
    Ed25519PrivateKey key = Ed25519PrivateKey.generate(new SecureRandom());
    answer(200, envelope("PROPOSED"));
    answer(200, envelope("ACTIVE"));

    AgreementView active = client.withKey(key).agreements().sign("asa-1", Role.PROVIDER);

    assertThat(active.state()).isEqualTo(dev.asa.lifecycle.State.ACTIVE);
    Ed25519Signature signature =
        Ed25519Signature.fromBase64Url(seen.get(1).json().at("/signature/value").asText());
    assertThat(
            key.publicKey()
                .verify(("sha256:" + "ab".repeat(32)).getBytes(StandardCharsets.UTF_8), signature))
        .isTrue();
  }

  @Test
  void typedSignWithoutAKeySaysHowToGiveOne() {
    assertThatThrownBy(() -> client.agreements().sign("asa-1", Role.CLIENT))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("AsaClient.connect(server, key)");
    assertThat(seen).isEmpty();
  }

  @Test
  void anAnswerWithoutWhatTheViewNeedsIsAnApiExceptionNamingTheRouteAndMember() {
    answer(200, "{\"agreement_id\":\"asa-1\"}");

    assertThatThrownBy(() -> client.agreements().status("asa-1"))
        .isInstanceOfSatisfying(
            AsaApiException.class,
            e -> {
              assertThat(e.status()).isEqualTo(200);
              assertThat(e.detail())
                  .startsWith("GET /agreements/asa-1/status answered, but")
                  .contains("member 'state'");
              assertThat(e.body()).isEqualTo("{\"agreement_id\":\"asa-1\"}");
            });
  }

  @Test
  void theTypedReferenceRegistryAndAdminReadsGoToTheirRoutesAndNameThemWhenUnusable() {
    // The stand-in answers {} each time: every view needs more, and the refusal names its route.
    Map<String, ThrowingCallable> calls = new LinkedHashMap<>();
    Agreements agreements = client.agreements();
    EvaluatorRegistry registry = client.registry();
    Admin admin = client.admin();
    calls.put("GET /templates", agreements::templates);
    calls.put("GET /templates/general", () -> agreements.template("general"));
    calls.put("GET /market/general", () -> agreements.market("general"));
    calls.put("GET /reputation", () -> agreements.reputation("api_key", "agent 7"));
    calls.put("GET /accounts/K", () -> agreements.account("K"));
    calls.put("GET /agreements/asa-1/negotiation", () -> agreements.negotiation("asa-1"));
    calls.put("POST /evaluators", () -> registry.register(Json.object()));
    calls.put("GET /evaluators", () -> registry.list("research", null, 0));
    calls.put("GET /evaluators/K", () -> registry.get("K"));
    calls.put("POST /evaluators/K/suspend", () -> registry.suspend("K", "colluded"));
    calls.put("POST /evaluators/K/reinstate", () -> registry.reinstate("K"));
    calls.put("GET /admin/health", admin::health);
    calls.put("PUT /admin/canaries", () -> admin.loadCanaries(Json.mapper().createArrayNode()));
    calls.put("POST /admin/archive", () -> admin.startArchive("2026-01-01"));
    calls.put("GET /admin/archives/a.jsonl", () -> admin.archive("a.jsonl"));

    calls.forEach((route, call) ->
        assertThatThrownBy(call)
            .as(route)
            .isInstanceOfSatisfying(
                AsaApiException.class,
                e -> assertThat(e.detail()).startsWith(route + " answered, but")));
    assertThat(seen)
        .extracting(s -> s.method() + " " + s.target())
        .containsExactly(
            "GET /templates",
            "GET /templates/general",
            "GET /market/general",
            "GET /reputation?scheme=api_key&value=agent+7",
            "GET /accounts/K",
            "GET /agreements/asa-1/negotiation",
            "POST /evaluators",
            "GET /evaluators?service_type=research",
            "GET /evaluators/K",
            "POST /evaluators/K/suspend",
            "POST /evaluators/K/reinstate",
            "GET /admin/health",
            "PUT /admin/canaries",
            "POST /admin/archive",
            "GET /admin/archives/a.jsonl");
  }

  @Test
  void aRefusalStaysTheServersProblem() {
    answer(
        409,
        "{\"type\":\"https://asa.dev/problems/transition-refused\",\"title\":\"Conflict\","
            + "\"status\":409,\"detail\":\"fund needs ACTIVE\",\"instance\":\"/x\"}");

    assertThatThrownBy(() -> client.agreements().fund("asa-1"))
        .isInstanceOfSatisfying(
            AsaApiException.class,
            e -> {
              assertThat(e.status()).isEqualTo(409);
              assertThat(e.kind()).isEqualTo("transition-refused");
            });
  }

  @Test
  void typedVerifyWithoutScoresFollowsAJobToItsResult() {
    String result =
        "{\"verification_id\":\"ver-1\",\"dimensions\":[],"
            + "\"composite\":{\"score\":90,\"threshold\":70,\"passed\":true},"
            + "\"determination\":{\"result\":\"PASS\",\"payment_release_percent\":100}}";
    answer(202, "{\"verification_id\":\"ver-1\",\"status\":\"queued\"}");
    answer(200, "{\"verification_id\":\"ver-1\",\"status\":\"running\"}");
    answer(200, result);
    answer(200, envelope("VERIFIED"));

    VerifyOutcome outcome = client.agreements().verify("asa-1");

    assertThat(outcome.state()).isEqualTo(dev.asa.lifecycle.State.VERIFIED);
    assertThat(outcome.verification().releasePercent()).isEqualByComparingTo("100");
    assertThat(seen)
        .extracting(Seen::method, Seen::target)
        .containsExactly(
            org.assertj.core.groups.Tuple.tuple("POST", "/agreements/asa-1/verify"),
            org.assertj.core.groups.Tuple.tuple("GET", "/verifications/ver-1"),
            org.assertj.core.groups.Tuple.tuple("GET", "/verifications/ver-1"),
            org.assertj.core.groups.Tuple.tuple("GET", "/agreements/asa-1"));
  }
}
