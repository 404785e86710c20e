package dev.asa.server.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.asa.agreement.Role;
import dev.asa.client.AsaClient;
import dev.asa.crypto.Ed25519PrivateKey;
import dev.asa.json.Json;
import dev.asa.server.AsaServer;
import dev.asa.server.config.ServerConfig;
import dev.asa.signedrequests.RequestSigner;
import dev.asa.signedrequests.SignedHeaders;
import dev.asa.testing.Fixtures;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.time.Clock;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The attacks of the threat model through real HTTP. Each is refused, and the agreement's state,
 * version and event log are exactly as before.
 */
class AttackTest {
  @TempDir Path dataDir;
  AsaServer server;
  AsaClient anonymous;
  final HttpClient http = HttpClient.newHttpClient();
  String id;
  JsonNode before;

  @BeforeEach
  void start() {
    server =
        AsaServer.start(
            ServerConfig.defaults().withPort(0).withDataDir(dataDir).withRateLimit(10_000, 10_000));
    anonymous = AsaClient.connect(URI.create(server.url("127.0.0.1")));
    id = as("alice").createAgreement(Fixtures.general()).path("agreement_id").asText();
    as("alice").sign(id, Role.CLIENT, Fixtures.key("alice"));
    as("bob").sign(id, Role.PROVIDER, Fixtures.key("bob"));
    before = snapshot(id);
  }

  @AfterEach
  void stop() {
    assertThat(snapshot(id)).as("state and event log unchanged").isEqualTo(before);
    server.close();
  }

  AsaClient as(String who) {
    return anonymous.withKey(Fixtures.key(who));
  }

  JsonNode snapshot(String agreement) {
    ObjectNode s = Json.object();
    s.set("agreement", as("alice").agreement(agreement));
    s.set("events", as("alice").events(agreement));
    return s;
  }

  URI uri(String path) {
    return URI.create(server.url("127.0.0.1") + path);
  }

  HttpResponse<String> send(String method, URI uri, byte[] body, Map<String, String> headers)
      throws Exception {
    HttpRequest.Builder b =
        HttpRequest.newBuilder(uri)
            .method(
                method,
                body == null
                    ? HttpRequest.BodyPublishers.noBody()
                    : HttpRequest.BodyPublishers.ofByteArray(body));
    headers.forEach(b::header);
    return http.send(b.build(), HttpResponse.BodyHandlers.ofString());
  }

  static SignedHeaders sign(
      Ed25519PrivateKey key, Clock clock, String method, URI uri, byte[] body) {
    return new RequestSigner(key, clock, new SecureRandom()).sign(method, uri, body);
  }

  byte[] deliverBody() {
    return "{\"content\":\"# Swapped\\n\",\"format\":\"markdown\"}"
        .getBytes(StandardCharsets.UTF_8);
  }

  String reason(HttpResponse<String> r) throws Exception {
    return Json.parse(r.body()).path("reason").asText();
  }

  @Test
  void aMalleatedCopyOfARealSignatureIsRefused() throws Exception {
    // Bob's real signature with S replaced by S + L: the same curve equation, other bytes. A
    // verifier that took it would let anyone who saw one request send a "new" one past the nonce
    // fingerprint of the signature bytes; both libsodium and BouncyCastle refuse it.
    URI u = uri("/agreements/" + id + "/deliver");
    SignedHeaders real = sign(Fixtures.key("bob"), Clock.systemUTC(), "POST", u, deliverBody());
    java.util.regex.Matcher m =
        java.util.regex.Pattern.compile("^([^=]+)=:([^:]+):$").matcher(real.signature());
    assertThat(m.matches()).as(real.signature()).isTrue();
    byte[] sig = java.util.Base64.getDecoder().decode(m.group(2));
    java.math.BigInteger order =
        java.math.BigInteger.TWO
            .pow(252)
            .add(new java.math.BigInteger("27742317777372353535851937790883648493"));
    byte[] le = java.util.Arrays.copyOfRange(sig, 32, 64);
    byte[] be = new byte[32];
    for (int i = 0; i < 32; i++) {
      be[i] = le[31 - i];
    }
    byte[] bigger = new java.math.BigInteger(1, be).add(order).toByteArray();
    for (int i = 0; i < 32; i++) {
      sig[32 + i] = i < bigger.length ? bigger[bigger.length - 1 - i] : 0;
    }
    String malleated = m.group(1) + "=:" + java.util.Base64.getEncoder().encodeToString(sig) + ":";
    HttpResponse<String> r =
        send(
            "POST",
            u,
            deliverBody(),
            Map.of(
                "Content-Digest",
                real.contentDigest(),
                "Signature-Input",
                real.signatureInput(),
                "Signature",
                malleated));
    assertThat(r.statusCode()).isEqualTo(401);
    assertThat(reason(r)).isEqualTo("bad_signature");
  }

  @Test
  void aForgedSignatureIsRefused() throws Exception {
    URI u = uri("/agreements/" + id + "/deliver");
    SignedHeaders real = sign(Fixtures.key("bob"), Clock.systemUTC(), "POST", u, deliverBody());
    // Mallory signs with her key but claims bob's keyid.
    SignedHeaders forged =
        sign(Fixtures.key("mallory"), Clock.systemUTC(), "POST", u, deliverBody());
    String input =
        forged
            .signatureInput()
            .replaceAll(
                "keyid=\"[^\"]+\"",
                "keyid=\"" + Fixtures.key("bob").publicKey().toBase64Url() + "\"");
    HttpResponse<String> r =
        send(
            "POST",
            u,
            deliverBody(),
            Map.of(
                "Content-Digest",
                real.contentDigest(),
                "Signature-Input",
                input,
                "Signature",
                forged.signature()));
    assertThat(r.statusCode()).isEqualTo(401);
    assertThat(reason(r)).isEqualTo("bad_signature");
  }

  @Test
  void aSignatureByTheOtherPartyGetsForbidden() throws Exception {
    URI u = uri("/agreements/" + id + "/deliver");
    HttpResponse<String> r =
        send(
            "POST",
            u,
            deliverBody(),
            sign(Fixtures.key("alice"), Clock.systemUTC(), "POST", u, deliverBody()).asMap());
    assertThat(r.statusCode()).isEqualTo(403);
  }

  @Test
  void aReplayedRequestIsRefused() throws Exception {
    URI u = uri("/agreements/" + id + "/status");
    Map<String, String> headers =
        sign(Fixtures.key("alice"), Clock.systemUTC(), "GET", u, null).asMap();
    assertThat(send("GET", u, null, headers).statusCode()).isEqualTo(200);
    HttpResponse<String> again = send("GET", u, null, headers);
    assertThat(again.statusCode()).isEqualTo(401);
    assertThat(reason(again)).isEqualTo("replayed_nonce");
  }

  @Test
  void anExpiredCreatedIsRefused() throws Exception {
    URI u = uri("/agreements/" + id + "/deliver");
    Clock old = Clock.offset(Clock.systemUTC(), Duration.ofSeconds(-301));
    HttpResponse<String> r =
        send(
            "POST",
            u,
            deliverBody(),
            sign(Fixtures.key("bob"), old, "POST", u, deliverBody()).asMap());
    assertThat(r.statusCode()).isEqualTo(401);
    assertThat(reason(r)).isEqualTo("stale_created");
    assertThat(Json.parse(r.body()).path("detail").asText()).contains("300 s");
  }

  @Test
  void aBodyAlteredAfterSigningIsRefused() throws Exception {
    URI u = uri("/agreements/" + id + "/deliver");
    Map<String, String> headers =
        sign(Fixtures.key("bob"), Clock.systemUTC(), "POST", u, deliverBody()).asMap();
    byte[] altered =
        "{\"content\":\"# Altered\\n\",\"format\":\"markdown\"}".getBytes(StandardCharsets.UTF_8);
    HttpResponse<String> r = send("POST", u, altered, headers);
    assertThat(r.statusCode()).isEqualTo(401);
    assertThat(reason(r)).isEqualTo("content_digest_mismatch");
  }

  @Test
  void aSignatureForAgreementAPresentedForAgreementBIsRefused() throws Exception {
    String other = as("alice").createAgreement(Fixtures.general()).path("agreement_id").asText();
    URI forOther = uri("/agreements/" + other + "/deliver");
    Map<String, String> headers =
        sign(Fixtures.key("bob"), Clock.systemUTC(), "POST", forOther, deliverBody()).asMap();
    HttpResponse<String> r =
        send("POST", uri("/agreements/" + id + "/deliver"), deliverBody(), headers);
    assertThat(r.statusCode()).isEqualTo(401);
    assertThat(reason(r)).isEqualTo("bad_signature");
    // And an agreement signature made for the other agreement does not sign this one.
    String otherHash = as("alice").agreement(other).path("agreement_hash").asText();
    String sig =
        Fixtures.key("alice").sign(otherHash.getBytes(StandardCharsets.UTF_8)).toBase64Url();
    String fresh = as("alice").createAgreement(Fixtures.general()).path("agreement_id").asText();
    ObjectNode body = Json.object().put("party", "client");
    body.putObject("signature").put("scheme", "ed25519").put("value", sig);
    URI signUri = uri("/agreements/" + fresh + "/sign");
    byte[] bytes = Json.writeBytes(body);
    assertThat(
            send(
                    "POST",
                    signUri,
                    bytes,
                    sign(Fixtures.key("alice"), Clock.systemUTC(), "POST", signUri, bytes).asMap())
                .statusCode())
        .isEqualTo(422);
  }

  @Test
  void aStrangerProbingIdsLearnsNothing() throws Exception {
    for (String probe : new String[] {id, "asa-does-not-exist"}) {
      URI u = uri("/agreements/" + probe);
      HttpResponse<String> r =
          send(
              "GET",
              u,
              null,
              sign(Fixtures.key("mallory"), Clock.systemUTC(), "GET", u, null).asMap());
      assertThat(r.statusCode()).isEqualTo(404);
      assertThat(Json.parse(r.body()).path("detail").asText())
          .isEqualTo("no agreement with id '" + probe + "'");
    }
  }

  @Test
  void aKeyOverItsRateLimitGets429WithRetryAfter() throws Exception {
    server.close();
    server =
        AsaServer.start(
            ServerConfig.defaults().withPort(0).withDataDir(dataDir).withRateLimit(1, 3));
    anonymous = AsaClient.connect(URI.create(server.url("127.0.0.1")));
    URI u = uri("/agreements/" + id + "/status");
    int limited = 0;
    String retryAfter = null;
    for (int i = 0; i < 6; i++) {
      HttpResponse<String> r =
          send(
              "GET",
              u,
              null,
              sign(Fixtures.key("mallory"), Clock.systemUTC(), "GET", u, null).asMap());
      if (r.statusCode() == 429) {
        limited++;
        retryAfter = r.headers().firstValue("Retry-After").orElse(null);
      }
    }
    assertThat(limited).isGreaterThanOrEqualTo(2);
    assertThat(retryAfter).isNotNull();
    server.close();
    server =
        AsaServer.start(
            ServerConfig.defaults().withPort(0).withDataDir(dataDir).withRateLimit(10_000, 10_000));
    anonymous = AsaClient.connect(URI.create(server.url("127.0.0.1")));
  }
}
