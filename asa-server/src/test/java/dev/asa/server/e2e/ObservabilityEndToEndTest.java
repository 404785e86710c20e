package dev.asa.server.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.asa.agreement.Role;
import dev.asa.client.AsaApiException;
import dev.asa.client.AsaClient;
import dev.asa.crypto.Ed25519PrivateKey;
import dev.asa.json.Json;
import dev.asa.server.AsaServer;
import dev.asa.server.config.ServerConfig;
import dev.asa.server.escrow.EscrowConfig;
import dev.asa.server.escrow.WebhookReceiver;
import dev.asa.server.logging.LogCapture;
import dev.asa.server.net.FetchPolicy;
import dev.asa.server.verification.engine.VerificationConfig;
import dev.asa.signedrequests.RequestSigner;
import dev.asa.testing.Fixtures;
import dev.asa.testing.MutableClock;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What an operator sees of one agreement's life, from creation through payment to the webhook that
 * reports it: the access-log line of every request (with its request id), one event line per state
 * change, transfer, timer firing and outbox delivery, and every metric series in {@code GET
 * /metrics}; and what they never see: the deliverable, keys, signatures.
 */
class ObservabilityEndToEndTest {
  /** What the provider delivers: distinctive, so that finding it anywhere in the logs is a leak. */
  private static final String DELIVERABLE =
      "# Findings\n\nCONFIDENTIAL-DELIVERABLE-5c1e9a: lithium recovery reaches 95 percent.\n";

  @TempDir Path dataDir;
  private final MutableClock clock = new MutableClock(Instant.parse("2026-11-22T10:00:00Z"));
  private WebhookReceiver payments;
  private AsaServer server;
  private AsaClient client;
  private AsaClient provider;
  private AsaClient evaluator;
  private LogCapture logs;

  @BeforeEach
  void start() {
    var serverKey = dev.asa.server.ServerKey.loadOrCreate(dataDir).publicKey();
    payments = new WebhookReceiver(serverKey, clock);
    logs = new LogCapture();
    server =
        AsaServer.start(
            ServerConfig.defaults()
                .withPort(0)
                .withDataDir(dataDir)
                .withClock(clock)
                .withTimerPolling(false)
                .withOperatorKey(Fixtures.key("operator").publicKey())
                .withEscrow(
                    EscrowConfig.DEFAULTS.withCallbackUrlPrefixes(
                        List.of(payments.uri().toString())))
                .withFetchPolicy(new FetchPolicy(List.of(payments.uri().toString()))));
    AsaClient anonymous = AsaClient.connect(URI.create(server.url("127.0.0.1")));
    client = anonymous.withKey(Fixtures.key("alice"), clock);
    provider = anonymous.withKey(Fixtures.key("bob"), clock);
    evaluator = anonymous.withKey(Fixtures.key("eval-1"), clock);
  }

  @AfterEach
  void stop() {
    server.close();
    payments.close();
    logs.close();
  }

  /** Creation to CLOSED, the payment reported by webhook; returns the agreement id. */
  private String lifecycle() {
    ObjectNode doc = Fixtures.general();
    ((ObjectNode) doc.path("escrow"))
        .putObject("binding")
        .put("type", "http_callback")
        .put("url", payments.uri() + "/asa");
    String id = client.createAgreement(doc).path("agreement_id").asText();
    client.sign(id, Role.CLIENT, Fixtures.key("alice"));
    provider.sign(id, Role.PROVIDER, Fixtures.key("bob"));
    client.fund(id);
    provider.deliver(id, DELIVERABLE, "markdown");
    evaluator.verify(id, LifecycleEndToEndTest.judgedScores(88, 82, 94));
    settleOutbox();
    clock.advance(Duration.ofHours(2).plusSeconds(3));
    assertThat(server.fireDueTimers()).isPositive(); // the challenge window closes: payment
    server.deliverDueMessages();
    assertThat(client.status(id).path("state").asText()).isEqualTo("CLOSED");
    return id;
  }

  /**
   * Returns once the outbox is quiet: no delivery in flight and none due. The server's own poller
   * signs each webhook at the clock's time; one signed before the clock moves 2 h would reach the
   * receiver 2 h stale, be refused and retried, and the delivery log would show a retry. {@code
   * deliverDueMessages} takes the poller's turn, so it returns only after a delivery in flight has
   * ended; with the clock still, one that delivers nothing leaves nothing due.
   */
  private void settleOutbox() {
    while (server.deliverDueMessages() > 0) {
      // each round delivers what the previous one left due
    }
  }

  @Test
  void everyRequestHasOneAccessLineAndEveryChangeOneEventLine() {
    String id = lifecycle();

    List<LogCapture.Line> access = logs.of("dev.asa.server.access");
    LogCapture.Line deliver =
        access.stream()
            .filter(l -> "/agreements/{id}/deliver".equals(l.field("route")))
            .findFirst()
            .orElseThrow();
    assertThat(deliver.fields())
        .containsEntry("method", "POST")
        .containsEntry("path", "/agreements/" + id + "/deliver")
        .containsEntry("status", 200)
        .containsEntry("caller", Fixtures.key("bob").publicKey().toBase64Url());
    assertThat((Long) deliver.field("bytes")).isPositive();
    assertThat((Long) deliver.field("duration_ms")).isNotNegative();
    assertThat(deliver.mdc().get("request_id")).matches("[0-9a-f]{32}");
    assertThat(access)
        .extracting(l -> l.field("route"))
        .contains("/agreements", "/agreements/{id}/sign", "/agreements/{id}/fund")
        .contains("/agreements/{id}/verify", "/agreements/{id}/status");
    assertThat(access).allSatisfy(l -> assertThat(l.mdc()).containsKey("request_id"));

    assertThat(logs.of("dev.asa.server.events.state"))
        .extracting(l -> l.field("from") + "->" + l.field("to"))
        .containsExactly(
            "none->PROPOSED",
            "PROPOSED->ACTIVE",
            "ACTIVE->DELIVERED",
            "DELIVERED->VERIFIED",
            "VERIFIED->CLOSED");
    assertThat(logs.of("dev.asa.server.events.state"))
        .allSatisfy(l -> assertThat(l.field("agreement_id")).isEqualTo(id))
        .anySatisfy(l -> assertThat(l.field("cause")).isEqualTo("delivered"));
    // 0.30*88 + 0.25*82 + 0.30*94 + 0.15*100 = 90.1: the >= 90 tier releases all 10.00
    assertThat(logs.of("dev.asa.server.events.transfer"))
        .extracting(l -> l.field("kind") + " " + l.field("amount") + " " + l.field("currency"))
        .containsExactly("fund 10.00 USD", "hold 10.00 USD", "release 10.00 USD");
    // The clock moved 2 h 3 s past the verification: the 2 h challenge window fired 3 s late.
    assertThat(logs.of("dev.asa.server.events.timer"))
        .allSatisfy(l -> assertThat(l.fields()).containsEntry("agreement_id", id))
        .anySatisfy(l -> assertThat(l.fields()).containsEntry("lag_ms", 3000L));
    assertThat(logs.of("dev.asa.server.events.outbox"))
        .isNotEmpty()
        .allSatisfy(l -> assertThat(l.fields()).containsEntry("outcome", "delivered"))
        .allSatisfy(l -> assertThat(l.fields()).containsEntry("attempt", 1));
  }

  @Test
  void theLogsHoldNoDeliverableNoKeyAndNoSignature() throws Exception {
    lifecycle();
    String everything = logs.everything();
    assertThat(everything).contains("/deliver").contains("VERIFIED");
    assertThat(everything).doesNotContain("CONFIDENTIAL-DELIVERABLE-5c1e9a");
    for (String name : List.of("alice", "bob", "eval-1")) {
      byte[] seed =
          MessageDigest.getInstance("SHA-256")
              .digest(("asa-test-key:" + name).getBytes(StandardCharsets.UTF_8));
      assertThat(everything)
          .doesNotContain(Base64.getUrlEncoder().withoutPadding().encodeToString(seed))
          .doesNotContain(Base64.getEncoder().encodeToString(seed))
          .doesNotContain(HexFormat.of().formatHex(seed));
    }
    assertThat(everything).doesNotContainIgnoringCase("sig1=").doesNotContain("Signature-Input");
  }

  @Test
  void aGivenRequestIdIsEchoedAndQuotedInTheProblem() throws Exception {
    HttpResponse<String> answer =
        HttpClient.newHttpClient()
            .send(
                HttpRequest.newBuilder(URI.create(server.url("127.0.0.1") + "/templates/nope"))
                    .header("X-Request-Id", "trace-42.a:b")
                    .build(),
                HttpResponse.BodyHandlers.ofString());
    assertThat(answer.statusCode()).isEqualTo(404);
    assertThat(answer.headers().firstValue("X-Request-Id")).hasValue("trace-42.a:b");
    assertThat(Json.parse(answer.body()).path("request_id").asText()).isEqualTo("trace-42.a:b");
    assertThat(logs.of("dev.asa.server.access").getLast().mdc())
        .containsEntry("request_id", "trace-42.a:b");

    // An id that could forge a log line or is too long is replaced by a fresh one.
    assertThatThrownBy(() -> client.agreement("no-such-agreement"))
        .isInstanceOfSatisfying(
            AsaApiException.class,
            e -> assertThat(e.problem().path("request_id").asText()).matches("[0-9a-f]{32}"));
    HttpResponse<String> forged =
        HttpClient.newHttpClient()
            .send(
                HttpRequest.newBuilder(URI.create(server.url("127.0.0.1") + "/health"))
                    .header("X-Request-Id", "x".repeat(200))
                    .build(),
                HttpResponse.BodyHandlers.ofString());
    assertThat(forged.headers().firstValue("X-Request-Id"))
        .get()
        .asString()
        .matches("[0-9a-f]{32}");
  }

  @Test
  void metricsShowEverySeriesAfterALifecycle() throws Exception {
    String id = lifecycle();
    clock.advance(Duration.ofSeconds(10)); // past the store gauges' cache
    String metrics = scrape(Fixtures.key("operator"));

    // Requests by route template, method and status, with a latency histogram; never a raw path.
    assertThat(metrics)
        .contains(
            "asa_http_requests_seconds_count{method=\"POST\",route=\"/agreements/{id}/deliver\",status=\"200\"} 1")
        .contains(
            "asa_http_requests_seconds_bucket{method=\"POST\",route=\"/agreements/{id}/deliver\"")
        .doesNotContain("route=\"/agreements/" + id);
    assertThat(metrics)
        .contains("asa_lifecycle_transitions_total{from=\"none\",to=\"PROPOSED\"} 1")
        .contains("asa_lifecycle_transitions_total{from=\"VERIFIED\",to=\"CLOSED\"} 1")
        .contains("asa_evaluator_seconds_count{kind=\"structural\"} 1")
        .contains("asa_verification_jobs_queued 0")
        .contains("asa_verification_jobs_running 0")
        .contains("asa_outbox_attempts_total{outcome=\"delivered\"}")
        .contains("asa_outbox_pending 0")
        .contains("asa_timer_lag_seconds_count{kind=\"")
        .contains("asa_timer_lag_seconds_bucket{kind=\"")
        .contains("asa_timers_pending ")
        .contains("asa_ledger_transferred{currency=\"USD\",kind=\"release\"} 10")
        .contains("asa_nonces{store=\"database\"}")
        .contains("asa_nonces{store=\"memory\"}");

    // Anyone else is refused: the metrics are the operator's.
    HttpResponse<String> stranger =
        HttpClient.newHttpClient()
            .send(
                signedGet(Fixtures.key("mallory"), "/metrics"),
                HttpResponse.BodyHandlers.ofString());
    assertThat(stranger.statusCode()).isEqualTo(403);
  }

  @Test
  void aSeparateMetricsPortAnswersWithoutASignatureAndTheMainPortNoLonger() throws Exception {
    server.close();
    assertThat(logs.of("dev.asa.server.AsaServer"))
        .extracting(LogCapture.Line::message)
        .anySatisfy(m -> assertThat(m).matches("asa server \\S+ listening on 127\\.0\\.0\\.1:.*"))
        .anySatisfy(m ->
            assertThat(m)
                .matches("asa server stopped in \\d+ ms .*; drained 0 in-flight request\\(s\\)"));
    server =
        AsaServer.start(
            ServerConfig.defaults()
                .withPort(0)
                .withDataDir(dataDir)
                .withClock(clock)
                .withOperatorKey(Fixtures.key("operator").publicKey())
                .withObservability(
                    dev.asa.server.config.Observability.DEFAULTS.withMetrics(
                        dev.asa.server.config.Observability.MetricsEndpoint.separate(
                            "127.0.0.1", 0))));
    HttpResponse<String> plain =
        HttpClient.newHttpClient()
            .send(
                HttpRequest.newBuilder(
                        URI.create("http://127.0.0.1:" + server.metricsPort() + "/metrics"))
                    .build(),
                HttpResponse.BodyHandlers.ofString());
    assertThat(plain.statusCode()).isEqualTo(200);
    assertThat(plain.headers().firstValue("Content-Type"))
        .get()
        .asString()
        .startsWith("text/plain");
    assertThat(plain.body()).contains("asa_verification_jobs_queued");
    HttpResponse<String> main =
        HttpClient.newHttpClient()
            .send(
                signedGet(Fixtures.key("operator"), "/metrics"),
                HttpResponse.BodyHandlers.ofString());
    assertThat(main.statusCode()).isEqualTo(404);
    // The operator's summary stays on the main port: it reads the same registry.
    HttpResponse<String> health =
        HttpClient.newHttpClient()
            .send(
                signedGet(Fixtures.key("operator"), "/admin/health"),
                HttpResponse.BodyHandlers.ofString());
    assertThat(health.statusCode()).as(health.body()).isEqualTo(200);
    assertThat(Json.parse(health.body()).path("requests").path("count").asLong()).isPositive();
  }

  @Test
  void aSemanticJobShowsAsQueuedRunningFinishedWithItsEvaluatorsLatency() throws Exception {
    server.close();
    server =
        AsaServer.start(
            ServerConfig.defaults()
                .withPort(0)
                .withDataDir(dataDir)
                .withClock(clock)
                .withOperatorKey(Fixtures.key("operator").publicKey())
                .withVerification(
                    new VerificationConfig(
                        Map.of(
                            "agent_as_judge",
                            () -> new VerificationApiEndToEndTest.WordJudge("fake/judge", 0)),
                        "agent_as_judge",
                        1,
                        Map.of())));
    AsaClient alice =
        AsaClient.connect(URI.create(server.url("127.0.0.1")))
            .withKey(Fixtures.key("alice"), clock);
    ObjectNode request = Json.object();
    request
        .putObject("deliverable")
        .put("content", DELIVERABLE)
        .put("format", "markdown")
        .put("type", "general");
    request.putObject("original_request").put("description", "Summarise lithium recovery");
    request.putObject("verification_config").put("depth", "semantic");
    String id = alice.requestVerification(request).path("verification_id").asText();
    alice.awaitVerification(id, Duration.ofSeconds(20), progress -> {});

    String metrics = scrape(Fixtures.key("operator"));
    assertThat(metrics)
        .contains("asa_verification_jobs_seconds_count{outcome=\"completed\"} 1")
        .contains("asa_verification_jobs_queued 0")
        .contains("asa_verification_jobs_running 0")
        .contains("asa_evaluator_seconds_count{kind=\"agent_as_judge\"} 1");
    // The operator's summary reads the very meters the scrape rendered.
    HttpResponse<String> health =
        HttpClient.newHttpClient()
            .send(
                signedGet(Fixtures.key("operator"), "/admin/health"),
                HttpResponse.BodyHandlers.ofString());
    JsonNode jobs = Json.parse(health.body()).path("verification_jobs");
    assertThat(jobs.path("finished").asLong()).isEqualTo(1);
    assertThat(jobs.path("queued").asLong()).isZero();
    assertThat(jobs.path("running").asLong()).isZero();
    assertThat(jobs.path("mean_ms").isNumber()).isTrue();
    assertThat(logs.everything()).doesNotContain("CONFIDENTIAL-DELIVERABLE-5c1e9a");
  }

  private String scrape(Ed25519PrivateKey key) throws Exception {
    HttpResponse<String> answer =
        HttpClient.newHttpClient()
            .send(signedGet(key, "/metrics"), HttpResponse.BodyHandlers.ofString());
    assertThat(answer.statusCode()).as(answer.body()).isEqualTo(200);
    assertThat(answer.headers().firstValue("Content-Type"))
        .get()
        .asString()
        .startsWith("text/plain");
    return answer.body();
  }

  private HttpRequest signedGet(Ed25519PrivateKey key, String path) {
    URI uri = URI.create(server.url("127.0.0.1") + path);
    HttpRequest.Builder request = HttpRequest.newBuilder(uri).GET();
    Map<String, String> headers =
        new RequestSigner(key, clock, new SecureRandom()).sign("GET", uri, new byte[0]).asMap();
    headers.forEach(request::header);
    return request.build();
  }
}
