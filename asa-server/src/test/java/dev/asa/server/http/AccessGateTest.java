package dev.asa.server.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.asa.access.Caller;
import dev.asa.crypto.Ed25519PrivateKey;
import dev.asa.json.Json;
import dev.asa.server.config.PublicUrls;
import dev.asa.signedrequests.NonceCache;
import dev.asa.signedrequests.RateLimiter;
import dev.asa.signedrequests.RequestSigner;
import dev.asa.signedrequests.RequestVerifier;
import dev.asa.testing.Fixtures;
import io.javalin.Javalin;
import io.javalin.config.JavalinConfig;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The gate on a small Javalin of its own: a route without an access level cannot be registered or
 * started, and a route's handler runs only once the gate has let the request through.
 */
class AccessGateTest {
  static final Ed25519PrivateKey OPERATOR = Fixtures.key("operator");
  static final Ed25519PrivateKey ALICE = Fixtures.key("alice");
  static final HttpClient http = HttpClient.newHttpClient();

  final List<String> ran = new ArrayList<>(); // "route by caller" for every handler that ran
  Javalin app;

  @AfterEach
  void stop() {
    if (app != null) {
      app.stop();
    }
  }

  static AccessGate gate() {
    Clock clock = Clock.systemUTC();
    return new AccessGate(
        new Authentication(
            new RequestVerifier(
                clock,
                RequestVerifier.DEFAULT_MAX_SKEW,
                new NonceCache(clock, RequestVerifier.DEFAULT_MAX_SKEW)),
            new RateLimiter(clock, 1000, 1000),
            new RateLimiter(clock, 1000, 1000),
            OPERATOR.publicKey(),
            PublicUrls.DEFAULTS),
        1024);
  }

  /** A server with the gate, {@code routes} registered through it, and Problems' error answers. */
  void start(Consumer<RouteTable> routes) {
    app =
        Javalin.create(
                c -> {
                  c.startup.showJavalinBanner = false;
                  Problems.register(c.routes);
                  routes.accept(gate().install(c));
                })
            .start("127.0.0.1", 0);
  }

  void record(io.javalin.http.Context ctx, String route) {
    Caller caller = AccessGate.callerIfSigned(ctx);
    ran.add(route + " by " + (caller == null ? "nobody" : caller.describe()));
    ctx.result("ran");
  }

  @Test
  void aRouteRegisteredWithoutAnAccessLevelIsRefusedWhenItIsRegistered() {
    assertThatThrownBy(() ->
            Javalin.create(c -> {
              gate().install(c).get("/fine", Access.PUBLIC, ctx -> {});
              c.routes.get("/forgotten", ctx -> {});
            }))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageStartingWith("GET /forgotten declares no access level");
  }

  @Test
  void aRouteWithTwoAccessLevelsIsRefusedToo() {
    assertThatThrownBy(() ->
            Javalin.create(c -> {
              gate().install(c);
              c.routes.get("/both", ctx -> {}, Access.PUBLIC, Access.SIGNED);
            }))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageStartingWith("GET /both declares several access levels");
  }

  @Test
  void aRouteRegisteredBeforeTheGateWasInstalledKeepsTheServerFromStarting() {
    Consumer<JavalinConfig> config =
        c -> {
          c.startup.showJavalinBanner = false;
          c.routes.post("/early", ctx -> {});
          gate().install(c).get("/fine", Access.PUBLIC, ctx -> {});
        };
    Javalin early = Javalin.create(config);
    try {
      assertThatThrownBy(() -> early.start("127.0.0.1", 0))
          .isInstanceOf(IllegalStateException.class)
          .hasMessageStartingWith("POST /early declares no access level");
    } finally {
      early.stop();
    }
  }

  @Test
  void theTableTakesNoRouteWithoutAnAccessLevel() {
    assertThatThrownBy(
            () -> Javalin.create(c -> gate().install(c).get("/nothing", null, ctx -> {})))
        .isInstanceOf(NullPointerException.class)
        .hasMessage("GET /nothing needs an Access");
  }

  @Test
  void aHandlerRunsOnlyAfterTheGateLetItsRequestThrough() throws Exception {
    start(r ->
        r.get("/open", Access.PUBLIC, ctx -> record(ctx, "open"))
            .get("/read", Access.SIGNED, ctx -> record(ctx, "read"))
            .post(
                "/write",
                Access.SIGNED,
                ctx -> {
                  record(ctx, "write");
                  ctx.result(
                      AccessGate.body(
                          ctx)); // the bytes the signature covered, read once by the gate
                })
            .get("/result", Access.SIGNED_OR_PUBLIC_RESULT, ctx -> record(ctx, "result"))
            .get("/admin", Access.OPERATOR, ctx -> record(ctx, "admin")));
    byte[] body = "{\"a\":1}".getBytes(StandardCharsets.UTF_8);

    assertThat(send(null, "GET", "/open", null).statusCode()).isEqualTo(200);
    assertRefused(send(null, "GET", "/read", null), 401, "missing_signature");
    assertRefused(send(null, "POST", "/write", body), 401, "missing_signature");
    assertRefused(send(null, "GET", "/admin", null), 401, "missing_signature");
    assertRefused(send(ALICE, "GET", "/admin", null), 403, null);
    assertThat(send(null, "GET", "/result", null).statusCode()).isEqualTo(200);
    assertThat(ran).containsExactly("open by nobody", "result by nobody");
    ran.clear();

    // A signature that does not verify is refused, also where unsigned requests are let through.
    HttpRequest.Builder forged = request(ALICE, "GET", "/read", null);
    forged.uri(URI.create(url("/result")));
    assertRefused(
        http.send(forged.build(), HttpResponse.BodyHandlers.ofString()), 401, "bad_signature");
    // A body other than the one signed fails its digest before the handler sees it.
    HttpRequest.Builder swapped = request(ALICE, "POST", "/write", body);
    swapped.method("POST", HttpRequest.BodyPublishers.ofString("{\"a\":2}"));
    assertRefused(
        http.send(swapped.build(), HttpResponse.BodyHandlers.ofString()),
        401,
        "content_digest_mismatch");
    assertThat(ran).isEmpty();

    assertThat(send(ALICE, "GET", "/read", null).statusCode()).isEqualTo(200);
    HttpResponse<String> write = send(ALICE, "POST", "/write", body);
    assertThat(write.statusCode()).isEqualTo(200);
    assertThat(write.body()).isEqualTo("{\"a\":1}");
    assertThat(send(ALICE, "GET", "/result", null).statusCode()).isEqualTo(200);
    assertThat(send(OPERATOR, "GET", "/admin", null).statusCode()).isEqualTo(200);
    String alice = new Caller.Key(ALICE.publicKey(), false).describe();
    assertThat(ran)
        .containsExactly(
            "read by " + alice,
            "write by " + alice,
            "result by " + alice,
            "admin by " + new Caller.Key(OPERATOR.publicKey(), true).describe());
  }

  @Test
  void aBodyOverTheLimitIsRefusedBeforeItsSignatureIsChecked() throws Exception {
    start(r -> r.post("/write", Access.SIGNED, ctx -> record(ctx, "write")));
    HttpResponse<String> r = send(null, "POST", "/write", new byte[2048]);
    assertThat(r.statusCode()).isEqualTo(413);
    assertThat(ran).isEmpty();
  }

  static void assertRefused(HttpResponse<String> r, int status, String reason) throws Exception {
    assertThat(r.statusCode()).as(r.body()).isEqualTo(status);
    assertThat(r.headers().firstValue("Content-Type"))
        .hasValueSatisfying(t -> assertThat(t).startsWith(Problems.CONTENT_TYPE));
    if (reason != null) {
      assertThat(Json.parse(r.body()).path("reason").asText()).isEqualTo(reason);
    }
  }

  String url(String path) {
    return "http://127.0.0.1:" + app.port() + path;
  }

  HttpRequest.Builder request(Ed25519PrivateKey key, String method, String path, byte[] body) {
    URI uri = URI.create(url(path));
    HttpRequest.Builder b =
        HttpRequest.newBuilder(uri)
            .method(
                method,
                body == null
                    ? HttpRequest.BodyPublishers.noBody()
                    : HttpRequest.BodyPublishers.ofByteArray(body));
    if (key != null) {
      new RequestSigner(key, Clock.systemUTC(), new SecureRandom())
          .sign(method, uri, body)
          .asMap()
          .forEach(b::header);
    }
    return b;
  }

  HttpResponse<String> send(Ed25519PrivateKey key, String method, String path, byte[] body)
      throws Exception {
    return http.send(
        request(key, method, path, body).build(), HttpResponse.BodyHandlers.ofString());
  }
}
