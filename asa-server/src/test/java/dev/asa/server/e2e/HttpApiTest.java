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
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The HTTP contract at the wire: status codes, problem+json bodies, pointers, idempotency, races.
 */
class HttpApiTest {
  @TempDir static Path dataDir;
  static AsaServer server;
  static AsaClient client;
  static AsaClient provider;
  static final HttpClient http = HttpClient.newHttpClient();

  @BeforeAll
  static void start() {
    server =
        AsaServer.start(
            ServerConfig.defaults().withPort(0).withDataDir(dataDir).withRateLimit(10_000, 10_000));
    client = AsaClient.connect(URI.create(server.url("127.0.0.1")), Fixtures.key("alice"));
    provider = client.withKey(Fixtures.key("bob"));
  }

  @AfterAll
  static void stop() {
    server.close();
  }

  record Answer(int status, String contentType, JsonNode body, HttpResponse<String> raw) {}

  /** A request signed (RFC 9421) with alice's key, the client of the fixture agreements. */
  static Answer call(String method, String path, String body, String... headers) throws Exception {
    return callAs(Fixtures.key("alice"), method, path, body, headers);
  }

  /** A request signed with {@code key}, or unsigned when it is null. */
  static Answer callAs(
      Ed25519PrivateKey key, String method, String path, String body, String... headers)
      throws Exception {
    URI uri = URI.create(server.url("127.0.0.1") + path);
    byte[] bytes = body == null ? null : body.getBytes(java.nio.charset.StandardCharsets.UTF_8);
    HttpRequest.Builder b =
        HttpRequest.newBuilder(uri)
            .method(
                method,
                bytes == null
                    ? HttpRequest.BodyPublishers.noBody()
                    : HttpRequest.BodyPublishers.ofByteArray(bytes));
    if (key != null) {
      new RequestSigner(key, java.time.Clock.systemUTC(), new java.security.SecureRandom())
          .sign(method, uri, bytes)
          .asMap()
          .forEach(b::header);
    }
    for (int i = 0; i < headers.length; i += 2) {
      b.header(headers[i], headers[i + 1]);
    }
    HttpResponse<String> r = http.send(b.build(), HttpResponse.BodyHandlers.ofString());
    JsonNode json = r.body().isEmpty() ? Json.mapper().missingNode() : Json.parse(r.body());
    return new Answer(r.statusCode(), r.headers().firstValue("content-type").orElse(""), json, r);
  }

  private static String create() {
    return client.createAgreement(Fixtures.general()).path("agreement_id").asText();
  }

  @Test
  void templatesAndTheSchemaArePublic() throws Exception {
    Answer list = callAs(null, "GET", "/templates", null);
    assertThat(list.status()).isEqualTo(200);
    assertThat(list.body().path("templates").size()).isEqualTo(6);
    Answer one = call("GET", "/templates/research", null);
    assertThat(one.body().path("defaults").path("quality_criteria").path("dimensions").size())
        .isGreaterThanOrEqualTo(5);
    Answer missing = call("GET", "/templates/poetry", null);
    assertThat(missing.status()).isEqualTo(404);
    assertThat(missing.contentType()).isEqualTo("application/problem+json");
    Answer schema = callAs(null, "GET", "/schemas/asa/1.0.0/agreement.json", null);
    assertThat(schema.status()).isEqualTo(200);
    assertThat(schema.body().path("$schema").asText()).contains("2020-12");
    assertThat(call("GET", "/schemas/asa/9.0.0/agreement.json", null).status()).isEqualTo(404);
  }

  @Test
  void anInvalidDocumentGets422WithPointersAndNothingIsStored() throws Exception {
    ObjectNode doc = Fixtures.general();
    ((ObjectNode) doc.path("escrow").path("payment")).put("amount", "10.123");
    doc.putObject("template_overrides")
        .putObject("dimensions")
        .putObject("accuracy")
        .put("weight", 0.9);
    Answer a = call("POST", "/agreements", Json.write(doc));
    assertThat(a.status()).isEqualTo(422);
    assertThat(a.contentType()).isEqualTo("application/problem+json");
    assertThat(a.body().path("type").asText()).endsWith("/invalid-document");
    List<String> pointers = new ArrayList<>();
    a.body().path("errors").forEach(e -> pointers.add(e.path("pointer").asText()));
    assertThat(pointers).contains("/escrow/payment/amount", "/quality_criteria/dimensions");
    assertThat(
            call("GET", "/agreements?party=alice", null)
                .body()
                .path("items")
                .findValuesAsText("agreement_id"))
        .allSatisfy(id -> assertThat(client.agreement(id).path("state").asText()).isNotNull());
  }

  @Test
  void malformedJsonAndDuplicateMembersGet400() throws Exception {
    assertThat(call("POST", "/agreements", "{\"asa_version\": ").status()).isEqualTo(400);
    Answer dup =
        call("POST", "/agreements", "{\"asa_version\":\"1.0.0\",\"asa_version\":\"1.0.0\"}");
    assertThat(dup.status()).isEqualTo(400);
    assertThat(dup.body().path("detail").asText()).contains("Duplicate");
    assertThat(call("POST", "/agreements", "[1,2]").status()).isEqualTo(422);
  }

  @Test
  void anUnknownMajorVersionIsRefused() throws Exception {
    ObjectNode doc = Fixtures.general();
    doc.put("asa_version", "2.0.0");
    Answer a = call("POST", "/agreements", Json.write(doc));
    assertThat(a.status()).isEqualTo(422);
    assertThat(a.body().path("type").asText()).endsWith("/unsupported-version");
  }

  @Test
  void eachRefusedTransitionNamesTheStateAndTheAllowedActions() throws Exception {
    String id = create();
    Answer deliver =
        callAs(
            Fixtures.key("bob"), "POST", "/agreements/" + id + "/deliver", "{\"content\":\"x\"}");
    assertThat(deliver.status()).isEqualTo(409);
    assertThat(deliver.body().path("type").asText()).endsWith("/transition-refused");
    assertThat(deliver.body().path("current_state").asText()).isEqualTo("PROPOSED");
    // What a caller may ask for: the server's own expiry of a PROPOSED agreement is not offered.
    assertThat(deliver.body().path("allowed_actions"))
        .extracting(JsonNode::asText)
        .containsExactly("negotiate", "reject", "sign");
    assertThat(deliver.body().path("detail").asText())
        .endsWith("allowed from PROPOSED: negotiate, reject, sign");
    assertThat(call("POST", "/agreements/" + id + "/verify", null).status()).isEqualTo(409);
    assertThat(call("POST", "/agreements/" + id + "/close", null).status()).isEqualTo(409);
    assertThat(
            call(
                    "POST",
                    "/agreements/" + id + "/challenge",
                    "{\"party\":\"client\",\"reason_code\":\"quality_below_agreed_slo\"}")
                .status())
        .isEqualTo(409);
    client.sign(id, Role.CLIENT, Fixtures.key("alice"));
    provider.sign(id, Role.PROVIDER, Fixtures.key("bob"));
    Answer sign =
        call("POST", "/agreements/" + id + "/sign", Json.write(signBody("client", "A".repeat(86))));
    assertThat(sign.status()).isEqualTo(409);
    assertThat(sign.body().path("current_state").asText()).isEqualTo("ACTIVE");
    assertThat(
            call(
                    "PATCH",
                    "/agreements/" + id + "/negotiate",
                    "{\"round\":1,\"action\":\"reject\",\"rationale_code\":\"no_agreement_possible\"}")
                .status())
        .isEqualTo(409);
  }

  @Test
  void hostileTextInADocumentIsAnsweredAsSentAtEveryStepAndWrittenAsValidJson() throws Exception {
    // Answers write the agreement from its kept text (AnswerJson), not by walking the tree: what a
    // caller puts in a member it may add (quotes, backslashes, control characters, a character
    // beyond the BMP, a closing tag) must come back the same JSON string, in every answer.
    String hostile = "\"},\"status\":\"closed\",\"x\":{\"\\\u0001\n</script>\uD83D\uDE00日本";
    ObjectNode doc = Fixtures.general();
    doc.put("x_note", hostile);
    Answer created = call("POST", "/agreements", Json.write(doc));
    assertThat(created.status()).isEqualTo(201);
    String id = created.body().path("agreement_id").asText();
    String hash = created.body().path("agreement_hash").asText();
    byte[] signed = hash.getBytes(java.nio.charset.StandardCharsets.UTF_8);

    List<Answer> answers = new ArrayList<>();
    answers.add(created);
    answers.add(
        call(
            "POST",
            "/agreements/" + id + "/sign",
            Json.write(signBody("client", Fixtures.key("alice").sign(signed).toBase64Url()))));
    answers.add(
        callAs(
            Fixtures.key("bob"),
            "POST",
            "/agreements/" + id + "/sign",
            Json.write(signBody("provider", Fixtures.key("bob").sign(signed).toBase64Url()))));
    answers.add(call("POST", "/agreements/" + id + "/fund", null));
    answers.add(call("GET", "/agreements/" + id, null));
    for (Answer a : answers) {
      assertThat(a.status()).as(a.raw().uri().toString()).isLessThan(300);
      JsonNode agreement = Json.parse(a.raw().body()).path("agreement"); // strict: valid JSON
      assertThat(agreement.path("x_note").asText()).isEqualTo(hostile);
      assertThat(agreement.path("status").asText())
          .isEqualTo(a.body().path("state").asText().toLowerCase(java.util.Locale.ROOT));
      assertThat(agreement.has("x")).isFalse();
    }
    assertThat(answers.getLast().body().path("state").asText()).isEqualTo("ACTIVE");
    assertThat(answers.getLast().body().path("agreement"))
        .isEqualTo(answers.get(answers.size() - 2).body().path("agreement"));
  }

  @Test
  void aBadSignatureIsRefusedAndChangesNothing() throws Exception {
    String id = create();
    JsonNode before = client.events(id);
    String hash = client.agreement(id).path("agreement_hash").asText();
    String byBob =
        Fixtures.key("bob")
            .sign(hash.getBytes(java.nio.charset.StandardCharsets.UTF_8))
            .toBase64Url();
    Answer a = call("POST", "/agreements/" + id + "/sign", Json.write(signBody("client", byBob)));
    assertThat(a.status()).isEqualTo(422);
    assertThat(a.body().path("type").asText()).endsWith("/signature-refused");
    assertThat(a.body().path("detail").asText()).contains(hash);
    Answer garbage =
        call("POST", "/agreements/" + id + "/sign", Json.write(signBody("client", "not-base64!")));
    assertThat(garbage.status()).isEqualTo(422);
    assertThat(garbage.body().path("errors").get(0).path("pointer").asText())
        .isEqualTo("/signature/value");
    assertThat(client.events(id)).isEqualTo(before);
    assertThat(client.agreement(id).path("agreement").has("signatures")).isFalse();
  }

  @Test
  void aDeclaredContentHashMustMatchTheContent() throws Exception {
    String id = create();
    client.sign(id, Role.CLIENT, Fixtures.key("alice"));
    provider.sign(id, Role.PROVIDER, Fixtures.key("bob"));
    Answer a =
        callAs(
            Fixtures.key("bob"),
            "POST",
            "/agreements/" + id + "/deliver",
            "{\"content\":\"hello\",\"content_hash\":\"sha256:" + "0".repeat(64) + "\"}");
    assertThat(a.status()).isEqualTo(422);
    assertThat(a.body().path("errors").get(0).path("pointer").asText()).isEqualTo("/content_hash");
    assertThat(client.agreement(id).path("state").asText()).isEqualTo("ACTIVE");
  }

  @Test
  void anIdempotencyKeyReplaysTheFirstAnswerAndRefusesAnotherBody() throws Exception {
    String body = Json.write(Fixtures.general());
    Answer first = call("POST", "/agreements", body, "Idempotency-Key", "create-1");
    Answer again = call("POST", "/agreements", body, "Idempotency-Key", "create-1");
    assertThat(first.status()).isEqualTo(201);
    assertThat(again.status()).isEqualTo(201);
    assertThat(again.body()).isEqualTo(first.body());
    assertThat(again.raw().headers().firstValue("Idempotent-Replayed")).contains("true");
    Answer other =
        call(
            "POST",
            "/agreements",
            body.replace("Summarise", "Summarize"),
            "Idempotency-Key",
            "create-1");
    assertThat(other.status()).isEqualTo(422);
    assertThat(other.body().path("type").asText()).endsWith("/idempotency-key-reused");
  }

  @Test
  void concurrentWritersAreSerialisedOneWinsTheOthersGet409() throws Exception {
    String id = create();
    String hash = client.agreement(id).path("agreement_hash").asText();
    String sig =
        Fixtures.key("alice")
            .sign(hash.getBytes(java.nio.charset.StandardCharsets.UTF_8))
            .toBase64Url();
    String body = Json.write(signBody("client", sig));
    ExecutorService pool = Executors.newFixedThreadPool(8);
    List<Future<Integer>> results = new ArrayList<>();
    for (int i = 0; i < 8; i++) {
      Callable<Integer> c = () -> call("POST", "/agreements/" + id + "/sign", body).status();
      results.add(pool.submit(c));
    }
    List<Integer> statuses = new ArrayList<>();
    for (Future<Integer> f : results) statuses.add(f.get());
    pool.shutdown();
    assertThat(statuses).containsOnly(200, 409);
    assertThat(statuses.stream().filter(s -> s == 200).count()).isEqualTo(1);
    assertThat(client.events(id).path("events").size()).isEqualTo(2);
  }

  @Test
  void listingPagesThroughAPartysAgreementsWithACursor() throws Exception {
    ObjectNode doc = Fixtures.general();
    ((ObjectNode) doc.path("parties").path("client").path("identity")).put("value", "lister");
    Set<String> created = new HashSet<>();
    for (int i = 0; i < 7; i++) {
      created.add(client.createAgreement(doc).path("agreement_id").asText());
    }
    Set<String> seen = new HashSet<>();
    String cursor = null;
    int pages = 0;
    do {
      JsonNode page = client.list("lister", cursor, 3);
      page.path("items")
          .forEach(i -> assertThat(seen.add(i.path("agreement_id").asText())).isTrue());
      cursor = page.path("next_cursor").isNull() ? null : page.path("next_cursor").asText();
      pages++;
    } while (cursor != null);
    assertThat(seen).isEqualTo(created);
    assertThat(pages).isEqualTo(3);
    assertThat(call("GET", "/agreements", null).status()).isEqualTo(400);
    assertThat(call("GET", "/agreements?party=x&limit=0", null).status()).isEqualTo(400);
  }

  /**
   * Another key's agreement under the same identity is skipped, and no agreement of the caller's is
   * lost with it: a later page asks only for the room its first pages left, so none of its rows is
   * passed over by the cursor unread.
   */
  @Test
  void pagingPastAnotherKeysAgreementUnderTheSameIdentityLosesNone() {
    ObjectNode mine = Fixtures.general();
    ((ObjectNode) mine.path("parties").path("client").path("identity")).put("value", "shared");
    List<String> created = new ArrayList<>();
    for (int i = 0; i < 3; i++) {
      created.add(client.createAgreement(mine).path("agreement_id").asText());
    }
    ObjectNode theirs = Fixtures.general();
    ((ObjectNode) theirs.path("parties"))
        .set("client", Fixtures.party("shared", Fixtures.key("mallory")));
    client.withKey(Fixtures.key("mallory")).createAgreement(theirs);
    created.add(client.createAgreement(mine).path("agreement_id").asText());

    List<String> seen = new ArrayList<>();
    String cursor = null;
    do {
      JsonNode page = client.list("shared", cursor, 2);
      page.path("items").forEach(i -> seen.add(i.path("agreement_id").asText()));
      cursor = page.path("next_cursor").isNull() ? null : page.path("next_cursor").asText();
    } while (cursor != null);
    assertThat(seen).as("newest first, each of alice's once").isEqualTo(created.reversed());
  }

  @Test
  void unknownIdsAndRoutesGet404ProblemDetails() throws Exception {
    Answer a = call("GET", "/agreements/asa-nope", null);
    assertThat(a.status()).isEqualTo(404);
    assertThat(a.body().path("type").asText()).endsWith("/not-found");
    Answer r = call("GET", "/nowhere", null);
    assertThat(r.status()).isEqualTo(404);
    assertThat(r.contentType()).isEqualTo("application/problem+json");
  }

  @Test
  void negotiationChangesTermsAndDropsSignaturesAlreadyGiven() throws Exception {
    String id = create();
    client.sign(id, Role.CLIENT, Fixtures.key("alice"));
    String oldHash = client.agreement(id).path("agreement_hash").asText();
    ObjectNode msg =
        Json.object()
            .put("round", 1)
            .put("action", "counter")
            .put("rationale_code", "market_rate_alignment");
    msg.putObject("proposed_changes").put("escrow.payment.amount", "12.00");
    JsonNode after = provider.negotiate(id, msg);
    assertThat(after.path("state").asText()).isEqualTo("NEGOTIATING");
    assertThat(after.path("agreement_hash").asText()).isNotEqualTo(oldHash);
    assertThat(after.path("agreement").has("signatures")).isFalse();
    ObjectNode bad =
        Json.object()
            .put("round", 2)
            .put("action", "counter")
            .put("rationale_code", "market_rate_alignment")
            .put(
                "negotiation_id",
                after
                    .path("agreement")
                    .path("metadata")
                    .path("negotiation")
                    .path("negotiation_id")
                    .asText());
    bad.putObject("proposed_changes").put("parties.provider.identity.value", "mallory");
    Answer refused =
        callAs(Fixtures.key("bob"), "PATCH", "/agreements/" + id + "/negotiate", Json.write(bad));
    assertThat(refused.status()).isEqualTo(422);
    assertThat(refused.body().path("errors").get(0).path("pointer").asText())
        .isEqualTo("/proposed_changes/parties.provider.identity.value");
  }

  @Test
  void signingTermsThatChangedSinceTheyWereReadGets409() throws Exception {
    String id = create();
    String oldHash = client.agreement(id).path("agreement_hash").asText();
    ObjectNode msg =
        Json.object()
            .put("round", 1)
            .put("action", "counter")
            .put("rationale_code", "quality_requirement_change");
    msg.putObject("proposed_changes").put("quality_criteria.composite_threshold", 72);
    provider.negotiate(id, msg);
    String sig =
        Fixtures.key("alice")
            .sign(oldHash.getBytes(java.nio.charset.StandardCharsets.UTF_8))
            .toBase64Url();
    ObjectNode body = signBody("client", sig).put("agreement_hash", oldHash);
    Answer a = call("POST", "/agreements/" + id + "/sign", Json.write(body));
    assertThat(a.status()).isEqualTo(409);
    assertThat(a.body().path("detail").asText()).contains("terms changed");
  }

  @Test
  void aTemplateWithoutAnAmountMovesNoMoney() throws Exception {
    ObjectNode doc = Fixtures.general();
    doc.remove("escrow");
    ObjectNode created = client.createAgreement(doc);
    assertThat(created.path("agreement").path("escrow").has("payment")).isFalse();
    assertThat(
            client
                .status(created.path("agreement_id").asText())
                .path("payment")
                .path("status")
                .asText())
        .isEqualTo("no_payment_terms");
  }

  @Test
  void oversizedBodiesGet413() throws Exception {
    byte[] huge =
        ("{\"content\":\"" + "x".repeat((int) ServerConfig.DEFAULT_MAX_BODY_BYTES + 10) + "\"}")
            .getBytes(java.nio.charset.StandardCharsets.UTF_8);
    // Expect: 100-continue lets the server refuse on Content-Length before the body is sent;
    // without
    // it the server's early answer races the client still writing 16 MiB (a broken pipe, not a
    // 413).
    HttpRequest request =
        HttpRequest.newBuilder(URI.create(server.url("127.0.0.1") + "/agreements/whatever/deliver"))
            .expectContinue(true)
            .POST(HttpRequest.BodyPublishers.ofByteArray(huge))
            .build();
    assertThat(http.send(request, HttpResponse.BodyHandlers.ofString()).statusCode())
        .isEqualTo(413);
  }

  static ObjectNode signBody(String party, String value) {
    ObjectNode b = Json.object().put("party", party);
    b.putObject("signature").put("scheme", "ed25519").put("value", value);
    return b;
  }
}
