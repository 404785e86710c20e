package dev.asa.server.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import dev.asa.json.Json;
import dev.asa.server.AsaServer;
import dev.asa.server.config.PublicUrls;
import dev.asa.server.config.ServerConfig;
import dev.asa.server.store.db.TestPostgres;
import dev.asa.testing.Fixtures;
import java.net.URI;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A captured signed request, sent again byte for byte, is refused after the server restarts and by
 * a second node sharing the database: nonces live in the store (request_nonces), not only in one
 * process's memory.
 */
class ReplayAcrossRestartsTest {
  @TempDir Path dataDir;

  static final String PATH = "/agreements?party=did:example:nobody";

  @Test
  void aRequestCapturedBeforeARestartIsRefusedAfterIt() throws Exception {
    int port;
    byte[] captured;
    try (AsaServer first = AsaServer.start(config().withPort(0))) {
      port = first.port();
      String authority = "127.0.0.1:" + port;
      captured =
          RawHttp.signed(
              Fixtures.key("alice"), "GET", "http://" + authority, PATH, authority, null);
      assertThat(RawHttp.send(port, captured).status()).isEqualTo(200);
    }
    try (AsaServer again = AsaServer.start(config().withPort(port))) {
      RawHttp.Response replay = RawHttp.send(again.port(), captured);
      assertThat(replay.status()).isEqualTo(401);
      assertThat(replay.reason()).isEqualTo("replayed_nonce");
      assertThat(replay.detail()).contains("nonce \"").contains("was already used with this key");
    }
  }

  /**
   * Two nodes behind one public URL on one PostgreSQL schema: node 2 refuses what node 1 accepted.
   */
  @Test
  void aRequestAcceptedByOneNodeIsRefusedByAnother() throws Exception {
    PublicUrls shared = new PublicUrls(List.of(URI.create("https://asa.example.com")));
    try (TestPostgres pg = TestPostgres.freshSchema();
        AsaServer node1 =
            AsaServer.start(config().withPort(0).withDbUrl(pg.url()).withPublicUrls(shared));
        AsaServer node2 =
            AsaServer.start(
                config()
                    .withPort(0)
                    .withDbUrl(pg.url())
                    .withPublicUrls(shared)
                    .withDataDir(dataDir.resolve("node2")))) {
      byte[] captured =
          RawHttp.signed(
              Fixtures.key("alice"),
              "GET",
              "https://asa.example.com",
              PATH,
              "asa.example.com",
              null);
      assertThat(RawHttp.send(node1.port(), captured).status()).isEqualTo(200);
      RawHttp.Response onNode2 = RawHttp.send(node2.port(), captured);
      assertThat(onNode2.status()).isEqualTo(401);
      assertThat(onNode2.reason()).isEqualTo("replayed_nonce");
      assertThat(onNode2.detail()).contains("nonce \"");
      // And a fresh request to node 2 is fine: it is the nonce that is refused, not the node.
      byte[] fresh =
          RawHttp.signed(
              Fixtures.key("alice"),
              "GET",
              "https://asa.example.com",
              PATH,
              "asa.example.com",
              null);
      assertThat(RawHttp.send(node2.port(), fresh).status()).isEqualTo(200);
    }
  }

  /**
   * A write's nonce is recorded by the write's own transaction (issue 59: one commit per mutating
   * request): a write accepted by node 1 and replayed to node 2 is refused there with no effect; a
   * write node 1 refused (422, nothing committed) still has its nonce recorded before its answer,
   * so node 2 refuses its replay too; and a standalone structural verification commits once.
   */
  @Test
  void aWriteIsRecordedWithItsNonceInOneTransaction() throws Exception {
    PublicUrls shared = new PublicUrls(List.of(URI.create("https://asa.example.com")));
    try (TestPostgres pg = TestPostgres.freshSchema();
        AsaServer node1 =
            AsaServer.start(
                config()
                    .withPort(0)
                    .withDbUrl(pg.url())
                    .withPublicUrls(shared)
                    .withTimerPolling(false)
                    .withOperatorKey(Fixtures.key("operator").publicKey()));
        AsaServer node2 =
            AsaServer.start(
                config()
                    .withPort(0)
                    .withDbUrl(pg.url())
                    .withPublicUrls(shared)
                    .withDataDir(dataDir.resolve("node2")))) {
      byte[] create = post("/agreements", Json.write(Fixtures.general()));
      RawHttp.Response created = RawHttp.send(node1.port(), create);
      assertThat(created.status()).isEqualTo(201);
      String id = created.json().path("agreement_id").asText();
      RawHttp.Response replayed = RawHttp.send(node2.port(), create);
      assertThat(replayed.status()).isEqualTo(401);
      assertThat(replayed.reason()).isEqualTo("replayed_nonce");
      assertThat(eventsOf(node2, id)).as("the replay added nothing").isEqualTo(1);

      byte[] refused = post("/agreements", "{\"asa_version\": 7}");
      assertThat(RawHttp.send(node1.port(), refused).status()).isEqualTo(422);
      RawHttp.Response again = RawHttp.send(node2.port(), refused);
      assertThat(again.status()).isEqualTo(401);
      assertThat(again.reason()).isEqualTo("replayed_nonce");

      // The fewest commits of three tries: a poller's commit between the two readings (the
      // outbox's, a nonce prune) would be counted too, and a loaded machine widens that window.
      long fewest = Long.MAX_VALUE;
      for (int attempt = 0; attempt < 3; attempt++) {
        long before = commits(node1);
        byte[] verification =
            post(
                "/verifications",
                "{\"deliverable\":{\"content\":\"# Findings\\n\\nA result.\",\"format\":"
                    + "\"markdown\",\"type\":\"general\"},\"original_request\":{\"description\":"
                    + "\"findings\"}}");
        RawHttp.Response verified = RawHttp.send(node1.port(), verification);
        assertThat(verified.status()).as(verified.body()).isEqualTo(200);
        // The second reading's own nonce is one commit; the verification is the other.
        fewest = Math.min(fewest, commits(node1) - before - 1);
      }
      System.out.println("a standalone structural verification committed " + fewest + " time(s)");
      assertThat(fewest).isEqualTo(1);
    }
  }

  private static byte[] post(String path, String body) {
    return RawHttp.signed(
        Fixtures.key("alice"),
        "POST",
        "https://asa.example.com",
        path,
        "asa.example.com",
        body.getBytes(java.nio.charset.StandardCharsets.UTF_8));
  }

  private static int eventsOf(AsaServer node, String id) throws Exception {
    byte[] events =
        RawHttp.signed(
            Fixtures.key("alice"),
            "GET",
            "https://asa.example.com",
            "/agreements/" + id + "/events",
            "asa.example.com",
            null);
    return RawHttp.send(node.port(), events).json().path("events").size();
  }

  /** {@code asa_store_commits_total} from the operator's {@code GET /metrics}. */
  private static long commits(AsaServer node) throws Exception {
    byte[] metrics =
        RawHttp.signed(
            Fixtures.key("operator"),
            "GET",
            "https://asa.example.com",
            "/metrics",
            "asa.example.com",
            null);
    String text = RawHttp.send(node.port(), metrics).body();
    for (String line : text.lines().toList()) {
      if (line.startsWith("asa_store_commits_total")) {
        return (long) Double.parseDouble(line.substring(line.lastIndexOf(' ') + 1));
      }
    }
    throw new AssertionError("no asa_store_commits_total in " + text);
  }

  private ServerConfig config() {
    return ServerConfig.defaults().withDataDir(dataDir).withRateLimit(10_000, 10_000);
  }
}
