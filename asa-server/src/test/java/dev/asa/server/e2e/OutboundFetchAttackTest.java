package dev.asa.server.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.HttpServer;
import dev.asa.agreement.Role;
import dev.asa.client.AsaApiException;
import dev.asa.client.AsaClient;
import dev.asa.crypto.Digest;
import dev.asa.json.Json;
import dev.asa.server.AsaServer;
import dev.asa.server.config.ServerConfig;
import dev.asa.server.escrow.EscrowConfig;
import dev.asa.server.net.FetchPolicy;
import dev.asa.server.verification.DeliverableFetcher;
import dev.asa.testing.Fixtures;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Server-side request forgery through HTTP: a caller names a URL (a deliverable's {@code
 * content_url} in {@code POST /verifications} or at delivery, an {@code http_callback}) and tries
 * to make the server call something on its own network. A "local" HTTP server on loopback records
 * every request it gets; the attack has failed when it records none and the caller learns nothing
 * about it (no digest, status, address or port in the answer).
 */
class OutboundFetchAttackTest {
  private static final String CONTENT = "# Findings\n\nRecycling recovers lithium.\n";
  private static final Digest DIGEST = Digest.sha256(CONTENT.getBytes(StandardCharsets.UTF_8));

  @TempDir Path dataDir;
  private final List<AutoCloseable> toClose = new ArrayList<>();
  private Local local;
  private AsaClient alice;
  private AsaClient bob;
  private AsaClient evaluator;
  private AsaServer server;

  /** A server on 127.0.0.1 that an attacker would like to reach; it writes down each request. */
  static final class Local implements AutoCloseable {
    final HttpServer http;
    final List<String> heard = new CopyOnWriteArrayList<>();

    Local() throws IOException {
      http = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 50);
      http.createContext(
          "/",
          exchange -> {
            heard.add(exchange.getRequestMethod() + " " + exchange.getRequestURI());
            exchange.getRequestBody().readAllBytes();
            String path = exchange.getRequestURI().getPath();
            if (path.startsWith("/redirect")) {
              exchange.getResponseHeaders().set("Location", exchange.getRequestURI().getQuery());
              exchange.sendResponseHeaders(302, -1);
            } else if (path.startsWith("/missing")) {
              exchange.sendResponseHeaders(404, -1);
            } else {
              byte[] body =
                  (path.startsWith("/other") ? "something else" : CONTENT)
                      .getBytes(StandardCharsets.UTF_8);
              exchange.sendResponseHeaders(200, body.length);
              exchange.getResponseBody().write(body);
            }
            exchange.close();
          });
      http.start();
    }

    int port() {
      return http.getAddress().getPort();
    }

    String base() {
      return "http://127.0.0.1:" + port();
    }

    @Override
    public void close() {
      http.stop(0);
    }
  }

  @BeforeEach
  void start() throws IOException {
    local = new Local();
    toClose.add(local);
  }

  @AfterEach
  void stop() throws Exception {
    for (AutoCloseable c : toClose.reversed()) {
      c.close();
    }
  }

  private void startServer(ServerConfig config) {
    server = AsaServer.start(config.withPort(0).withDataDir(dataDir).withRateLimit(10_000, 10_000));
    toClose.add(server);
    AsaClient anonymous = AsaClient.connect(URI.create(server.url("127.0.0.1")));
    alice = anonymous.withKey(Fixtures.key("alice"));
    bob = anonymous.withKey(Fixtures.key("bob"));
    evaluator = anonymous.withKey(Fixtures.key("eval-1"));
  }

  private void startServerAllowing(String... prefixes) {
    startServer(ServerConfig.defaults().withFetchPolicy(new FetchPolicy(List.of(prefixes))));
  }

  private static ObjectNode byUrl(String url, Digest digest) {
    ObjectNode r = Json.object();
    r.putObject("deliverable")
        .put("content_url", url)
        .put("content_hash", digest.toString())
        .put("format", "markdown")
        .put("type", "general");
    r.putObject("original_request")
        .put("description", "Summarise the findings on battery recycling");
    r.putObject("verification_config").put("depth", "structural");
    return r;
  }

  /** The refusal every fetch failure gets, whatever happened on the other side. */
  private void assertGenericRefusal(AsaApiException e, String pointer) {
    assertThat(e.status()).isEqualTo(422);
    assertThat(e.errors())
        .singleElement()
        .satisfies(error -> {
          assertThat(error.pointer()).isEqualTo(pointer);
          assertThat(error.detail()).isEqualTo(DeliverableFetcher.COULD_NOT_FETCH);
        });
    assertThat(e.body())
        .doesNotContain(Integer.toString(local.port()))
        .doesNotContain("127.0.0.1")
        .doesNotContain("sha256:")
        .doesNotContainIgnoringCase("HTTP 4")
        .doesNotContainIgnoringCase("refused")
        .doesNotContainIgnoringCase("loopback");
  }

  @Test
  void aStandaloneVerificationOfALocalUrlIsRefusedAndTheLocalServerHearsNothing() {
    startServer(ServerConfig.defaults());
    int port = local.port();
    List<String> forms =
        List.of(
            "http://127.0.0.1:" + port + "/report.md",
            "http://localhost:" + port + "/report.md",
            "http://LOCALHOST.:" + port + "/report.md",
            "http://sub.localhost:" + port + "/report.md",
            "http://2130706433:" + port + "/report.md", // 127.0.0.1 as one decimal number
            "http://0.0.0.0:" + port + "/report.md", // Linux connects 0.0.0.0 to the local host
            "http://[::1]:" + port + "/report.md",
            "http://[::ffff:127.0.0.1]:" + port + "/report.md",
            "http://[::ffff:7f00:1]:" + port + "/report.md",
            "http://169.254.169.254/latest/meta-data/",
            "http://[fe80::1]:" + port + "/report.md",
            "http://10.0.0.1:" + port + "/report.md",
            "http://192.168.1.1/report.md",
            "http://172.16.0.1/report.md",
            "http://100.64.0.1/report.md");
    for (String url : forms) {
      assertThatThrownBy(() -> alice.requestVerification(byUrl(url, DIGEST)))
          .as(url)
          .isInstanceOfSatisfying(
              AsaApiException.class, e -> assertGenericRefusal(e, "/deliverable/content_url"));
    }
    assertThat(local.heard).isEmpty();
  }

  @Test
  void aDeliveryByUrlToALocalServerIsNeverFetchedWhenVerified() {
    startServer(ServerConfig.defaults());
    String id = active(Fixtures.judgedByBuiltIn(Fixtures.general()));
    bob.deliverByUrl(id, local.base() + "/report.md", DIGEST); // recorded, not fetched
    assertThatThrownBy(() -> alice.verify(id))
        .isInstanceOfSatisfying(
            AsaApiException.class, e -> assertGenericRefusal(e, "/content_url"));
    assertThat(local.heard).isEmpty();
    assertThat(alice.agreement(id).path("state").asText()).isEqualTo("DELIVERED");
  }

  @Test
  void withAllowFetchForThePrefixTheSameUrlsWork() {
    startServerAllowing(local.base() + "/");
    ObjectNode result = alice.requestVerification(byUrl(local.base() + "/report.md", DIGEST));
    assertThat(result.path("determination").path("result").asText()).isEqualTo("PASS");
    assertThat(result.path("evidence_trail").path("deliverable_hash").asText())
        .isEqualTo(DIGEST.toString());

    String id = active();
    bob.deliverByUrl(id, local.base() + "/report.md", DIGEST);
    ObjectNode verified = evaluator.verify(id, LifecycleEndToEndTest.judgedScores(88, 82, 94));
    assertThat(verified.path("state").asText()).isEqualTo("VERIFIED");
    assertThat(
            verified.path("verification").path("evidence_trail").path("deliverable_hash").asText())
        .isEqualTo(DIGEST.toString());
    assertThat(local.heard).containsExactly("GET /report.md", "GET /report.md");
  }

  @Test
  void anAllowedServerCannotBeUsedAsAnOracle() {
    // Even where fetching is allowed, a wrong digest, a 404 and a closed port read the same.
    startServerAllowing(local.base() + "/", "http://127.0.0.1:1/");
    List<String> urls =
        List.of(local.base() + "/other.md", local.base() + "/missing", "http://127.0.0.1:1/closed");
    List<String> bodies = new ArrayList<>();
    for (String url : urls) {
      assertThatThrownBy(() -> alice.requestVerification(byUrl(url, DIGEST)))
          .as(url)
          .isInstanceOfSatisfying(
              AsaApiException.class,
              e -> {
                assertGenericRefusal(e, "/deliverable/content_url");
                // The request id is random hex: "b40402d6..." once made this test fail.
                String body = e.body().replaceAll("\"request_id\"\\s*:\\s*\"[0-9a-f]+\"", "");
                assertThat(body)
                    .doesNotContain(
                        Digest.sha256("something else".getBytes(StandardCharsets.UTF_8)).toString())
                    .doesNotContain("404")
                    .doesNotContain(":1/");
                bodies.add(e.detail() + " " + e.errors());
              });
    }
    assertThat(bodies).hasSize(3).containsOnly(bodies.getFirst());
    assertThat(local.heard).containsExactly("GET /other.md", "GET /missing");
  }

  @Test
  void aRedirectFromAnAllowedServerToALocalOneIsNotFollowed() throws IOException {
    Local target = new Local();
    toClose.add(target);
    startServerAllowing(local.base() + "/redirect");
    String url = local.base() + "/redirect?" + target.base() + "/report.md";
    assertThatThrownBy(() -> alice.requestVerification(byUrl(url, DIGEST)))
        .isInstanceOfSatisfying(
            AsaApiException.class, e -> assertGenericRefusal(e, "/deliverable/content_url"));
    assertThat(local.heard).hasSize(1);
    assertThat(target.heard).isEmpty();
  }

  @Test
  void aPathOutsideTheAllowedPrefixIsStillRefused() {
    startServerAllowing(local.base() + "/public/");
    for (String path :
        List.of("/report.md", "/public/../report.md", "/public/%2e%2e/report.md", "/publicity")) {
      assertThatThrownBy(() -> alice.requestVerification(byUrl(local.base() + path, DIGEST)))
          .as(path)
          .isInstanceOfSatisfying(
              AsaApiException.class, e -> assertGenericRefusal(e, "/deliverable/content_url"));
    }
    assertThat(local.heard).isEmpty();
  }

  @Test
  void aWebhookToADisallowedAddressIsNotSent() {
    // The operator listed the callback prefix (creation accepts the agreement) but did not allow
    // the internal address for outbound requests: the payment instruction stays unsent.
    startServer(
        ServerConfig.defaults()
            .withTimerPolling(false)
            .withEscrow(
                EscrowConfig.DEFAULTS.withCallbackUrlPrefixes(List.of(local.base() + "/"))));
    ObjectNode doc = Fixtures.general();
    doc.with("escrow")
        .putObject("binding")
        .put("type", "http_callback")
        .put("url", local.base() + "/pay");
    String id = active(doc);
    alice.fund(id);
    assertThat(server.deliverDueMessages()).isZero();
    assertThat(local.heard).isEmpty();
  }

  @Test
  void aWebhookToAnAllowedAddressIsSent() {
    startServer(
        ServerConfig.defaults()
            .withTimerPolling(false)
            .withEscrow(EscrowConfig.DEFAULTS.withCallbackUrlPrefixes(List.of(local.base() + "/")))
            .withFetchPolicy(new FetchPolicy(List.of(local.base() + "/"))));
    ObjectNode doc = Fixtures.general();
    doc.with("escrow")
        .putObject("binding")
        .put("type", "http_callback")
        .put("url", local.base() + "/pay");
    String id = active(doc);
    alice.fund(id);
    server.deliverDueMessages();
    assertThat(local.heard).contains("POST /pay");
  }

  private String active() {
    return active(Fixtures.general());
  }

  private String active(ObjectNode doc) {
    String id = alice.createAgreement(doc).path("agreement_id").asText();
    alice.sign(id, Role.CLIENT, Fixtures.key("alice"));
    assertThat(bob.sign(id, Role.PROVIDER, Fixtures.key("bob")).path("state").asText())
        .isEqualTo("ACTIVE");
    if (!doc.path("escrow").path("binding").path("type").asText().equals("http_callback")) {
      alice.fund(id);
    }
    return id;
  }
}
