package dev.asa.server.http;

import static org.assertj.core.api.Assertions.assertThat;

import dev.asa.crypto.Ed25519PrivateKey;
import dev.asa.json.Json;
import dev.asa.server.AsaServer;
import dev.asa.server.config.ServerConfig;
import dev.asa.signedrequests.RequestSigner;
import dev.asa.testing.Fixtures;
import io.javalin.router.Endpoint;
import io.javalin.security.Roles;
import io.javalin.security.RouteRole;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.time.Clock;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every route the running server has, as Javalin registered it: each declares exactly one {@link
 * Access}, the unsigned ones are exactly those docs/access.md names, and each is enforced before
 * its handler (an unsigned request to a signed route is a 401 whatever the route).
 */
class RouteAccessTest {
  @TempDir static Path dataDir;
  static AsaServer server;
  static final HttpClient http = HttpClient.newHttpClient();
  static final Ed25519PrivateKey OPERATOR_KEY = Fixtures.key("operator");

  /** Written out, not derived from Routes: every route not listed here must be SIGNED. */
  static final Map<String, Access> NOT_SIGNED =
      Map.ofEntries(
          Map.entry("GET /", Access.PUBLIC),
          Map.entry("GET /health", Access.PUBLIC),
          Map.entry("GET /ready", Access.PUBLIC),
          Map.entry("GET /version", Access.PUBLIC),
          Map.entry("GET /openapi.json", Access.PUBLIC),
          Map.entry("GET /docs", Access.PUBLIC),
          Map.entry("GET /docs/assets/{file}", Access.PUBLIC),
          Map.entry("GET /console", Access.PUBLIC),
          Map.entry("GET /console/assets/{file}", Access.PUBLIC),
          Map.entry("GET /templates", Access.PUBLIC),
          Map.entry("GET /templates/{type}", Access.PUBLIC),
          Map.entry("GET /schemas/asa/{version}/agreement.json", Access.PUBLIC),
          Map.entry("GET /.well-known/asa/server-key", Access.PUBLIC),
          Map.entry("GET /reputation", Access.PUBLIC),
          Map.entry("GET /agreements/{id}/verification", Access.SIGNED_OR_PUBLIC_RESULT),
          Map.entry("GET /admin/config", Access.OPERATOR),
          Map.entry("GET /admin/health", Access.OPERATOR),
          Map.entry("GET /metrics", Access.OPERATOR),
          Map.entry("PUT /admin/canaries", Access.OPERATOR),
          Map.entry("POST /admin/archive", Access.OPERATOR),
          Map.entry("GET /admin/archives", Access.OPERATOR),
          Map.entry("GET /admin/archives/{name}", Access.OPERATOR),
          Map.entry("GET /admin/archives/{name}/file", Access.OPERATOR),
          Map.entry("POST /evaluators/{key}/suspend", Access.OPERATOR),
          Map.entry("POST /evaluators/{key}/reinstate", Access.OPERATOR));

  @BeforeAll
  static void start() {
    server =
        AsaServer.start(
            ServerConfig.defaults()
                .withPort(0)
                .withDataDir(dataDir)
                .withOperatorKey(OPERATOR_KEY.publicKey())
                .withRateLimit(10_000, 10_000)
                .withTimerPolling(false));
  }

  @AfterAll
  static void stop() {
    server.close();
  }

  static String route(Endpoint e) {
    return e.method.name() + " " + e.path;
  }

  static Access accessOf(Endpoint e) {
    Roles roles = e.metadata(Roles.class);
    Set<RouteRole> declared = roles == null ? Set.of() : roles.getRoles();
    assertThat(declared)
        .as("the roles of " + route(e))
        .hasSize(1)
        .allMatch(Access.class::isInstance);
    return (Access) declared.iterator().next();
  }

  @Test
  void everyRouteJavalinKnowsDeclaresExactlyOneAccessLevel() {
    List<Endpoint> endpoints = server.endpoints();
    assertThat(endpoints).hasSizeGreaterThan(30);
    Map<String, Access> table = new TreeMap<>();
    for (Endpoint e : endpoints) {
      assertThat(table.put(route(e), accessOf(e))).as("registered twice: " + route(e)).isNull();
    }
    table.forEach((route, access) ->
        assertThat(access).as(route).isEqualTo(NOT_SIGNED.getOrDefault(route, Access.SIGNED)));
    assertThat(table).containsAllEntriesOf(NOT_SIGNED);
    table.forEach((route, access) -> {
      if (route.contains(" /admin/")) {
        assertThat(access).as(route).isEqualTo(Access.OPERATOR);
      }
    });
  }

  @Test
  void everySignedRouteRefusesAnUnsignedRequestAndEveryOtherRouteAnswersIt() throws Exception {
    for (Endpoint e : server.endpoints()) {
      Access access = accessOf(e);
      HttpResponse<String> r = send(null, e.method.name(), concrete(e.path));
      String label = route(e) + " unsigned -> " + r.statusCode() + " " + r.body();
      if (access == Access.SIGNED || access == Access.OPERATOR) {
        assertThat(r.statusCode()).as(label).isEqualTo(401);
        assertThat(Json.parse(r.body()).path("reason").asText())
            .as(label)
            .isEqualTo("missing_signature");
        assertThat(r.headers().firstValue("WWW-Authenticate")).as(label).contains("Signature");
      } else {
        assertThat(r.statusCode()).as(label).isNotIn(401, 403).isLessThan(500);
      }
    }
  }

  /**
   * The operator passes the gate of every operator route: its answer is the handler's (200 for the
   * read-out; the placeholder request may be refused for its content, never for its key).
   */
  @Test
  void operatorRoutesRefuseEveryOtherKeyAndAnswerTheOperator() throws Exception {
    for (Endpoint e : server.endpoints()) {
      if (accessOf(e) != Access.OPERATOR) {
        continue;
      }
      HttpResponse<String> stranger =
          send(Fixtures.key("mallory"), e.method.name(), concrete(e.path));
      assertThat(stranger.statusCode()).as(route(e)).isEqualTo(403);
      assertThat(Json.parse(stranger.body()).path("detail").asText())
          .isEqualTo("admin routes are for the operator key only");
      HttpResponse<String> operator = send(OPERATOR_KEY, e.method.name(), concrete(e.path));
      assertThat(operator.statusCode()).as(route(e) + " " + operator.body()).isNotIn(401, 403);
      assertThat(operator.statusCode()).as(route(e) + " " + operator.body()).isLessThan(500);
      if (e.method.name().equals("GET")) {
        // A read of a named thing ("x" here) may find nothing: 404, never a refusal of the key.
        assertThat(operator.statusCode())
            .as(route(e))
            .isIn(e.path.contains("{") ? List.of(200, 404) : List.of(200));
      }
    }
  }

  /** The route's path with each {parameter} filled in. */
  static String concrete(String path) {
    return path.replaceAll("\\{[^}]+}", "x");
  }

  /** The request, signed by {@code key} unless it is null; writes carry an empty JSON object. */
  static HttpResponse<String> send(Ed25519PrivateKey key, String method, String path)
      throws Exception {
    URI uri = URI.create(server.url("127.0.0.1") + path);
    byte[] body = method.equals("GET") ? null : "{}".getBytes(StandardCharsets.UTF_8);
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
    return http.send(b.build(), HttpResponse.BodyHandlers.ofString());
  }
}
