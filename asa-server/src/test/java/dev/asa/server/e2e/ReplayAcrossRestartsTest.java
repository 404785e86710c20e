package dev.asa.server.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import dev.asa.server.AsaServer;
import dev.asa.server.config.PublicUrls;
import dev.asa.server.config.ServerConfig;
import dev.asa.server.store.TestPostgres;
import dev.asa.testing.Fixtures;
import java.net.URI;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A captured signed request, sent again byte for byte, is refused after the server restarts and by
 * a second node sharing the database: nonces live in the store (V008 request_nonces), not only in
 * one process's memory.
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

  private ServerConfig config() {
    return ServerConfig.defaults().withDataDir(dataDir).withRateLimit(10_000, 10_000);
  }
}
