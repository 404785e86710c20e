package dev.asa.signedrequests;

import dev.asa.crypto.Base64Url;
import dev.asa.crypto.Ed25519PrivateKey;
import java.net.URI;
import java.security.SecureRandom;
import java.time.Clock;
import java.util.Base64;
import java.util.List;
import java.util.Objects;
import java.util.function.Function;

/**
 * Signs ASA HTTP API requests with the caller's Ed25519 key: an RFC 9421 HTTP Message Signature in
 * the fixed profile below, which {@link RequestVerifier} checks on the server.
 *
 * <h2>The profile, for client authors in any language</h2>
 *
 * <p>Every non-public request carries these headers (a request has a body when it has at least one
 * byte of content):
 *
 * <pre>
 * Content-Digest: sha-256=:&lt;standard base64 of SHA-256(body)&gt;:              (body only)
 * Signature-Input: sig1=("@method" "@target-uri" "content-digest");created=&lt;unix seconds&gt;;nonce="&lt;nonce&gt;";keyid="&lt;keyid&gt;";alg="ed25519"
 * Signature-Input: sig1=("@method" "@target-uri");created=&lt;unix seconds&gt;;nonce="&lt;nonce&gt;";keyid="&lt;keyid&gt;";alg="ed25519"   (no body)
 * Signature: sig1=:&lt;standard base64 of the 64-byte Ed25519 signature&gt;:
 * </pre>
 *
 * <ul>
 *   <li>{@code created}: the current time in whole seconds since the Unix epoch, no leading zeros.
 *       The server refuses a value more than 300 s from its own clock, either way.
 *   <li>{@code nonce}: 16 to 128 characters of {@code A-Z a-z 0-9 - _}, fresh and random for every
 *       request, retries included (this signer sends 16 random bytes as 22 base64url characters).
 *       The server refuses a (keyid, nonce) pair it has already accepted, for as long as a request
 *       carrying it could still pass the {@code created} check.
 *   <li>{@code keyid}: the raw 32-byte Ed25519 public key as base64url without padding (43
 *       characters). The key identifies the caller; there is no registration step in this layer.
 *   <li>Base64 in {@code :...:} is the standard alphabet with {@code =} padding.
 *   <li>Write the headers in RFC 8941 canonical form, exactly as above: no spaces except one
 *       between list items, no leading zeros, no other parameters (no {@code expires}, no {@code
 *       tag}), and the components in the order shown. The four parameters may come in any order;
 *       the server signs them as received.
 *   <li>The label is always {@code sig1}, and there is exactly one signature.
 * </ul>
 *
 * <p>The signature base (RFC 9421 section 2.5) has one line per covered component, in the order of
 * the list, then the {@code @signature-params} line; lines are joined by {@code \n} (LF) with no
 * trailing newline:
 *
 * <pre>
 * "@method": &lt;method in upper case&gt;
 * "@target-uri": &lt;the absolute URI the request is sent to, as sent&gt;
 * "content-digest": &lt;the Content-Digest value, as sent&gt;        (body only)
 * "@signature-params": &lt;Signature-Input after "sig1=", character for character&gt;
 * </pre>
 *
 * <p>The {@code Signature} is the Ed25519 (RFC 8032, pure) signature of the UTF-8 bytes of that
 * base. The target URI is the full URI the client used, including scheme, host, any port and the
 * query: for example {@code http://127.0.0.1:8080/agreements/asa-1/sign?x=1}. It is compared as
 * text, with no normalization except that an empty path is written {@code /} (as HTTP sends it): so
 * percent-encode exactly as the HTTP client will, and write the port only if the server's public
 * base URI has it. A client behind a proxy that rewrites the URI must sign the URI the server will
 * see.
 *
 * <h2>A worked example</h2>
 *
 * <p>Key seed (hex) {@code 9d61b19deffd5a60ba844af492ec2cc44449c5697b326919703bac031cae7f60} (RFC
 * 8032 test 1), so keyid {@code 11qYAYKxCrfVS_7TyWQHOg7hcvPapiMlrwIaaPcHURo}; {@code POST
 * http://127.0.0.1:8080/agreements/asa-1/sign?x=1} with body {@code {"hello": "world"}} at created
 * {@code 1700000000} with nonce {@code AAECAwQFBgcICQoLDA0ODw}. The signature base is:
 *
 * <pre>
 * "@method": POST
 * "@target-uri": http://127.0.0.1:8080/agreements/asa-1/sign?x=1
 * "content-digest": sha-256=:X48E9qOokqqrvdts8nOJRJN3OWDUoyWxBf7kbu9DBPE=:
 * "@signature-params": ("@method" "@target-uri" "content-digest");created=1700000000;nonce="AAECAwQFBgcICQoLDA0ODw";keyid="11qYAYKxCrfVS_7TyWQHOg7hcvPapiMlrwIaaPcHURo";alg="ed25519"
 * </pre>
 *
 * <p>and the headers are:
 *
 * <pre>
 * Content-Digest: sha-256=:X48E9qOokqqrvdts8nOJRJN3OWDUoyWxBf7kbu9DBPE=:
 * Signature-Input: sig1=("@method" "@target-uri" "content-digest");created=1700000000;nonce="AAECAwQFBgcICQoLDA0ODw";keyid="11qYAYKxCrfVS_7TyWQHOg7hcvPapiMlrwIaaPcHURo";alg="ed25519"
 * Signature: sig1=:4Vy+b6p9/w7+ICp8M58ev3FAbD5qwqAmL+6hdptwPq9cHNhOYFmQ9VgHUjMxYxGPpwZKLgiMhAbc2BE8Wm4GAg==:
 * </pre>
 *
 * <p>Instances are immutable and thread-safe if the {@link SecureRandom} is (the JDK's are).
 */
public final class RequestSigner {

  private static final int NONCE_BYTES = 16;

  private final Ed25519PrivateKey key;
  private final String keyId;
  private final Clock clock;
  private final SecureRandom random;

  /**
   * @param key the caller's key; its public half becomes the {@code keyid}
   * @param clock the source of {@code created}; {@link Clock#systemUTC()} outside tests
   * @param random the source of nonces; a {@code new SecureRandom()} outside tests
   */
  public RequestSigner(Ed25519PrivateKey key, Clock clock, SecureRandom random) {
    this.key = Objects.requireNonNull(key, "key");
    this.clock = Objects.requireNonNull(clock, "clock");
    this.random = Objects.requireNonNull(random, "random");
    this.keyId = key.publicKey().toBase64Url();
  }

  /** The {@code keyid} this signer sends: its public key as unpadded base64url. */
  public String keyId() {
    return keyId;
  }

  /** The profile's components are derived or the digest: no other header field is signed. */
  private static final Function<String, String> NO_HEADERS = name -> null;

  /**
   * Signs one request. Call it for every request, retries included: each signature carries a fresh
   * nonce, and the server accepts each nonce once.
   *
   * @param method the HTTP method, such as {@code "POST"} (sent upper case)
   * @param targetUri the absolute URI the request goes to, exactly as the HTTP client will send it
   * @param body the request content, or null or empty for a request without a body; it must be the
   *     exact bytes sent
   * @return the headers to add
   * @throws IllegalArgumentException if the method is not an HTTP token or the URI is not an
   *     absolute http(s) URI without fragment and user info
   */
  public SignedHeaders sign(String method, URI targetUri, byte[] body) {
    String methodValue = SignatureProfile.methodValue(method);
    SignatureProfile.targetUriValue(targetUri); // refuses a URI a request cannot be sent to
    boolean hasBody = SignatureProfile.hasBody(body);
    String contentDigest = hasBody ? ContentDigest.of(body) : null;

    byte[] nonceBytes = new byte[NONCE_BYTES];
    random.nextBytes(nonceBytes);
    String nonce = Base64Url.encode(nonceBytes);
    long created = clock.instant().getEpochSecond();

    List<String> covered = SignatureProfile.coveredComponents(hasBody);
    String params = SignatureProfile.serializeParams(covered, created, nonce, keyId);
    SignatureBase base =
        SignatureBase.of(
            SignatureProfile.components(covered, methodValue, targetUri, NO_HEADERS, contentDigest),
            params);
    byte[] signature = key.sign(base.utf8()).bytes();
    return new SignedHeaders(
        contentDigest,
        SignatureProfile.LABEL + "=" + params,
        SignatureProfile.LABEL + "=:" + Base64.getEncoder().encodeToString(signature) + ":");
  }
}
