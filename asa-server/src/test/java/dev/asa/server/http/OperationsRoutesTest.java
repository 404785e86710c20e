package dev.asa.server.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import dev.asa.json.Json;
import dev.asa.server.AsaServer;
import dev.asa.server.config.ServerConfig;
import dev.asa.server.store.db.Readiness;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code GET /version} and {@code GET /ready}: what the build is, and whether the server can serve
 * (database answering, every migration applied), or a 503 naming the failing check.
 */
class OperationsRoutesTest {
  @TempDir Path dataDir;
  static final HttpClient http = HttpClient.newHttpClient();

  record Answer(int status, String contentType, JsonNode body) {}

  static Answer get(AsaServer server, String path) throws Exception {
    HttpResponse<String> r =
        http.send(
            HttpRequest.newBuilder(URI.create(server.url("127.0.0.1") + path)).build(),
            HttpResponse.BodyHandlers.ofString());
    return new Answer(
        r.statusCode(), r.headers().firstValue("content-type").orElse(""), Json.parse(r.body()));
  }

  AsaServer start() {
    return AsaServer.start(
        ServerConfig.defaults().withPort(0).withDataDir(dataDir).withTimerPolling(false));
  }

  @Test
  void theVersionIsTheBuildsAndTheRuntimesAndTheProtocolsSpoken() throws Exception {
    try (AsaServer server = start()) {
      Answer a = get(server, "/version");
      assertThat(a.status()).isEqualTo(200);
      // Filled in by Maven from the pom, never written by hand: a version, not a placeholder.
      assertThat(a.body().path("version").asText())
          .matches("\\d+\\.\\d+\\.\\d+(-SNAPSHOT)?")
          .isEqualTo(BuildInfo.current().version());
      assertThat(a.body().path("build_time").asText()).matches("\\d{4}-\\d\\d-\\d\\dT.*Z");
      assertThat(a.body().path("java").asText()).isEqualTo(Runtime.version().toString());
      assertThat(a.body().path("protocol_versions")).extracting(JsonNode::asText).contains("1.0.0");
    }
  }

  @Test
  void readyWhenTheDatabaseAnswersAndEveryMigrationIsApplied() throws Exception {
    try (AsaServer server = start()) {
      Answer a = get(server, "/ready");
      assertThat(a.status()).isEqualTo(200);
      assertThat(a.body())
          .isEqualTo(
              Json.parseTrusted(
                  "{\"status\":\"ready\",\"checks\":{\"database\":\"ok\",\"migrations\":\"ok\"}}"));
      assertThat(get(server, "/health").status()).isEqualTo(200);
    }
  }

  /**
   * A database restored from an older backup under a running server: not ready, and it says why.
   */
  @Test
  void notReadyWhenAMigrationIsMissingFromTheDatabase() throws Exception {
    try (AsaServer server = start()) {
      try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + dataDir.resolve("asa.db"));
          Statement s = c.createStatement()) {
        s.execute(
            "DELETE FROM flyway_schema_history WHERE installed_rank ="
                + " (SELECT max(installed_rank) FROM flyway_schema_history)");
      }
      Answer a = get(server, "/ready");
      assertThat(a.status()).isEqualTo(503);
      assertThat(a.contentType()).isEqualTo("application/problem+json");
      assertThat(a.body().path("type").asText()).endsWith("/not-ready");
      assertThat(a.body().path("checks").path("database").asText()).isEqualTo("ok");
      assertThat(a.body().path("checks").path("migrations").asText()).isEqualTo("failed");
      assertThat(a.body().path("detail").asText())
          .startsWith("migrations: ")
          .contains("(not applied)")
          .contains(".sql");
      assertThat(get(server, "/health").status()).as("still alive").isEqualTo(200);
    }
  }

  @Test
  void aDatabaseThatDoesNotAnswerIsA503NamingTheDatabase() {
    Operations down =
        new Operations(
            BuildInfo.current(),
            () ->
                new Readiness(
                    new Readiness.Check(false, "the database does not answer: connection refused"),
                    new Readiness.Check(false, "not checked: the database does not answer")));
    assertThatThrownBy(down::ready)
        .isInstanceOfSatisfying(
            RequestException.class,
            e -> {
              assertThat(e.problem().status()).isEqualTo(503);
              assertThat(e.problem().detail())
                  .startsWith("database: the database does not answer: connection refused");
              assertThat(e.problem().extensions().path("checks").path("database").asText())
                  .isEqualTo("failed");
            });
  }
}
