package dev.asa.signedrequests;

import static dev.asa.signedrequests.HttpTesting.fixedRandom;
import static dev.asa.signedrequests.HttpTesting.key;
import static dev.asa.signedrequests.HttpTesting.lookup;
import static dev.asa.signedrequests.HttpTesting.signature;
import static dev.asa.signedrequests.HttpTesting.utf8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.asa.crypto.Ed25519PrivateKey;
import dev.asa.signedrequests.RequestAuthException.Reason;
import dev.asa.testing.MutableClock;
import java.net.URI;
import java.security.SecureRandom;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import org.assertj.core.api.AbstractThrowableAssert;
import org.junit.jupiter.api.Test;

class RequestSignatureTest {

  private static final Instant NOW = Instant.ofEpochSecond(1_700_000_000);
  private static final Duration SKEW = Duration.ofSeconds(300);
  private static final URI SIGN_A = URI.create("http://127.0.0.1:8080/agreements/asa-1/sign?x=1");
  private static final URI SIGN_B = URI.create("http://127.0.0.1:8080/agreements/asa-2/sign?x=1");
  private static final byte[] BODY = utf8("{\"hello\": \"world\"}");

  private final MutableClock clock = new MutableClock(NOW);
  private final Ed25519PrivateKey alice = key(1);
  private final Ed25519PrivateKey bob = key(2);
  private final RequestSigner signer = new RequestSigner(alice, clock, new SecureRandom());
  private final NonceCache nonces = new NonceCache(clock, SKEW);
  private final RequestVerifier verifier = new RequestVerifier(clock, SKEW, nonces);

  private VerifiedCaller verify(String method, URI uri, Map<String, String> headers, byte[] body) {
    return verifier.verify(method, uri, lookup(headers), body);
  }

  private AbstractThrowableAssert<?, ? extends Throwable> assertRefused(
      String method, URI uri, Map<String, String> headers, byte[] body, Reason reason) {
    return assertThatThrownBy(() -> verify(method, uri, headers, body))
        .isInstanceOfSatisfying(
            RequestAuthException.class, e -> assertThat(e.reason()).isEqualTo(reason));
  }

  private Map<String, String> signed(String method, URI uri, byte[] body) {
    return new HashMap<>(signer.sign(method, uri, body).asMap());
  }

  private String aliceKeyId() {
    return alice.publicKey().toBase64Url();
  }

  // --- round trips ---

  @Test
  void postWithBodyRoundTrips() {
    SignedHeaders headers = signer.sign("POST", SIGN_A, BODY);

    assertThat(headers.contentDigest())
        .isEqualTo("sha-256=:X48E9qOokqqrvdts8nOJRJN3OWDUoyWxBf7kbu9DBPE=:");
    assertThat(headers.signatureInput())
        .matches(
            "sig1=\\(\"@method\" \"@target-uri\" \"content-digest\"\\);created=1700000000"
                + ";nonce=\"[A-Za-z0-9_-]{22}\";keyid=\""
                + aliceKeyId()
                + "\";alg=\"ed25519\"");
    assertThat(headers.signature()).matches("sig1=:[A-Za-z0-9+/]{86}==:");
    assertThat(headers.asMap().keySet())
        .containsExactly("Content-Digest", "Signature-Input", "Signature");

    VerifiedCaller caller = verify("POST", SIGN_A, headers.asMap(), BODY);

    assertThat(caller.key()).isEqualTo(alice.publicKey());
    assertThat(caller.keyId()).isEqualTo(aliceKeyId()).isEqualTo(signer.keyId());
    assertThat(caller.created()).isEqualTo(NOW);
    assertThat(headers.signatureInput()).contains("nonce=\"" + caller.nonce() + "\"");
  }

  @Test
  void getWithQueryAndNoBodyRoundTrips() {
    URI uri = URI.create("https://asa.example:8443/agreements?state=active&limit=10");
    SignedHeaders headers = signer.sign("GET", uri, null);

    assertThat(headers.contentDigest()).isNull();
    assertThat(headers.asMap().keySet()).containsExactly("Signature-Input", "Signature");
    assertThat(headers.signatureInput()).startsWith("sig1=(\"@method\" \"@target-uri\");created=");

    assertThat(verify("GET", uri, headers.asMap(), null).key()).isEqualTo(alice.publicKey());
  }

  @Test
  void anEmptyPathIsSignedAsTheSlashHttpSends() {
    SignedHeaders bare = signer.sign("GET", URI.create("http://127.0.0.1:8080"), null);
    assertThat(verify("GET", URI.create("http://127.0.0.1:8080/"), bare.asMap(), null)).isNotNull();

    SignedHeaders query = signer.sign("GET", URI.create("http://127.0.0.1:8080?x=1"), null);
    assertThat(verify("GET", URI.create("http://127.0.0.1:8080/?x=1"), query.asMap(), null))
        .isNotNull();
  }

  @Test
  void anEmptyBodyIsNoBody() {
    SignedHeaders headers = signer.sign("DELETE", SIGN_A, new byte[0]);

    assertThat(headers.contentDigest()).isNull();
    assertThat(verify("DELETE", SIGN_A, headers.asMap(), null).key()).isEqualTo(alice.publicKey());
  }

  @Test
  void headerNamesAreCaseInsensitiveAndSurroundingSpacesAreIgnored() {
    SignedHeaders headers = signer.sign("POST", SIGN_A, BODY);
    Map<String, String> lower =
        Map.of(
            "content-digest", " " + headers.contentDigest() + " ",
            "signature-input", headers.signatureInput() + " ",
            "SIGNATURE", "\t" + headers.signature());

    assertThat(verify("POST", SIGN_A, lower, BODY).key()).isEqualTo(alice.publicKey());
  }

  @Test
  void theWorkedExampleOfTheJavadoc() {
    // Inputs of the example in RequestSigner's javadoc. The expected signature was computed
    // independently (Python's cryptography package over the base below), not by this code.
    Ed25519PrivateKey key =
        Ed25519PrivateKey.fromSeed(
            HexFormat.of()
                .parseHex("9d61b19deffd5a60ba844af492ec2cc44449c5697b326919703bac031cae7f60"));
    byte[] nonceBytes = new byte[16];
    for (int i = 0; i < 16; i++) {
      nonceBytes[i] = (byte) i;
    }
    RequestSigner exampleSigner = new RequestSigner(key, clock, fixedRandom(nonceBytes));
    String params =
        "(\"@method\" \"@target-uri\" \"content-digest\");created=1700000000"
            + ";nonce=\"AAECAwQFBgcICQoLDA0ODw\""
            + ";keyid=\"11qYAYKxCrfVS_7TyWQHOg7hcvPapiMlrwIaaPcHURo\";alg=\"ed25519\"";
    String expectedBase =
        "\"@method\": POST\n"
            + "\"@target-uri\": http://127.0.0.1:8080/agreements/asa-1/sign?x=1\n"
            + "\"content-digest\": sha-256=:X48E9qOokqqrvdts8nOJRJN3OWDUoyWxBf7kbu9DBPE=:\n"
            + "\"@signature-params\": "
            + params;

    SignedHeaders headers = exampleSigner.sign("POST", SIGN_A, BODY);

    assertThat(headers.contentDigest())
        .isEqualTo("sha-256=:X48E9qOokqqrvdts8nOJRJN3OWDUoyWxBf7kbu9DBPE=:");
    assertThat(headers.signatureInput()).isEqualTo("sig1=" + params);
    assertThat(headers.signature())
        .isEqualTo(
            "sig1=:4Vy+b6p9/w7+ICp8M58ev3FAbD5qwqAmL+6hdptwPq9cHNhOYFmQ9VgHUjMxYxGPpwZKLgiMhAbc2BE8Wm4GAg==:");
    assertThat(key.sign(utf8(expectedBase)).bytes())
        .isEqualTo(
            java.util.Base64.getDecoder()
                .decode(
                    "4Vy+b6p9/w7+ICp8M58ev3FAbD5qwqAmL+6hdptwPq9cHNhOYFmQ9VgHUjMxYxGPpwZKLgiMhAbc2BE8Wm4GAg=="));
    assertThat(verify("POST", SIGN_A, headers.asMap(), BODY).keyId())
        .isEqualTo("11qYAYKxCrfVS_7TyWQHOg7hcvPapiMlrwIaaPcHURo");
  }

  @Test
  void parametersMayComeInAnyOrderAndAreSignedAsSent() {
    String params =
        "(\"@method\" \"@target-uri\");alg=\"ed25519\";keyid=\""
            + aliceKeyId()
            + "\";nonce=\"0123456789abcdefXYZ\";created=1700000000";
    List<SignatureBase.Component> components =
        List.of(
            new SignatureBase.Component("@method", "GET"),
            new SignatureBase.Component("@target-uri", SIGN_A.toString()));
    Map<String, String> headers =
        Map.of(
            "Signature-Input", "sig1=" + params, "Signature", signature(alice, components, params));

    VerifiedCaller caller = verify("GET", SIGN_A, headers, null);

    assertThat(caller.nonce()).isEqualTo("0123456789abcdefXYZ");
    assertThat(caller.key()).isEqualTo(alice.publicKey());
  }

  @Test
  void signerRefusesUrisThatAreNotSentAsIs() {
    assertThatThrownBy(() -> signer.sign("GET", URI.create("/agreements"), null))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("must be absolute");
    assertThatThrownBy(() -> signer.sign("GET", URI.create("http://h/a#frag"), null))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("fragment");
    assertThatThrownBy(() -> signer.sign("GET /x", SIGN_A, null))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("not an HTTP method token");
  }

  @Test
  void verifierRefusesANonceCacheThatForgetsTooSoon() {
    NonceCache short_ = new NonceCache(clock, Duration.ofSeconds(60));
    assertThatThrownBy(() -> new RequestVerifier(clock, SKEW, short_))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("build the NonceCache with the same maxSkew");
    assertThatThrownBy(() -> new RequestVerifier(clock, Duration.ofMillis(1500), nonces))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("whole number of seconds");
  }

  // --- refusals, one per reason ---

  @Test
  void missingHeaders() {
    assertRefused("GET", SIGN_A, Map.of(), null, Reason.MISSING_SIGNATURE)
        .hasMessageContaining("not signed");

    Map<String, String> headers = signed("GET", SIGN_A, null);
    headers.remove("Signature");
    assertRefused("GET", SIGN_A, headers, null, Reason.MISSING_SIGNATURE)
        .hasMessage("the request has a Signature-Input header but no Signature header; send both");

    headers = signed("GET", SIGN_A, null);
    headers.remove("Signature-Input");
    assertRefused("GET", SIGN_A, headers, null, Reason.MISSING_SIGNATURE)
        .hasMessageContaining("no Signature-Input header");
  }

  @Test
  void garbage() {
    Map<String, String> headers = signed("GET", SIGN_A, null);
    headers.put("Signature-Input", "hello world");
    assertRefused("GET", SIGN_A, headers, null, Reason.MALFORMED_SIGNATURE_INPUT)
        .hasMessageContaining("Signature-Input is not valid at character 5");

    headers = signed("GET", SIGN_A, null);
    headers.put("Signature", "sig1=:not base64!:");
    assertRefused("GET", SIGN_A, headers, null, Reason.MALFORMED_SIGNATURE)
        .hasMessageContaining("standard base64");

    headers = signed("GET", SIGN_A, null);
    headers.put("Signature", "sig1=:AAAA:");
    assertRefused("GET", SIGN_A, headers, null, Reason.MALFORMED_SIGNATURE)
        .hasMessage("Signature sig1 holds 3 bytes; an Ed25519 signature is 64");

    headers = signed("GET", SIGN_A, null);
    headers.put("Signature-Input", "sig1=" + "(".repeat(5000));
    assertRefused("GET", SIGN_A, headers, null, Reason.MALFORMED_SIGNATURE_INPUT)
        .hasMessageContaining("5005 characters, over the limit of 4096");

    headers = signed("GET", SIGN_A, null);
    headers.put("Signature-Input", headers.get("Signature-Input").replace(";created", "; created"));
    assertRefused("GET", SIGN_A, headers, null, Reason.MALFORMED_SIGNATURE_INPUT)
        .hasMessageContaining("expected a key");

    headers = signed("GET", SIGN_A, null);
    headers.put("Signature-Input", headers.get("Signature-Input").replace("\" \"", "\"  \""));
    assertRefused("GET", SIGN_A, headers, null, Reason.MALFORMED_SIGNATURE_INPUT)
        .hasMessageContaining("separate items by one space");

    headers = signed("GET", SIGN_A, null);
    headers.put("Signature-Input", headers.get("Signature-Input").replace("created=", "created=0"));
    assertRefused("GET", SIGN_A, headers, null, Reason.MALFORMED_SIGNATURE_INPUT)
        .hasMessageContaining("leading zeros");
  }

  @Test
  void anyLabelIsAcceptedWhenBothHeadersUseIt() {
    Map<String, String> headers = signed("GET", SIGN_A, null);
    headers.replaceAll((name, value) -> value.replace("sig1=", "sig-b26="));
    assertThat(verify("GET", SIGN_A, headers, null).key()).isEqualTo(alice.publicKey());

    headers = signed("GET", SIGN_A, null);
    headers.put("Signature", headers.get("Signature").replace("sig1=", "sig2="));
    assertRefused("GET", SIGN_A, headers, null, Reason.UNKNOWN_LABEL)
        .hasMessage(
            "Signature has no member labelled sig1 (it has sig2); label the signature as its"
                + " Signature-Input");
  }

  @Test
  void theSignatureCoveringTheProfileIsCheckedAndOthersBesideItAreNot() {
    // A proxy's signature first, covering too little, and not verifiable here: ignored.
    Map<String, String> headers = signed("GET", SIGN_A, null);
    headers.put(
        "Signature-Input",
        "proxy=(\"@method\");created=1;keyid=\"x\", " + headers.get("Signature-Input"));
    headers.put("Signature", "proxy=:" + "A".repeat(86) + "==:, " + headers.get("Signature"));
    assertThat(verify("GET", SIGN_A, headers, null).key()).isEqualTo(alice.publicKey());

    // The first that covers the profile is the one checked: a bad one there is refused.
    headers = signed("GET", SIGN_A, null);
    String good = headers.get("Signature-Input").substring("sig1=".length());
    headers.put("Signature-Input", "first=" + good + ", " + headers.get("Signature-Input"));
    headers.put("Signature", "first=:" + "A".repeat(86) + "==:, " + headers.get("Signature"));
    assertRefused("GET", SIGN_A, headers, null, Reason.BAD_SIGNATURE);
  }

  @Test
  void algorithmOtherThanEd25519() {
    Map<String, String> headers = signed("GET", SIGN_A, null);
    headers.put(
        "Signature-Input",
        headers.get("Signature-Input").replace("alg=\"ed25519\"", "alg=\"rsa-pss-sha512\""));
    assertRefused("GET", SIGN_A, headers, null, Reason.UNSUPPORTED_ALGORITHM)
        .hasMessage(
            "Signature-Input has alg=\"rsa-pss-sha512\"; the ASA API accepts only"
                + " alg=\"ed25519\", signed with an Ed25519 key");
  }

  @Test
  void keyIdThatIsNotA32ByteKey() {
    Map<String, String> headers = signed("GET", SIGN_A, null);
    String input = headers.get("Signature-Input");
    headers.put("Signature-Input", input.replace(aliceKeyId(), aliceKeyId().substring(0, 42)));
    assertRefused("GET", SIGN_A, headers, null, Reason.BAD_KEY_ID)
        .hasMessageContaining(
            "must be the unpadded base64url of your raw 32-byte Ed25519 public key");

    headers.put("Signature-Input", input.replace(aliceKeyId(), "test-key-ed25519"));
    assertRefused("GET", SIGN_A, headers, null, Reason.BAD_KEY_ID)
        .hasMessageContaining("32 bytes, got 12");

    headers.put("Signature-Input", input.replace(aliceKeyId(), aliceKeyId() + "="));
    assertRefused("GET", SIGN_A, headers, null, Reason.BAD_KEY_ID)
        .hasMessageContaining("without padding");
  }

  @Test
  void parametersOutsideTheProfile() {
    Map<String, String> headers = signed("GET", SIGN_A, null);
    String input = headers.get("Signature-Input");

    headers.put("Signature-Input", input + ";max-age=300");
    assertRefused("GET", SIGN_A, headers, null, Reason.MALFORMED_SIGNATURE_INPUT)
        .hasMessageContaining("the parameter \"max-age\", which RFC 9421 does not define");

    headers.put("Signature-Input", input.replaceAll(";nonce=\"[^\"]*\"", ""));
    assertRefused("GET", SIGN_A, headers, null, Reason.MALFORMED_SIGNATURE_INPUT)
        .hasMessageContaining("lacks the parameter nonce");

    headers.put("Signature-Input", input.replaceAll("nonce=\"[^\"]*\"", "nonce=\"short\""));
    assertRefused("GET", SIGN_A, headers, null, Reason.MALFORMED_SIGNATURE_INPUT)
        .hasMessageContaining("must be 16 to 128 characters of A-Z a-z 0-9 - _");

    headers.put("Signature-Input", input.replace("created=1700000000", "created=\"1700000000\""));
    assertRefused("GET", SIGN_A, headers, null, Reason.MALFORMED_SIGNATURE_INPUT)
        .hasMessageContaining("created must be an integer");

    headers.put("Signature-Input", input + ";created=1700000000");
    assertRefused("GET", SIGN_A, headers, null, Reason.MALFORMED_SIGNATURE_INPUT)
        .hasMessageContaining("repeats the parameter 'created'");
  }

  @Test
  void componentsInAWrongSet() {
    // Validly signed, so only the component rule can refuse them.
    String keyId = aliceKeyId();
    String tail =
        ";created=1700000000;nonce=\"0123456789abcdef\";keyid=\"" + keyId + "\";alg=\"ed25519\"";
    String digest = ContentDigest.of(BODY);

    String onlyMethod = "(\"@method\")" + tail;
    Map<String, String> headers =
        Map.of(
            "Content-Digest",
            digest,
            "Signature-Input",
            "sig1=" + onlyMethod,
            "Signature",
            signature(alice, List.of(new SignatureBase.Component("@method", "POST")), onlyMethod));
    assertRefused("POST", SIGN_A, headers, BODY, Reason.WRONG_COMPONENTS)
        .hasMessage(
            "no signature in Signature-Input (sig1) covers (\"@method\" \"@target-uri\""
                + " \"content-digest\"), which a request with a body must cover; it covers"
                + " (\"@method\")");

    // A signature made for a body, presented without one: its digest is not the empty content's.
    Map<String, String> withBody = signed("POST", SIGN_A, BODY);
    assertRefused("POST", SIGN_A, withBody, null, Reason.CONTENT_DIGEST_MISMATCH)
        .hasMessageContaining("the body the server received (0 bytes)");

    // A signature made without a body, presented with one: the body would be unsigned.
    Map<String, String> withoutBody = signed("POST", SIGN_A, null);
    assertRefused("POST", SIGN_A, withoutBody, BODY, Reason.WRONG_COMPONENTS);

    String extra = "(\"@method\" \"@target-uri\" \"date\")" + tail;
    headers =
        Map.of("Signature-Input", "sig1=" + extra, "Signature", "sig1=:" + "A".repeat(86) + "==:");
    assertRefused("GET", SIGN_A, headers, null, Reason.WRONG_COMPONENTS)
        .hasMessageContaining("covers the header field \"date\", which the request does not carry");

    for (String odd : List.of("\"@request-target\"", "\"@status\"", "\"@method\"")) {
      String input = "(\"@method\" \"@target-uri\" " + odd + ")" + tail;
      headers =
          Map.of(
              "Signature-Input", "sig1=" + input, "Signature", "sig1=:" + "A".repeat(86) + "==:");
      assertRefused("GET", SIGN_A, headers, null, Reason.WRONG_COMPONENTS);
    }
  }

  @Test
  void componentsMayComeInAnyOrderWithOthersTheSignerChoseToAdd() {
    String tail = ";created=1700000000;nonce=\"0123456789abcdef\";keyid=\"" + aliceKeyId() + "\"";
    String digest = ContentDigest.of(BODY);
    String input =
        "(\"content-type\" \"@target-uri\" \"@authority\" \"@method\" \"@path\" \"@query\""
            + " \"@scheme\" \"content-digest\")"
            + tail;
    Map<String, String> headers =
        Map.of(
            "Content-Type",
            " application/json ",
            "Content-Digest",
            digest,
            "Signature-Input",
            "sig1=" + input,
            "Signature",
            signature(
                alice,
                List.of(
                    new SignatureBase.Component("content-type", "application/json"),
                    new SignatureBase.Component("@target-uri", SIGN_A.toString()),
                    new SignatureBase.Component("@authority", "127.0.0.1:8080"),
                    new SignatureBase.Component("@method", "POST"),
                    new SignatureBase.Component("@path", "/agreements/asa-1/sign"),
                    new SignatureBase.Component("@query", "?x=1"),
                    new SignatureBase.Component("@scheme", "http"),
                    new SignatureBase.Component("content-digest", digest)),
                input));
    assertThat(verify("POST", SIGN_A, headers, BODY).key()).isEqualTo(alice.publicKey());

    // The same signature over another body, or another content type, no longer verifies.
    Map<String, String> otherType = new HashMap<>(headers);
    otherType.put("Content-Type", "text/plain");
    assertRefused("POST", SIGN_A, otherType, BODY, Reason.BAD_SIGNATURE);
  }

  @Test
  void expiresIsEnforcedAndTagAndAnAbsentAlgAreTolerated() {
    String base =
        "(\"@method\" \"@target-uri\");created=1700000000;expires=1700000060"
            + ";nonce=\"0123456789abcdefXYZ\";keyid=\""
            + aliceKeyId()
            + "\";tag=\"my-app\"";
    List<SignatureBase.Component> components =
        List.of(
            new SignatureBase.Component("@method", "GET"),
            new SignatureBase.Component("@target-uri", SIGN_A.toString()));
    Map<String, String> headers =
        Map.of("Signature-Input", "sig1=" + base, "Signature", signature(alice, components, base));

    clock.advance(Duration.ofSeconds(60));
    assertThat(verify("GET", SIGN_A, headers, null).key()).isEqualTo(alice.publicKey());
    clock.advance(Duration.ofSeconds(1));
    assertRefused("GET", SIGN_A, headers, null, Reason.EXPIRED)
        .hasMessageContaining("the signature expired at 1700000060");

    String backwards = base.replace("expires=1700000060", "expires=1699999999");
    assertRefused(
            "GET",
            SIGN_A,
            Map.of(
                "Signature-Input",
                "sig1=" + backwards,
                "Signature",
                signature(alice, components, backwards)),
            null,
            Reason.MALFORMED_SIGNATURE_INPUT)
        .hasMessageContaining("expires=1699999999, before created=1700000000");
  }

  @Test
  void bodyWithoutContentDigest() {
    Map<String, String> headers = signed("POST", SIGN_A, BODY);
    headers.remove("Content-Digest");
    assertRefused("POST", SIGN_A, headers, BODY, Reason.MISSING_CONTENT_DIGEST)
        .hasMessageContaining("has a body but no Content-Digest header");
  }

  @Test
  void bodyAlteredAfterSigning() {
    Map<String, String> headers = signed("POST", SIGN_A, BODY);
    assertRefused(
            "POST",
            SIGN_A,
            headers,
            utf8("{\"hello\": \"mallory\"}"),
            Reason.CONTENT_DIGEST_MISMATCH)
        .hasMessageContaining(
            "Content-Digest does not match the body the server received (20 bytes)");
  }

  @Test
  void digestRecomputedForAnAlteredBodyBreaksTheSignature() {
    Map<String, String> headers = signed("POST", SIGN_A, BODY);
    byte[] altered = utf8("{\"hello\": \"mallory\"}");
    headers.put("Content-Digest", ContentDigest.of(altered));
    assertRefused("POST", SIGN_A, headers, altered, Reason.BAD_SIGNATURE);
  }

  @Test
  void contentDigestOutsideTheProfile() {
    Map<String, String> headers = signed("POST", SIGN_A, BODY);
    headers.put("Content-Digest", "sha-512=:" + "A".repeat(86) + "==:");
    assertRefused("POST", SIGN_A, headers, BODY, Reason.UNSUPPORTED_ALGORITHM)
        .hasMessageContaining(
            "Content-Digest uses the algorithm \"sha-512\"; only sha-256 is accepted");

    headers.put("Content-Digest", "sha-256=X48E9qOokqqrvdts8nOJRJN3OWDUoyWxBf7kbu9DBPE=");
    assertRefused("POST", SIGN_A, headers, BODY, Reason.MALFORMED_CONTENT_DIGEST);

    headers.put("Content-Digest", ContentDigest.of(BODY) + ", sha-512=:" + "A".repeat(86) + "==:");
    assertRefused("POST", SIGN_A, headers, BODY, Reason.MALFORMED_CONTENT_DIGEST)
        .hasMessageContaining("holds 2 digests; send exactly one");
  }

  @Test
  void createdOutsideTheSkewWindow() {
    Map<String, String> old = signed("GET", SIGN_A, null); // created = NOW
    clock.advance(Duration.ofSeconds(301));
    assertRefused("GET", SIGN_A, old, null, Reason.STALE_CREATED)
        .hasMessage(
            "created 1700000000 is 301 s away from the server's clock (limit 300 s); sign with"
                + " the current time, and check that the client's clock is set");
  }

  @Test
  void createdInTheFutureBeyondTheSkewWindow() {
    clock.advance(Duration.ofSeconds(301));
    Map<String, String> future = signed("GET", SIGN_A, null); // created = NOW + 301
    clock.advance(Duration.ofSeconds(-301));
    assertRefused("GET", SIGN_A, future, null, Reason.STALE_CREATED)
        .hasMessageContaining("created 1700000301 is 301 s away from the server's clock");
  }

  @Test
  void createdExactlyAtTheSkewLimitIsAccepted() {
    Map<String, String> old = signed("GET", SIGN_A, null); // created = NOW
    clock.advance(Duration.ofSeconds(300));
    assertThat(verify("GET", SIGN_A, old, null).created()).isEqualTo(NOW);

    clock.advance(Duration.ofSeconds(300));
    Map<String, String> future = signed("GET", SIGN_A, null); // created = NOW + 600
    clock.advance(Duration.ofSeconds(-300));
    assertThat(verify("GET", SIGN_A, future, null).created()).isEqualTo(NOW.plusSeconds(600));
  }

  @Test
  void replayedNonce() {
    Map<String, String> headers = signed("POST", SIGN_A, BODY);
    VerifiedCaller first = verify("POST", SIGN_A, headers, BODY);
    clock.advance(Duration.ofSeconds(299));
    assertRefused("POST", SIGN_A, headers, BODY, Reason.REPLAYED_NONCE)
        .hasMessage(
            "nonce \""
                + first.nonce()
                + "\" was already used with this key; sign every request, retries included, with"
                + " a fresh random nonce");
  }

  @Test
  void theSameNonceFromAnotherKeyIsNotAReplay() {
    RequestSigner bobSigner = new RequestSigner(bob, clock, fixedRandom(new byte[] {7}));
    RequestSigner aliceSigner = new RequestSigner(alice, clock, fixedRandom(new byte[] {7}));
    assertThat(verify("GET", SIGN_A, aliceSigner.sign("GET", SIGN_A, null).asMap(), null).nonce())
        .isEqualTo(
            verify("GET", SIGN_A, bobSigner.sign("GET", SIGN_A, null).asMap(), null).nonce());
  }

  @Test
  void signatureByAnotherKey() {
    Map<String, String> headers = signed("GET", SIGN_A, null);
    String bobKeyId = bob.publicKey().toBase64Url();
    headers.put("Signature-Input", headers.get("Signature-Input").replace(aliceKeyId(), bobKeyId));
    assertRefused("GET", SIGN_A, headers, null, Reason.BAD_SIGNATURE)
        .hasMessage(
            "the signature does not verify with keyid "
                + bobKeyId
                + " for GET http://127.0.0.1:8080/agreements/asa-1/sign?x=1; sign with the private"
                + " key of that keyid, over the method and the exact target URI you send (scheme,"
                + " host, port, path and query), then the Signature-Input text after sig1=");
  }

  @Test
  void signatureForAnotherAgreement() {
    Map<String, String> headers = signed("POST", SIGN_A, BODY);
    assertRefused("POST", SIGN_B, headers, BODY, Reason.BAD_SIGNATURE)
        .hasMessageContaining("for POST http://127.0.0.1:8080/agreements/asa-2/sign?x=1");
    // Nor for another query, host, port or scheme.
    for (String other :
        List.of(
            "http://127.0.0.1:8080/agreements/asa-1/sign?x=2",
            "http://127.0.0.1:8080/agreements/asa-1/sign",
            "http://localhost:8080/agreements/asa-1/sign?x=1",
            "http://127.0.0.1:8081/agreements/asa-1/sign?x=1",
            "https://127.0.0.1:8080/agreements/asa-1/sign?x=1")) {
      assertRefused("POST", URI.create(other), headers, BODY, Reason.BAD_SIGNATURE);
    }
  }

  @Test
  void methodChanged() {
    Map<String, String> headers = signed("POST", SIGN_A, BODY);
    assertRefused("PUT", SIGN_A, headers, BODY, Reason.BAD_SIGNATURE)
        .hasMessageContaining("for PUT http://");
  }

  @Test
  void aForgedRequestDoesNotBurnTheLegitimateNonce() {
    Map<String, String> legitimate = signed("POST", SIGN_A, BODY);
    Map<String, String> forged = new HashMap<>(legitimate);
    byte[] evil = utf8("{\"hello\": \"mallory\"}");
    forged.put("Content-Digest", ContentDigest.of(evil));

    assertRefused("POST", SIGN_A, forged, evil, Reason.BAD_SIGNATURE);
    assertRefused("POST", SIGN_B, legitimate, BODY, Reason.BAD_SIGNATURE);
    assertThat(verify("POST", SIGN_A, legitimate, BODY).key()).isEqualTo(alice.publicKey());
  }

  @Test
  void aFullNonceCacheFailsClosed() {
    NonceCache tiny = new NonceCache(clock, SKEW, 2);
    RequestVerifier tinyVerifier = new RequestVerifier(clock, SKEW, tiny);
    for (int i = 0; i < 2; i++) {
      tinyVerifier.verify("GET", SIGN_A, lookup(signed("GET", SIGN_A, null)), null);
    }
    assertThatThrownBy(
            () -> tinyVerifier.verify("GET", SIGN_A, lookup(signed("GET", SIGN_A, null)), null))
        .isInstanceOfSatisfying(
            RequestAuthException.class,
            e -> assertThat(e.reason()).isEqualTo(Reason.NONCE_CACHE_FULL))
        .hasMessageContaining("retry in a few seconds");
  }

  @Test
  void messagesEscapeControlCharacters() {
    Map<String, String> headers = signed("GET", SIGN_A, null);
    headers.put("Signature-Input", "sig1=(\"@method\"\r\nX-Injected: 1)");
    assertThatThrownBy(() -> verify("GET", SIGN_A, headers, null))
        .isInstanceOf(RequestAuthException.class)
        .hasMessageNotContaining("\r")
        .hasMessageNotContaining("\n")
        .hasMessageContaining("\\u000D");
  }
}
