package dev.asa.server.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
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
import java.security.SecureRandom;
import java.time.Clock;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * Hostile text and numbers through real HTTP (issue 12), the same on every store: numbers JCS would
 * hash as another value, malformed UTF-8, control characters in identities, names and URL ids, and
 * evaluator names written to look different. Each is refused with the status and the pointer (or
 * parameter) the threat model promises, and nothing is stored.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
abstract class InputHardeningContract {
  AsaServer server;
  final HttpClient http = HttpClient.newHttpClient();

  /** The server configuration with this suite's store. */
  abstract ServerConfig withStore(ServerConfig config);

  @BeforeAll
  void start() {
    server =
        AsaServer.start(
            withStore(ServerConfig.defaults().withPort(0).withRateLimit(10_000, 10_000)));
  }

  @AfterAll
  void stop() {
    if (server != null) {
      server.close();
    }
  }

  record Answer(int status, JsonNode body) {
    List<String> pointers() {
      List<String> out = new ArrayList<>();
      body.path("errors").forEach(e -> out.add(e.path("pointer").asText()));
      return out;
    }
  }

  /** A request signed (RFC 9421) by {@code key} over exactly these bytes. */
  Answer send(Ed25519PrivateKey key, String method, String pathAndQuery, byte[] body)
      throws Exception {
    URI uri = URI.create(server.url("127.0.0.1") + pathAndQuery);
    HttpRequest.Builder b =
        HttpRequest.newBuilder(uri)
            .method(
                method,
                body == null
                    ? HttpRequest.BodyPublishers.noBody()
                    : HttpRequest.BodyPublishers.ofByteArray(body));
    new RequestSigner(key, Clock.systemUTC(), new SecureRandom())
        .sign(method, uri, body)
        .asMap()
        .forEach(b::header);
    HttpResponse<String> r = http.send(b.build(), HttpResponse.BodyHandlers.ofString());
    return new Answer(
        r.statusCode(), r.body().isEmpty() ? Json.mapper().missingNode() : Json.parse(r.body()));
  }

  Answer create(ObjectNode doc) throws Exception {
    return create(Json.write(doc));
  }

  Answer create(String json) throws Exception {
    return send(
        Fixtures.key("alice"), "POST", "/agreements", json.getBytes(StandardCharsets.UTF_8));
  }

  /**
   * The fixture document with a client identity no other test uses, so "nothing stored" can be
   * checked.
   */
  static ObjectNode freshDoc(String clientIdentity) {
    ObjectNode doc = Fixtures.general();
    ((ObjectNode) doc.at("/parties/client/identity")).put("value", clientIdentity);
    return doc;
  }

  static String unique(String prefix) {
    return prefix + "-" + UUID.randomUUID().toString().substring(0, 8);
  }

  int agreementsOf(String party) throws Exception {
    Answer list = send(Fixtures.key("alice"), "GET", "/agreements?party=" + party, null);
    assertThat(list.status()).isEqualTo(200);
    return list.body().path("items").size();
  }

  // ---- I-JSON numbers -----------------------------------------------------------------------

  /** The general template's tiers with the 75 boundary written as {@code boundary}. */
  static String withTierBoundary(String clientIdentity, String boundary) {
    ObjectNode doc = freshDoc(clientIdentity);
    ObjectNode release =
        ((ObjectNode) doc.path("escrow").path("payment")).putObject("graduated_release");
    release.put("enabled", true).put("mode", "tiers");
    var tiers = release.putArray("tiers");
    tiers.addObject().put("composite_score_gte", 90).put("release_percent", 100);
    tiers.addObject().put("composite_score_gte", 7500).put("release_percent", 85);
    tiers.addObject().put("composite_score_gte", 60).put("release_percent", 50);
    tiers.addObject().put("composite_score_lt", 60).put("release_percent", 0);
    return Json.write(doc).replace("7500", boundary);
  }

  @Test
  void aNumberTheAgreementHashWouldCoverAsAnotherValueIsRefusedWithItsPointer() throws Exception {
    for (String inexact :
        List.of("75.000000000000001", "74.9999999999999999999", "9007199254740993")) {
      String who = unique("numbers");
      Answer a = create(withTierBoundary(who, inexact));
      assertThat(a.status()).as(inexact).isEqualTo(422);
      assertThat(a.body().path("type").asText()).endsWith("/invalid-document");
      assertThat(a.pointers())
          .as(inexact)
          .containsExactly("/escrow/payment/graduated_release/tiers/1/composite_score_gte");
      assertThat(agreementsOf(who)).as("nothing stored").isZero();
    }
    // Beyond any double: refused too (by the parser's range limit, or by the rule with a pointer).
    assertThat(create(withTierBoundary(unique("numbers"), "1e400")).status()).isEqualTo(422);
    Answer huge = create(withTierBoundary(unique("numbers"), "1e309"));
    assertThat(huge.status()).isEqualTo(422);
    assertThat(huge.pointers())
        .containsExactly("/escrow/payment/graduated_release/tiers/1/composite_score_gte");

    // The same document with numbers JCS prints as written is accepted, and its terms say 75.
    String who = unique("numbers");
    Answer fine = create(withTierBoundary(who, "75.0"));
    assertThat(fine.status()).isEqualTo(201);
    assertThat(
            fine.body()
                .at("/agreement/escrow/payment/graduated_release/tiers/1/composite_score_gte")
                .decimalValue())
        .isEqualByComparingTo("75");
    assertThat(create(withTierBoundary(unique("numbers"), "7.5e1")).status()).isEqualTo(201);
  }

  @Test
  void numbersInOtherBodiesAreCheckedToo() throws Exception {
    // The one body reader checks every mutating route, before the route reads the body.
    Answer a =
        send(
            Fixtures.key("alice"),
            "POST",
            "/verifications",
            "{\"deliverable\":{\"content\":\"# x\",\"format\":\"markdown\",\"type\":\"general\"},\"original_request\":{\"description\":\"x\",\"constraints\":{\"max_cost_usd\":0.30000000000000000001}}}"
                .getBytes(StandardCharsets.UTF_8));
    assertThat(a.status()).isEqualTo(422);
    assertThat(a.pointers()).containsExactly("/original_request/constraints/max_cost_usd");
  }

  // ---- UTF-8 --------------------------------------------------------------------------------

  @Test
  void malformedUtf8Gets400BeforeAnyJsonIsRead() throws Exception {
    for (String hex :
        List.of("c0af", "c080", "e080af", "eda080", "edb080", "f4908080", "80", "ff")) {
      String who = unique("utf8");
      byte[] json = Json.write(freshDoc(who + "XX")).getBytes(StandardCharsets.UTF_8);
      // Replace the "XX" in the client identity by the malformed sequence.
      byte[] body =
          splice(json, "XX".getBytes(StandardCharsets.US_ASCII), HexFormat.of().parseHex(hex));
      Answer a = send(Fixtures.key("alice"), "POST", "/agreements", body);
      assertThat(a.status()).as(hex).isEqualTo(400);
      assertThat(a.body().path("type").asText()).as(hex).endsWith("/malformed-utf8");
      assertThat(agreementsOf(who)).isZero();
    }
  }

  private static byte[] splice(byte[] in, byte[] marker, byte[] replacement) {
    String latin = new String(in, StandardCharsets.ISO_8859_1);
    int at = latin.indexOf(new String(marker, StandardCharsets.ISO_8859_1));
    byte[] out = new byte[in.length - marker.length + replacement.length];
    System.arraycopy(in, 0, out, 0, at);
    System.arraycopy(replacement, 0, out, at, replacement.length);
    System.arraycopy(
        in, at + marker.length, out, at + replacement.length, in.length - at - marker.length);
    return out;
  }

  // ---- NUL in deliverable content ------------------------------------------------------------

  @Test
  void aNulInDeliverableContentGets422OnEitherStore() throws Exception {
    // Was stored by SQLite and a 500 on PostgreSQL (it cannot bind U+0000).
    ObjectNode request = Json.object();
    request
        .putObject("deliverable")
        .put("content", "# Findings\n\u0000hidden\n")
        .put("format", "markdown");
    request.putObject("original_request").put("description", "Summarise the findings");
    Answer standalone =
        send(
            Fixtures.key("alice"),
            "POST",
            "/verifications",
            Json.write(request).getBytes(StandardCharsets.UTF_8));
    assertThat(standalone.status()).isEqualTo(422);
    assertThat(standalone.pointers()).containsExactly("/deliverable/content");

    String client = unique("nul-deliverable");
    Answer created = create(freshDoc(client));
    assertThat(created.status()).isEqualTo(201);
    String id = created.body().path("agreement_id").asText();
    assertThat(
            send(
                    Fixtures.key("bob"),
                    "POST",
                    "/agreements/" + id + "/deliver",
                    "{\"content\": \"a\\u0000b\", \"format\": \"markdown\"}"
                        .getBytes(StandardCharsets.UTF_8))
                .pointers())
        .containsExactly("/content");
  }

  @Test
  void aNulInAnyStringOrMemberNameGets422WithItsPointerAndNothingIsStored() throws Exception {
    // One rule for every body (issue 21): a fuzzer found NULs reaching PostgreSQL text columns
    // through fields no per-field check covered.
    String who = unique("nul-anywhere");
    ObjectNode doc = freshDoc(who);
    ((ObjectNode) doc.at("/service")).put("description", "Summarise the findings\u0000");
    ((ObjectNode) doc.at("/parties/provider/identity")).put("value", "bob\u0000");
    ((ObjectNode) doc.at("/service")).put("tag\u0000/x", "y");
    Answer created = create(doc);
    assertThat(created.status()).isEqualTo(422);
    assertThat(created.pointers())
        .containsExactlyInAnyOrder(
            "/parties/provider/identity/value", "/service/description", "/service/tag\u0000~1x");
    assertThat(created.body().path("errors").toString())
        .contains("holds a NUL character (U+0000) at index 3;")
        .contains("the member name holds a NUL character (U+0000) at index 3;");
    assertThat(agreementsOf(who)).isZero();

    ObjectNode request = Json.object();
    request.putObject("deliverable").put("content", "# Findings\n").put("format", "markdown");
    request.putObject("original_request").put("description", "Summarise \u0000the findings");
    Answer verification =
        send(
            Fixtures.key("alice"),
            "POST",
            "/verifications",
            Json.write(request).getBytes(StandardCharsets.UTF_8));
    assertThat(verification.status()).isEqualTo(422);
    assertThat(verification.pointers()).containsExactly("/original_request/description");
  }

  // ---- control characters -------------------------------------------------------------------

  @Test
  void controlCharactersInIdentitiesAndNamesGet422NamingTheField() throws Exception {
    for (char c : new char[] {'\u0000', '\u0001', '\n', '\u001b', '\u007f'}) {
      String who = unique("ctl");
      String label = String.format("U+%04X", (int) c);

      ObjectNode doc = freshDoc(who + c);
      Answer a = create(doc);
      assertThat(a.status()).as(label).isEqualTo(422);
      assertThat(a.pointers()).as(label).contains("/parties/client/identity/value");

      doc = freshDoc(who);
      ((ObjectNode) doc.at("/parties/provider")).put("organization", "Bob" + c + "Corp");
      ((ObjectNode) doc.at("/parties/evaluator/identity")).put("lineage", "sha256:" + c);
      ((ObjectNode) doc.at("/parties/client")).put("display_name", "Alice" + c);
      a = create(doc);
      assertThat(a.status()).as(label).isEqualTo(422);
      assertThat(a.pointers())
          .as(label)
          .containsExactlyInAnyOrder(
              "/parties/provider/organization",
              "/parties/evaluator/identity/lineage",
              "/parties/client/display_name");
      assertThat(agreementsOf(who)).isZero();
    }
  }

  @Test
  void urlIdsWithControlCharactersGet422NamingTheParameter() throws Exception {
    for (String path :
        List.of(
            "/agreements/%01abc",
            "/agreements/x%0Ay/status",
            "/agreements/x%1By/events",
            "/verifications/v%7F",
            "/verifications/v%09/status",
            "/market/general%0D",
            "/accounts/k%1F")) {
      Answer a = send(Fixtures.key("alice"), "GET", path, null);
      assertThat(a.status()).as(path).isEqualTo(422);
      assertThat(a.body().path("type").asText()).as(path).endsWith("/invalid-parameter");
      assertThat(a.body().path("path_parameter").asText())
          .as(path)
          .isIn("id", "service_type", "key");
    }
    // A NUL in the path never reaches a route: Jetty refuses the URI itself (400, as problem+json).
    for (String path :
        List.of(
            "/agreements/asa-%00-1",
            "/verifications/%00", "/market/general%00", "/accounts/k%00")) {
      Answer a = send(Fixtures.key("alice"), "GET", path, null);
      assertThat(a.status()).as(path).isEqualTo(400);
      assertThat(a.body().path("type").asText()).as(path).endsWith("/bad-request");
    }
    Answer close = send(Fixtures.key("alice"), "POST", "/agreements/asa-%01/close", new byte[0]);
    assertThat(close.status()).isEqualTo(422);
    assertThat(close.body().path("path_parameter").asText()).isEqualTo("id");

    for (String party : List.of("alice%00", "alice%0A", "%7Falice")) {
      Answer list = send(Fixtures.key("alice"), "GET", "/agreements?party=" + party, null);
      assertThat(list.status()).as(party).isEqualTo(422);
      assertThat(list.body().path("query_parameter").asText()).isEqualTo("party");
    }

    // An ordinary unknown id is still the plain 404 it was.
    assertThat(send(Fixtures.key("alice"), "GET", "/agreements/asa-nope-1", null).status())
        .isEqualTo(404);
  }

  @Test
  void aVerificationRequestNamingAnAgreementIdWithAControlCharacterGets422() throws Exception {
    Answer a =
        send(
            Fixtures.key("alice"),
            "POST",
            "/verifications",
            "{\"agreement_id\":\"asa-\\u0000-1\",\"deliverable\":{\"content\":\"# x\",\"format\":\"markdown\"}}"
                .getBytes(StandardCharsets.UTF_8));
    assertThat(a.status()).isEqualTo(422);
    assertThat(a.pointers()).containsExactly("/agreement_id");
  }

  // ---- evaluator independence ---------------------------------------------------------------

  @Test
  void anEvaluatorWhoseOrganizationIsTheClientsWrittenAnotherWayIsRefused() throws Exception {
    for (String evaluatorOrg :
        List.of(
            "ACME Labs\u200B",
            "\uFF21\uFF23\uFF2D\uFF25 Labs",
            " acme\u00A0 labs\u00AD",
            "\uFEFFAcme Labs")) {
      String who = unique("indep");
      ObjectNode doc = freshDoc(who);
      ((ObjectNode) doc.at("/parties/client")).put("organization", "acme labs");
      ((ObjectNode) doc.at("/parties/evaluator")).put("organization", evaluatorOrg);
      Answer a = create(doc);
      assertThat(a.status()).as(evaluatorOrg).isEqualTo(422);
      assertThat(a.pointers()).as(evaluatorOrg).containsExactly("/parties/evaluator/organization");
      assertThat(agreementsOf(who)).isZero();
    }
    ObjectNode independent = freshDoc(unique("indep"));
    ((ObjectNode) independent.at("/parties/client")).put("organization", "acme labs");
    ((ObjectNode) independent.at("/parties/evaluator")).put("organization", "Judges Inc");
    assertThat(create(independent).status()).isEqualTo(201);
  }

  @Test
  void anEvaluatorIdentityThatIsTheProvidersWithAZeroWidthSpaceIsRefused() throws Exception {
    ObjectNode doc = freshDoc(unique("indep"));
    ((ObjectNode) doc.at("/parties/evaluator/identity")).put("value", "BOB\u200D");
    Answer a = create(doc);
    assertThat(a.status()).isEqualTo(422);
    assertThat(a.pointers()).contains("/parties/evaluator/identity");
  }
}
