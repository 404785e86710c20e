package dev.asa.server.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.asa.client.AsaApiException;
import dev.asa.client.AsaClient;
import dev.asa.crypto.DidKey;
import dev.asa.crypto.Ed25519PrivateKey;
import dev.asa.integrity.Calibration;
import dev.asa.integrity.Deviation;
import dev.asa.integrity.PoolMember;
import dev.asa.integrity.RecordPublication;
import dev.asa.integrity.TrackRecord;
import dev.asa.json.Json;
import dev.asa.server.AsaServer;
import dev.asa.server.config.ServerConfig;
import dev.asa.server.pool.CanaryFile;
import dev.asa.server.store.Store;
import dev.asa.server.store.Stores;
import dev.asa.signedrequests.RequestSigner;
import dev.asa.testing.Fixtures;
import java.math.BigDecimal;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.time.Clock;
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
 * The evaluator registry through real HTTP: an evaluator registers itself, anyone signed reads the
 * registry with each track record and whether it qualifies, the operator suspends, reinstates and
 * loads the canary set (which survives a restart), and an agreement that enables canary tasks on a
 * server without canaries is refused. With the attacks: another's key, a forged record, a stranger
 * acting as the operator.
 */
class EvaluatorRegistryEndToEndTest {
  static final String CRITERIA =
      """
      {"dimensions": [
         {"name": "accuracy", "weight": 0.6, "metric": "score", "slo": {"operator": "gte", "value": 70}},
         {"name": "writing", "weight": 0.4, "metric": "score", "slo": {"operator": "gte", "value": 60}}],
       "composite_threshold": 70}\
      """;

  @TempDir Path dataDir;
  AsaServer server;
  AsaClient anonymous;
  final HttpClient http = HttpClient.newHttpClient();

  @BeforeEach
  void start() {
    server = AsaServer.start(config());
    anonymous = AsaClient.connect(URI.create(server.url("127.0.0.1")));
  }

  ServerConfig config() {
    return ServerConfig.defaults()
        .withPort(0)
        .withDataDir(dataDir)
        .withOperatorKey(Fixtures.key("operator").publicKey())
        .withRateLimit(10_000, 10_000)
        .withTimerPolling(false);
  }

  @AfterEach
  void stop() {
    server.close();
  }

  AsaClient as(String who) {
    return anonymous.withKey(Fixtures.key(who));
  }

  static String keyOf(String who) {
    return Fixtures.key(who).publicKey().toBase64Url();
  }

  static ObjectNode registration(String who, String... serviceTypes) {
    ObjectNode body =
        AsaClient.evaluatorRegistration("api_key", who, "Judge " + who, List.of(serviceTypes));
    body.put("organization", "Impartial " + who);
    body.put("model", "judge-large-2");
    body.put("price_usd", new BigDecimal("0.30"));
    body.putArray("domains").add("medicine");
    return body;
  }

  static ObjectNode canary(String id, String serviceType) {
    ObjectNode c = Json.object();
    c.put("id", id);
    if (serviceType != null) {
      c.put("service_type", serviceType);
    }
    c.putObject("request").put("description", "Summarise the state of federated learning privacy");
    c.putObject("deliverable").put("content", "# Summary\n...").put("format", "markdown");
    c.set("criteria", Json.parseTrusted(CRITERIA));
    c.putObject("known_scores").put("accuracy", 25).put("writing", 30);
    c.put("tolerance", 10);
    return c;
  }

  static ArrayNode canaries(ObjectNode... cs) {
    ArrayNode a = Json.mapper().createArrayNode();
    for (ObjectNode c : cs) {
      a.add(c);
    }
    return a;
  }

  static AsaApiException refused(Runnable call) {
    try {
      call.run();
    } catch (AsaApiException e) {
      return e;
    }
    throw new AssertionError("the call was not refused");
  }

  static void assertRefused(int status, String pointer, String fragment, Runnable call) {
    AsaApiException e = refused(call);
    assertThat(e.status()).as(e.body()).isEqualTo(status);
    if (pointer != null) {
      assertThat(e.errors())
          .as(e.body())
          .anySatisfy(f -> assertThat(f.pointer()).isEqualTo(pointer));
    }
    assertThat(e.body()).contains(fragment);
  }

  /** The raw request, signed by {@code key} (null: unsigned), with optional extra headers. */
  HttpResponse<String> send(
      Ed25519PrivateKey key, String method, String path, String body, Map<String, String> headers)
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
      new RequestSigner(key, Clock.systemUTC(), new SecureRandom())
          .sign(method, uri, bytes)
          .asMap()
          .forEach(b::header);
    }
    headers.forEach(b::header);
    return http.send(b.build(), HttpResponse.BodyHandlers.ofString());
  }

  // ---- registration and reads ----

  /**
   * The view the evaluator itself or the operator got, as anyone else reads it: without what names
   * parties or times its work (issue 53; {@code RegistryPrivacyEndToEndTest} shows it in full).
   */
  static JsonNode asAnyoneElseSeesIt(JsonNode full) {
    ObjectNode o = ((ObjectNode) full.deepCopy()).without(List.of("updated_at", "history"));
    o.remove("conflicts_of_interest");
    ((ObjectNode) o.get("track_record")).remove(List.of("calibration", "consecutive_by_provider"));
    return o;
  }

  @Test
  void anEvaluatorRegistersItselfAndAnySignedCallerSeesItsEmptyRecord() {
    ObjectNode registered = as("judge").registerEvaluator(registration("judge", "research"));

    assertThat(registered.path("key").asText()).isEqualTo(keyOf("judge"));
    assertThat(registered.at("/identity/value").asText()).isEqualTo("judge");
    assertThat(registered.path("display_name").asText()).isEqualTo("Judge judge");
    assertThat(registered.path("price_usd").decimalValue()).isEqualByComparingTo("0.30");
    assertThat(registered.at("/standing/status").asText()).isEqualTo("active");
    JsonNode record = registered.path("track_record");
    assertThat(record.path("evaluations").asInt()).isZero();
    assertThat(record.path("canary_tasks").asInt()).isZero();
    assertThat(record.path("canary_pass_rate").isNull()).isTrue();
    assertThat(record.path("calibration_deviation").isNull()).isTrue();
    assertThat(record.path("consecutive_by_provider").isEmpty()).isTrue();
    assertThat(registered.path("qualified").asBoolean()).isFalse();
    assertThat(registered.path("why").toString())
        .contains("has 0 evaluations; needs 50")
        .contains("has taken no canary task yet")
        .contains("has no calibration yet");

    // It reads itself back as registered, by base64url key or by did:key; any other signed caller
    // reads it without what would name parties or time its work.
    assertThat(as("judge").evaluator(keyOf("judge"))).isEqualTo(registered);
    assertThat(as("judge").evaluator(DidKey.of(Fixtures.key("judge").publicKey())))
        .isEqualTo(registered);
    assertThat(as("alice").evaluator(keyOf("judge"))).isEqualTo(asAnyoneElseSeesIt(registered));
  }

  @Test
  void aRecordThatClearsTheBarShowsQualifiedAndASuspensionTakesItOut() {
    as("judge").registerEvaluator(registration("judge", "research"));
    // Another node (or the assignment work) updates the record in the shared database.
    try (Store other = Stores.open(null, dataDir)) {
      other
          .evaluators()
          .update(
              keyOf("judge"),
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
                                  new Deviation(20, new BigDecimal("80"), new BigDecimal("-10"))),
                              Map.of()),
                          Map.of()),
                      m.standing()),
              Instant.now());
      other.evaluators().recordAssessment(List.of(keyOf("judge")), keyOf("bob"), Instant.now());
    }
    // Two changes: not published yet. What the evaluator itself (and anyone) is shown is still the
    // empty record, so that no single answer can be read off it.
    JsonNode early = as("judge").evaluator(keyOf("judge"));
    assertThat(early.at("/track_record/evaluations").asInt()).isZero();
    assertThat(early.path("track_record_as_of").isNull()).isTrue();
    assertThat(early.path("qualified").asBoolean()).isFalse();
    assertThat(early.path("history")).isEmpty();
    try (Store other = Stores.open(null, dataDir)) {
      for (int i = 0; i < RecordPublication.BATCH - 2; i++) {
        other.evaluators().recordAssessment(List.of(keyOf("judge")), keyOf("bob"), Instant.now());
      }
    }
    int evaluations = 60 + RecordPublication.BATCH - 1;
    JsonNode shown = as("judge").evaluator(keyOf("judge"));
    assertThat(shown.path("qualified").asBoolean()).as(shown.toString()).isTrue();
    assertThat(shown.has("why")).isFalse();
    assertThat(shown.path("track_record_as_of").isTextual()).isTrue();
    assertThat(shown.at("/track_record/evaluations").asInt()).isEqualTo(evaluations);
    assertThat(shown.at("/track_record/canary_pass_rate").decimalValue())
        .isEqualByComparingTo("0.95");
    assertThat(shown.at("/track_record/calibration_deviation").decimalValue())
        .isEqualByComparingTo("4");
    assertThat(shown.path("history")).as("the record over time: one publication so far").hasSize(1);
    assertThat(shown.at("/history/0/evaluations").asInt()).isEqualTo(evaluations);
    assertThat(shown.at("/history/0/canary_tasks").asInt()).isEqualTo(20);
    assertThat(shown.at("/history/0/canary_passes").asInt()).isEqualTo(19);
    assertThat(shown.at("/history/0/calibration_samples").asInt()).isEqualTo(20);
    assertThat(shown.at("/history/0/calibration_deviation").decimalValue())
        .isEqualByComparingTo("4");

    JsonNode suspended =
        as("operator").suspendEvaluator(keyOf("judge"), "scored known-bad canaries as good");
    assertThat(suspended.path("qualified").asBoolean()).isFalse();
    assertThat(suspended.path("why").toString())
        .contains("suspended by the operator: scored known-bad canaries as good");
    assertThat(suspended.at("/standing/status").asText()).isEqualTo("suspended");
    assertThat(suspended.at("/standing/note").asText())
        .isEqualTo("scored known-bad canaries as good");
    JsonNode read = as("operator").evaluator(keyOf("judge"));
    assertThat(read.path("history")).as("a suspension is not a change of the record").hasSize(1);
    assertThat((JsonNode) ((ObjectNode) read.deepCopy()).without("history")).isEqualTo(suspended);
    // Anyone else reads the record as published (the operator reads it as it is: the same figures
    // here, 10 changes having been published, but "as of" another moment).
    JsonNode byBob = as("bob").evaluator(keyOf("judge"));
    assertThat(byBob.path("track_record_as_of").isTextual()).isTrue();
    JsonNode bobsFigures = ((ObjectNode) byBob.deepCopy()).without("track_record_as_of");
    JsonNode operatorsFigures =
        ((ObjectNode) asAnyoneElseSeesIt(suspended)).without("track_record_as_of");
    assertThat(bobsFigures).isEqualTo(operatorsFigures);

    JsonNode reinstated = as("operator").reinstateEvaluator(keyOf("judge"));
    assertThat(reinstated.path("qualified").asBoolean()).isTrue();
    assertThat(reinstated.at("/standing/status").asText()).isEqualTo("active");
  }

  @Test
  void registeringAKeyTwiceIs409AndTheFirstRegistrationStays() {
    ObjectNode first = as("judge").registerEvaluator(registration("judge", "research"));
    assertRefused(
        409,
        null,
        "is already registered",
        () -> as("judge").registerEvaluator(registration("judge", "code_generation")));
    assertThat(as("judge").evaluator(keyOf("judge"))).isEqualTo(first);
  }

  @Test
  void aRetryWithTheSameIdempotencyKeyReplaysTheRegistration() throws Exception {
    String body = Json.write(registration("judge", "research"));
    Map<String, String> headers =
        Map.of("Idempotency-Key", "register-1", "Content-Type", "application/json");
    HttpResponse<String> first = send(Fixtures.key("judge"), "POST", "/evaluators", body, headers);
    HttpResponse<String> again = send(Fixtures.key("judge"), "POST", "/evaluators", body, headers);
    assertThat(first.statusCode()).isEqualTo(201);
    assertThat(again.statusCode()).isEqualTo(201);
    assertThat(again.headers().firstValue("Idempotent-Replayed")).contains("true");
    assertThat(Json.parse(again.body())).isEqualTo(Json.parse(first.body()));
  }

  @Test
  void theListFiltersByServiceTypeAndPagesInKeyOrder() {
    List<String> research = new ArrayList<>();
    for (int i = 0; i < 5; i++) {
      String who = "judge-" + i;
      if (i == 2) {
        as(who).registerEvaluator(registration(who, "translation"));
      } else {
        as(who).registerEvaluator(registration(who, "research", "translation"));
        research.add(keyOf(who));
      }
    }
    research.sort(null);
    List<String> seen = new ArrayList<>();
    String cursor = null;
    do {
      JsonNode page = as("alice").evaluators("research", cursor, 3);
      assertThat(page.path("evaluators").size()).isLessThanOrEqualTo(3);
      page.path("evaluators").forEach(e -> seen.add(e.path("key").asText()));
      cursor = page.has("next_cursor") ? page.path("next_cursor").asText() : null;
    } while (cursor != null);
    assertThat(seen).isEqualTo(research);
    assertThat(as("alice").evaluators("translation", null, 0).path("evaluators")).hasSize(5);
    assertThat(as("alice").evaluators(null, null, 0).path("evaluators")).hasSize(5);
    assertThat(as("alice").evaluators("code_generation", null, 0).path("evaluators")).isEmpty();

    assertRefused(422, null, "'service_type'", () -> as("alice").evaluators("Research", null, 0));
    assertRefused(
        400,
        null,
        "cursor is not one this server issued",
        () -> as("alice").evaluators(null, "x", 0));
    assertRefused(400, null, "limit must be", () -> as("alice").evaluators(null, null, 501));
  }

  @Test
  void anUnknownKeyIs404AndAMalformedOneIs422NamingTheParameter() {
    assertRefused(
        404,
        null,
        "no evaluator is registered with key " + keyOf("nobody"),
        () -> as("alice").evaluator(keyOf("nobody")));
    AsaApiException malformed = refused(() -> as("alice").evaluator("not-a-key"));
    assertThat(malformed.status()).isEqualTo(422);
    assertThat(malformed.problem().path("path_parameter").asText()).isEqualTo("key");
    assertRefused(
        404,
        null,
        "no evaluator is registered",
        () -> as("operator").suspendEvaluator(keyOf("nobody"), "why"));
    assertRefused(
        404,
        null,
        "no evaluator is registered",
        () -> as("operator").reinstateEvaluator(keyOf("nobody")));
  }

  @Test
  void badRegistrationsAre422NamingTheField() {
    assertBadRegistration(b -> b.remove("display_name"), "/display_name", "is missing");
    assertBadRegistration(b -> b.putArray("service_types"), "/service_types", "1 to 32");
    assertBadRegistration(
        b -> b.putArray("service_types").add("Research"), "/service_types/0", "snake_case");
    assertBadRegistration(b -> b.put("price_usd", -1), "/price_usd", "from 0 to");
    assertBadRegistration(b -> b.put("price_usd", "0.30"), "/price_usd", "a string");
    assertBadRegistration(
        b -> ((ObjectNode) b.get("identity")).put("value", "judge\u0007"),
        "/identity/value",
        "control character");
    assertBadRegistration(b -> b.remove("identity"), "/identity", "is missing");
    assertBadRegistration(
        b -> b.putArray("domains").add("medicine").add("medicine"), "/domains/1", "listed twice");
    assertRefused(
        422, null, "", () -> as("judge").registerEvaluator(Json.mapper().createArrayNode()));
    assertRefused(404, null, "no evaluator", () -> as("alice").evaluator(keyOf("judge")));
  }

  void assertBadRegistration(Consumer<ObjectNode> edit, String pointer, String fragment) {
    ObjectNode body = registration("judge", "research");
    edit.accept(body);
    assertRefused(422, pointer, fragment, () -> as("judge").registerEvaluator(body));
  }

  // ---- attacks ----

  @Test
  void nobodyRegistersAnotherKeyOrGivesItselfARecord() {
    // The key is the signer's: a body naming another key is refused, not obeyed.
    assertBadRegistration(b -> b.put("key", keyOf("honest-judge")), "/key", "unknown member");
    // Nothing the server owns is writable: forged record, standing or qualification.
    assertBadRegistration(b -> b.put("evaluations", 500), "/evaluations", "unknown member");
    assertBadRegistration(
        b -> b.putObject("track_record").put("evaluations", 500).put("canary_tasks", 50),
        "/track_record",
        "unknown member");
    assertBadRegistration(b -> b.put("canary_pass_rate", 1), "/canary_pass_rate", "unknown member");
    assertBadRegistration(b -> b.put("qualified", true), "/qualified", "unknown member");
    assertBadRegistration(
        b -> b.putObject("standing").put("status", "active"), "/standing", "unknown member");
    assertBadRegistration(
        b -> b.putObject("consecutive_by_provider").put(keyOf("bob"), 0),
        "/consecutive_by_provider",
        "unknown member");
    // A did:key identity must be the signer's own key.
    assertBadRegistration(
        b ->
            ((ObjectNode) b.get("identity"))
                .put("scheme", "did")
                .put("value", DidKey.of(Fixtures.key("honest-judge").publicKey())),
        "/identity/value",
        "did:key of another key");
    assertRefused(404, null, "no evaluator", () -> as("alice").evaluator(keyOf("judge")));
    assertRefused(404, null, "no evaluator", () -> as("alice").evaluator(keyOf("honest-judge")));
  }

  @Test
  void anUnsignedRegistrationIs401AndTheOperatorKeyCannotRegister() {
    assertRefused(
        401,
        null,
        "missing_signature",
        () -> anonymous.registerEvaluator(registration("x", "research")));
    assertRefused(
        403,
        null,
        "cannot be registered as an evaluator",
        () -> as("operator").registerEvaluator(registration("operator", "research")));
  }

  @Test
  void aStrangerOrTheEvaluatorItselfCannotSuspendReinstateOrLoadCanaries() {
    as("judge").registerEvaluator(registration("judge", "research"));
    as("operator").suspendEvaluator(keyOf("judge"), "under review");
    JsonNode before = as("alice").evaluator(keyOf("judge"));
    for (String who : List.of("mallory", "judge")) {
      assertRefused(
          403,
          null,
          "admin routes are for the operator key only",
          () -> as(who).reinstateEvaluator(keyOf("judge")));
      assertRefused(
          403,
          null,
          "admin routes are for the operator key only",
          () -> as(who).suspendEvaluator(keyOf("judge"), "other reason"));
      assertRefused(
          403,
          null,
          "admin routes are for the operator key only",
          () -> as(who).loadCanaries(canaries(canary("c1", null))));
    }
    assertThat(as("alice").evaluator(keyOf("judge"))).isEqualTo(before);
    assertThat(as("operator").adminConfig().at("/evaluators/canary_set").isNull()).isTrue();
  }

  @Test
  void theOperatorsStandingChangesAreCheckedAndNamed() throws Exception {
    as("judge").registerEvaluator(registration("judge", "research"));
    assertRefused(
        409, null, "is not suspended", () -> as("operator").reinstateEvaluator(keyOf("judge")));
    as("operator").suspendEvaluator(keyOf("judge"), "under review");
    assertRefused(
        409,
        null,
        "is already suspended (under review)",
        () -> as("operator").suspendEvaluator(keyOf("judge"), "again"));
    assertRefused(
        422, "/reason", "non-blank", () -> as("operator").suspendEvaluator(keyOf("judge"), "  "));
    assertRefused(
        422,
        "/reason",
        "control character",
        () -> as("operator").suspendEvaluator(keyOf("judge"), "bad\u0001note"));
    assertRefused(
        422,
        "/reason",
        "NUL character",
        () -> as("operator").suspendEvaluator(keyOf("judge"), "bad\u0000note"));
    HttpResponse<String> noReason =
        send(
            Fixtures.key("operator"),
            "POST",
            "/evaluators/" + keyOf("judge") + "/suspend",
            "{}",
            Map.of("Content-Type", "application/json"));
    assertThat(noReason.statusCode()).isEqualTo(422);
    assertThat(noReason.body()).contains("/reason").contains("is missing");
    HttpResponse<String> unknownMember =
        send(
            Fixtures.key("operator"),
            "POST",
            "/evaluators/" + keyOf("judge") + "/suspend",
            "{\"reason\": \"x\", \"standing\": \"active\"}",
            Map.of("Content-Type", "application/json"));
    assertThat(unknownMember.statusCode()).isEqualTo(422);
    assertThat(unknownMember.body()).contains("/standing");
  }

  // ---- the canary set ----

  @Test
  void theOperatorLoadsACanarySetThatSurvivesARestartAndIsNeverShown() {
    JsonNode loaded =
        as("operator").loadCanaries(canaries(canary("r1", "research"), canary("any-1", null)));
    assertThat(loaded.path("canaries").asInt()).isEqualTo(2);
    assertThat(loaded.path("service_types"))
        .isEqualTo(Json.object().put("*", 1).put("research", 1));
    assertThat(loaded.path("digest").asText()).startsWith("sha256:");
    assertThat(loaded.path("loaded_by").asText()).isEqualTo("operator " + keyOf("operator"));
    assertThat(loaded.toString()).doesNotContain("known_scores").doesNotContain("Summarise");

    // The same set again changes nothing; another replaces it.
    assertThat(
            as("operator").loadCanaries(canaries(canary("r1", "research"), canary("any-1", null))))
        .isEqualTo(loaded);
    JsonNode replaced = as("operator").loadCanaries(canaries(canary("r2", "research")));
    assertThat(replaced.path("version").asLong()).isEqualTo(loaded.path("version").asLong() + 1);
    // One canary cannot qualify anyone: the operator is told so.
    assertThat(replaced.path("warnings").toString())
        .contains("the canary set has 1 canaries for service type 'research'")
        .contains("no evaluator of it can qualify by canaries alone");

    server.close();
    server = AsaServer.start(config());
    anonymous = AsaClient.connect(URI.create(server.url("127.0.0.1")));
    JsonNode config = as("operator").adminConfig();
    assertThat(config.at("/evaluators/canary_set"))
        .isEqualTo(((ObjectNode) replaced.deepCopy()).without("warnings"));
    assertThat(config.toString()).doesNotContain("known_scores");
  }

  @Test
  void aBadCanarySetIs422ByPointerAndChangesNothing() {
    as("operator").loadCanaries(canaries(canary("r1", "research")));
    JsonNode before = as("operator").adminConfig().at("/evaluators/canary_set");
    ObjectNode bad = canary("r2", "research");
    bad.put("tolerance", -1);
    assertRefused(
        422,
        "/1/tolerance",
        "from 0 to 100",
        () -> as("operator").loadCanaries(canaries(canary("ok", null), bad)));
    assertRefused(
        422,
        "/1/id",
        "already the id of canary 0",
        () -> as("operator").loadCanaries(canaries(canary("same", null), canary("same", null))));
    assertRefused(
        422,
        "",
        "must be a JSON array of canaries",
        () -> as("operator").loadCanaries(canary("x", null)));
    assertRefused(422, "", "holds no canary", () -> as("operator").loadCanaries(canaries()));
    assertThat(as("operator").adminConfig().at("/evaluators/canary_set")).isEqualTo(before);
  }

  @Test
  void aCanaryFileGivenAtStartUpIsLoadedAndShownInTheConfig() throws Exception {
    Path file = dataDir.resolve("canaries.jsonl");
    Files.writeString(
        file, Json.write(canary("c1", "general")) + "\n" + Json.write(canary("c2", null)) + "\n");
    server.close();
    server =
        AsaServer.start(
            config()
                .withCanaries(CanaryFile.read(file))
                .withQualification(
                    new dev.asa.integrity.QualificationPolicy(
                        20, new BigDecimal("0.8"), new BigDecimal("12.5"), 4)));
    anonymous = AsaClient.connect(URI.create(server.url("127.0.0.1")));
    JsonNode evaluators = as("operator").adminConfig().path("evaluators");
    assertThat(evaluators.at("/canary_set/canaries").asInt()).isEqualTo(2);
    assertThat(evaluators.at("/canary_set/loaded_by").asText())
        .isEqualTo("asa serve --canaries " + file.toAbsolutePath());
    assertThat(evaluators.path("qualification"))
        .isEqualTo(
            Json.parse(
                "{\"min_evaluations\": 20, \"min_canary_pass_rate\": 0.8,"
                    + " \"max_deviation_points\": 12.5, \"min_consensus_samples\": 4}"));
    assertThat(evaluators.path("registered").asInt()).isZero();
  }

  @Test
  void theDefaultQualificationIsTheWhitepapersAndShownInTheConfig() throws Exception {
    assertThat(as("operator").adminConfig().at("/evaluators/qualification"))
        .isEqualTo(
            Json.parse(
                "{\"min_evaluations\": 50, \"min_canary_pass_rate\": 0.90,"
                    + " \"max_deviation_points\": 10, \"min_consensus_samples\": 12}"));
  }

  // ---- canary tasks need a canary set ----

  static ObjectNode withCanaryTasks(boolean enabled) {
    ObjectNode doc = Fixtures.general();
    doc.putObject("verification")
        .putObject("canary_tasks")
        .put("enabled", enabled)
        .put("frequency", "1_per_5_deliveries")
        .put("failure_action", "flag_and_continue");
    return doc;
  }

  @Test
  void canaryTasksOnAServerWithoutACanarySetAreRefusedAtCreation() {
    AsaApiException none = refused(() -> as("alice").createAgreement(withCanaryTasks(true)));
    assertThat(none.status()).isEqualTo(422);
    assertThat(none.errors())
        .singleElement()
        .satisfies(f -> {
          assertThat(f.pointer()).isEqualTo("/verification/canary_tasks");
          assertThat(f.detail()).startsWith("this server has no canary set");
        });
    // Turned off, the terms promise nothing: accepted.
    assertThat(as("alice").createAgreement(withCanaryTasks(false)).path("state").asText())
        .isEqualTo("PROPOSED");

    // A set without a canary that can pose as this service type is no better.
    as("operator").loadCanaries(canaries(canary("r1", "research")));
    assertRefused(
        422,
        "/verification/canary_tasks",
        "no canary that can pose as service type 'general'",
        () -> as("alice").createAgreement(withCanaryTasks(true)));

    // With canaries of its type the set will do: the work queue gives them to the evaluator.
    as("operator").loadCanaries(canaries(canary("r1", "research"), canary("g1", "general")));
    assertThat(as("alice").createAgreement(withCanaryTasks(true)).path("state").asText())
        .isEqualTo("PROPOSED");
  }

  static ObjectNode answer(int accuracy, int writing) {
    ObjectNode r = Json.object();
    var dims = r.putArray("dimensions");
    dims.addObject().put("name", "accuracy").put("score", accuracy).put("evidence", "checked");
    dims.addObject().put("name", "writing").put("score", writing).put("evidence", "read");
    return r;
  }

  @Test
  void aNewlyRegisteredEvaluatorEarnsItsFirstEvaluationsFromQualificationCanaries() {
    as("operator").loadCanaries(canaries(canary("g1", "general"), canary("g2", "general")));
    AsaClient newbie = as("newbie");
    // Not registered: no queue of qualification canaries.
    assertThat(newbie.evaluatorTasks().path("tasks")).isEmpty();
    newbie.registerEvaluator(registration("newbie", "general"));

    JsonNode first = newbie.evaluatorTasks().path("tasks");
    assertThat(first).hasSize(1);
    // One at a time: asking again shows the same task, not a second.
    assertThat(newbie.evaluatorTasks().path("tasks"))
        .extracting(t -> t.path("task_id").asText())
        .containsExactly(first.get(0).path("task_id").asText());
    assertThat(first.get(0).path("service_type").asText()).isEqualTo("general");
    assertThat(first.get(0).path("dimensions"))
        .extracting(JsonNode::asText)
        .containsExactly("accuracy", "writing");

    newbie.answerTask(first.get(0).path("task_id").asText(), answer(27, 33));
    // The answer counts, but is not shown on its own: the record anyone sees (the evaluator too)
    // moves in batches, so it never says whether one answer passed.
    JsonNode shown = as("newbie").evaluator(keyOf("newbie"));
    assertThat(shown.at("/track_record/evaluations").asInt()).isZero();
    assertThat(shown.at("/track_record/canary_tasks").asInt()).isZero();
    assertThat(shown.path("history")).isEmpty();

    // The next one comes when asked, and it is another canary.
    JsonNode second = newbie.evaluatorTasks().path("tasks");
    assertThat(second).hasSize(1);
    assertThat(second.get(0).path("task_id").asText())
        .isNotEqualTo(first.get(0).path("task_id").asText());
    newbie.answerTask(second.get(0).path("task_id").asText(), answer(95, 95));

    // Both canaries have been given: the set is used up, none is given again, and the evaluator is
    // told why it cannot qualify by canaries.
    assertThat(newbie.evaluatorTasks().path("tasks")).isEmpty();
    assertThat(as("newbie").evaluator(keyOf("newbie")).path("why").toString())
        .contains("the canary set has 0 canaries of its service types that nobody has been given")
        .contains("it lacks 48 evaluations");
    // A second newcomer is given none of them: each was shown once, to somebody.
    as("other").registerEvaluator(registration("other", "general"));
    assertThat(as("other").evaluatorTasks().path("tasks")).isEmpty();

    // A suspended evaluator gets none.
    as("operator").suspendEvaluator(keyOf("newbie"), "under review");
    assertThat(newbie.evaluatorTasks().path("tasks")).isEmpty();
  }
}
