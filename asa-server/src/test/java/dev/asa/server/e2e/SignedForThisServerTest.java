package dev.asa.server.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import dev.asa.crypto.Ed25519PrivateKey;
import dev.asa.server.AsaServer;
import dev.asa.server.config.PublicUrls;
import dev.asa.server.config.ServerConfig;
import dev.asa.signedrequests.RequestSigner;
import dev.asa.signedrequests.SignedHeaders;
import dev.asa.testing.Fixtures;
import java.net.URI;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.time.Clock;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The authority in a signed request's {@code @target-uri} is the server's, not the client's to
 * choose; and a request carries exactly one signature. Through real HTTP on a raw socket, since a
 * well-behaved client cannot forge Host or repeat header lines.
 */
class SignedForThisServerTest {
  @TempDir Path dataDir;
  AsaServer server;
  String authority;

  static final String PATH = "/agreements?party=did:example:nobody";
  final Ed25519PrivateKey alice = Fixtures.key("alice");

  @BeforeEach
  void start() {
    server = AsaServer.start(config(dataDir));
    authority = "127.0.0.1:" + server.port();
  }

  @AfterEach
  void stop() {
    server.close();
  }

  static ServerConfig config(Path dir) {
    return ServerConfig.defaults().withPort(0).withDataDir(dir).withRateLimit(10_000, 10_000);
  }

  @Test
  void everyLocalhostFormOfTheListenAddressIsAccepted() throws Exception {
    for (String name : List.of("127.0.0.1", "localhost", "[::1]")) {
      String host = name + ":" + server.port();
      RawHttp.Response r =
          RawHttp.send(
              server.port(), RawHttp.signed(alice, "GET", "http://" + host, PATH, host, null));
      assertThat(r.status()).as(host + " " + r.body()).isEqualTo(200);
    }
  }

  @Test
  void aForgedHostWithASignatureForIt() throws Exception {
    RawHttp.Response r =
        RawHttp.send(
            server.port(),
            RawHttp.signed(alice, "GET", "http://evil.example", PATH, "evil.example", null));
    assertThat(r.status()).isEqualTo(401);
    assertThat(r.reason()).isEqualTo("wrong_server");
    assertThat(r.detail())
        .contains("signed for http://evil.example")
        .contains(
            "this server is http://127.0.0.1:"
                + server.port()
                + ", http://localhost:"
                + server.port());
    assertThat(r.head()).contains("WWW-Authenticate: Signature");
  }

  @Test
  void aRequestSignedForServerAReplayedToServerBIsRefused() throws Exception {
    try (AsaServer b = AsaServer.start(config(dataDir.resolve("b")))) {
      byte[] forA = RawHttp.signed(alice, "GET", "http://" + authority, PATH, authority, null);
      RawHttp.Response atB = RawHttp.send(b.port(), forA);
      assertThat(atB.status()).isEqualTo(401);
      assertThat(atB.reason()).isEqualTo("wrong_server");
      assertThat(atB.detail())
          .contains("signed for http://" + authority)
          .contains("http://127.0.0.1:" + b.port());
      // Still unused at A: B refused it before looking at the signature or the nonce.
      assertThat(RawHttp.send(server.port(), forA).status()).isEqualTo(200);
    }
  }

  @Test
  void behindATlsProxyTheClientSignsThePublicHttpsUrl() throws Exception {
    server.close();
    server =
        AsaServer.start(
            config(dataDir)
                .withPublicUrls(
                    new PublicUrls(
                        List.of(
                            URI.create("https://asa.example.com"),
                            URI.create("http://127.0.0.1:9")))));
    // The proxy forwards Host: asa.example.com over plain http; the client signed the https URL.
    RawHttp.Response viaProxy =
        RawHttp.send(
            server.port(),
            RawHttp.signed(alice, "GET", "https://asa.example.com", PATH, "asa.example.com", null));
    assertThat(viaProxy.status()).isEqualTo(200);
    // A signature for the http URL of the same host does not verify: the scheme is the server's.
    RawHttp.Response wrongScheme =
        RawHttp.send(
            server.port(),
            RawHttp.signed(alice, "GET", "http://asa.example.com", PATH, "asa.example.com", null));
    assertThat(wrongScheme.status()).isEqualTo(401);
    assertThat(wrongScheme.reason()).isEqualTo("bad_signature");
    // The listen address is no longer one of its URLs once public URLs are given.
    String local = "127.0.0.1:" + server.port();
    RawHttp.Response direct =
        RawHttp.send(
            server.port(), RawHttp.signed(alice, "GET", "http://" + local, PATH, local, null));
    assertThat(direct.status()).isEqualTo(401);
    assertThat(direct.reason()).isEqualTo("wrong_server");
    assertThat(direct.detail())
        .contains("this server is https://asa.example.com, http://127.0.0.1:9");
  }

  @Test
  void twoSignatureInputLinesAreRefused() throws Exception {
    URI uri = URI.create("http://" + authority + PATH);
    SignedHeaders good = sign(uri);
    SignedHeaders other = sign(uri);
    Map<String, String> headers = new LinkedHashMap<>(good.asMap());
    RawHttp.Response r =
        RawHttp.send(
            server.port(),
            RawHttp.request(
                "GET",
                PATH,
                authority,
                headers,
                List.of("Signature-Input: " + other.signatureInput()),
                null));
    assertThat(r.status()).isEqualTo(401);
    assertThat(r.reason()).isEqualTo("malformed_signature_input");
    assertThat(r.detail()).contains("names the member 'sig1' twice");
  }

  @Test
  void twoSignatureLinesAreRefused() throws Exception {
    URI uri = URI.create("http://" + authority + PATH);
    SignedHeaders good = sign(uri);
    SignedHeaders forged = sign(uri);
    RawHttp.Response r =
        RawHttp.send(
            server.port(),
            RawHttp.request(
                "GET",
                PATH,
                authority,
                good.asMap(),
                List.of("Signature: " + forged.signature()),
                null));
    assertThat(r.status()).isEqualTo(401);
    assertThat(r.reason()).isEqualTo("malformed_signature");
  }

  @Test
  void oneFieldWithTwoSignaturesChecksTheFirstThatCoversTheProfile() throws Exception {
    // RFC 9421 lets a message carry several signatures (a proxy may add its own); the server
    // checks the first that covers what its profile requires, and only that one.
    URI uri = URI.create("http://" + authority + PATH);
    SignedHeaders good = sign(uri);
    Map<String, String> headers = new LinkedHashMap<>(good.asMap());
    headers.put(
        "Signature-Input",
        good.signatureInput() + ", " + good.signatureInput().replaceFirst("^sig1=", "sig2="));
    headers.put("Signature", good.signature() + ", sig2=:" + "A".repeat(86) + "==:");
    RawHttp.Response r =
        RawHttp.send(
            server.port(), RawHttp.request("GET", PATH, authority, headers, List.of(), null));
    assertThat(r.status()).isEqualTo(200);

    // The other order: the first is checked, and it does not verify.
    SignedHeaders again = sign(uri);
    headers = new LinkedHashMap<>(again.asMap());
    headers.put(
        "Signature-Input",
        again.signatureInput().replaceFirst("^sig1=", "sig0=") + ", " + again.signatureInput());
    headers.put("Signature", "sig0=:" + "A".repeat(86) + "==:, " + again.signature());
    r =
        RawHttp.send(
            server.port(), RawHttp.request("GET", PATH, authority, headers, List.of(), null));
    assertThat(r.status()).isEqualTo(401);
    assertThat(r.reason()).isEqualTo("bad_signature");
  }

  private SignedHeaders sign(URI uri) {
    return new RequestSigner(alice, Clock.systemUTC(), new SecureRandom()).sign("GET", uri, null);
  }
}
