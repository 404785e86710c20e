package dev.asa.server.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.asa.crypto.Ed25519PrivateKey;
import dev.asa.json.Json;
import dev.asa.server.AsaServer;
import dev.asa.server.config.ServerConfig;
import dev.asa.testing.Fixtures;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Base64;
import java.util.HexFormat;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Requests signed by an RFC 9421 implementation this project did not write (the npm package
 * http-message-signatures 1.0.6, run by Node) with its defaults: label {@code sig}, parameters
 * keyid, alg, created and expires, plus the nonce the ASA profile requires. Issue 21 found every
 * such request refused ("the ASA API accepts only the label sig1").
 *
 * <p>The package is installed from the npm registry into {@code src/test/node/rfc9421} by {@code
 * npm ci} (pinned by its lock file) when it is not there yet; without Node or the registry the test
 * is skipped, except on CI, where it fails.
 */
class StandardRfc9421ClientTest {
  private static final Path SIGNER = Path.of("src/test/node/rfc9421");

  /** A fixed seed, so the key can be handed to Node as PKCS#8 (the seed is all it holds). */
  private static final byte[] SEED =
      HexFormat.of().parseHex("4ccd089b28ff96da9db6c346ec114e0f5b8a319f35aba624da8cf6ed4fb8a6fb");

  private static final Ed25519PrivateKey KEY = Ed25519PrivateKey.fromSeed(SEED);

  @TempDir static Path dataDir;
  static AsaServer server;
  static final HttpClient http = HttpClient.newHttpClient();

  @BeforeAll
  static void start() throws Exception {
    NodeScripts.install(SIGNER, "http-message-signatures");
    server =
        AsaServer.start(
            ServerConfig.defaults().withPort(0).withDataDir(dataDir).withRateLimit(10_000, 10_000));
  }

  @AfterAll
  static void stop() {
    if (server != null) {
      server.close();
    }
  }

  @Test
  void aRequestWithABodySignedWithTheLibraryDefaultsIsAccepted() throws Exception {
    ObjectNode doc = Fixtures.general();
    String client = "rfc9421-" + UUID.randomUUID().toString().substring(0, 8);
    ((ObjectNode) doc.at("/parties/client/identity")).put("value", client);
    ((ObjectNode) doc.at("/parties/client/verification_key"))
        .put("value", KEY.publicKey().toBase64Url());
    HttpResponse<String> created = send("POST", "/agreements", Json.write(doc), null);
    assertThat(created.statusCode()).as(created.body()).isEqualTo(201);

    HttpResponse<String> listed = send("GET", "/agreements?party=" + client, null, null);
    assertThat(listed.statusCode()).as(listed.body()).isEqualTo(200);
    assertThat(Json.parse(listed.body()).path("items").size()).isEqualTo(1);
  }

  @Test
  void extraComponentsInTheSignersOrderAreAccepted() throws Exception {
    HttpResponse<String> r =
        send(
            "GET",
            "/agreements?party=nobody",
            null,
            List.of("@authority", "@target-uri", "@path", "@query", "@method"));
    assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
  }

  @Test
  void aSignatureThatDoesNotCoverTheTargetUriIsRefused() throws Exception {
    HttpResponse<String> r = send("GET", "/agreements?party=nobody", null, List.of("@method"));
    assertThat(r.statusCode()).isEqualTo(401);
    assertThat(r.body()).contains("covers (\\\"@method\\\" \\\"@target-uri\\\")");
  }

  /** Signs with Node, then sends exactly those headers with Java's client. */
  private static HttpResponse<String> send(
      String method, String pathAndQuery, String body, List<String> fields) throws Exception {
    URI uri = URI.create(server.url("127.0.0.1") + pathAndQuery);
    ObjectNode input = Json.object();
    input.put("method", method).put("url", uri.toString());
    input.put("body", body);
    input.put("pkcs8", Base64.getEncoder().encodeToString(pkcs8(SEED)));
    input.put("keyid", KEY.publicKey().toBase64Url());
    input.put("nonce", UUID.randomUUID().toString().replace("-", ""));
    if (fields != null) {
      fields.forEach(input.putArray("fields")::add);
    }
    JsonNode headers = Json.parse(NodeScripts.run(SIGNER, "sign.mjs", Json.write(input)));
    HttpRequest.Builder request =
        HttpRequest.newBuilder(uri)
            .method(
                method,
                body == null
                    ? HttpRequest.BodyPublishers.noBody()
                    : HttpRequest.BodyPublishers.ofString(body, StandardCharsets.UTF_8));
    headers.properties().forEach(h -> request.header(h.getKey(), h.getValue().asText()));
    return http.send(request.build(), HttpResponse.BodyHandlers.ofString());
  }

  /** RFC 8410: an Ed25519 private key in PKCS#8 is this fixed prefix, then the 32-byte seed. */
  private static byte[] pkcs8(byte[] seed) {
    byte[] prefix = HexFormat.of().parseHex("302e020100300506032b657004220420");
    byte[] out = new byte[prefix.length + seed.length];
    System.arraycopy(prefix, 0, out, 0, prefix.length);
    System.arraycopy(seed, 0, out, prefix.length, seed.length);
    return out;
  }
}
