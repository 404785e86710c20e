package dev.asa.signedrequests;

import dev.asa.crypto.Ed25519PublicKey;
import dev.asa.crypto.Ed25519Signature;
import dev.asa.signedrequests.RequestAuthException.Reason;
import java.net.URI;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Objects;
import java.util.function.Function;

/**
 * Checks the RFC 9421 signature of an ASA HTTP API request, in the profile described in {@link
 * RequestSigner}, and says which key made it.
 *
 * <p>The checks run cheapest first, and the nonce is recorded only after the signature verified, so
 * a forged request can never use up a legitimate caller's nonce:
 *
 * <ol>
 *   <li>both Signature-Input and Signature are present and at most 4096 characters;
 *   <li>both parse as the profile's RFC 8941 subset; the signature checked is the first
 *       Signature-Input member, whatever its label, that covers the profile's components for a
 *       request with or without body (in any order, others beside them allowed), with the Signature
 *       member of the same label;
 *   <li>its parameters are created, nonce and keyid, and optionally expires, alg (then {@code
 *       "ed25519"}) and tag, in any order, with a keyid that decodes to a 32-byte key and a
 *       well-formed nonce;
 *   <li>{@code created} is at most {@code maxSkew} from the server's clock, either way, and {@code
 *       expires}, when sent, has not passed;
 *   <li>for a body, or a covered content-digest, Content-Digest is present, well formed, and
 *       matches the body received (the empty one when there is none);
 *   <li>every covered component can be derived: a header field it names is present;
 *   <li>the Ed25519 signature verifies over the signature base the server rebuilds;
 *   <li>the (keyid, nonce) pair is new, recorded atomically.
 * </ol>
 *
 * <p>Anything a client sends yields either a {@link VerifiedCaller} or a {@link
 * RequestAuthException}; nothing else escapes for bad input. The method, target URI and header
 * lookup come from the server itself: the target URI must be the absolute URI the client used
 * (scheme, host and port as the client saw them, path and query as received), so a server behind a
 * proxy must rebuild it from its configured public base URI. Thread-safe.
 */
public final class RequestVerifier {

  /** The skew the ASA profile allows between {@code created} and the server's clock. */
  public static final Duration DEFAULT_MAX_SKEW = Duration.ofSeconds(300);

  private static final Duration LONGEST_SKEW = Duration.ofHours(1);

  private final Clock clock;
  private final long maxSkewSeconds;
  private final NonceRegistry nonces;

  /**
   * @param clock the server's clock
   * @param maxSkew the largest distance allowed between {@code created} and the clock, either way;
   *     {@link #DEFAULT_MAX_SKEW} unless there is a reason
   * @param nonces where used nonces are remembered (a {@link NonceCache}, or one layered over a
   *     shared registry); built with at least this {@code maxSkew}
   * @throws IllegalArgumentException if {@code nonces} would forget nonces while requests that
   *     carry them are still accepted
   */
  public RequestVerifier(Clock clock, Duration maxSkew, NonceRegistry nonces) {
    this.clock = Objects.requireNonNull(clock, "clock");
    this.maxSkewSeconds = checkSkew(maxSkew).toSeconds();
    this.nonces = Objects.requireNonNull(nonces, "nonces");
    if (nonces.maxSkew().compareTo(maxSkew) < 0) {
      throw new IllegalArgumentException(
          "the nonce cache was built for a skew of "
              + nonces.maxSkew().toSeconds()
              + " s but this verifier accepts "
              + maxSkew.toSeconds()
              + " s, so a replay could arrive after its nonce is forgotten; build the NonceCache"
              + " with the same maxSkew");
    }
  }

  static Duration checkSkew(Duration maxSkew) {
    Objects.requireNonNull(maxSkew, "maxSkew");
    if (maxSkew.isNegative()
        || maxSkew.isZero()
        || maxSkew.getNano() != 0
        || maxSkew.compareTo(LONGEST_SKEW) > 0) {
      throw new IllegalArgumentException(
          "maxSkew must be a whole number of seconds between 1 s and 1 h (created has one-second"
              + " precision), got "
              + maxSkew);
    }
    return maxSkew;
  }

  /**
   * Verifies one request.
   *
   * @param method the request method as received, such as {@code "POST"}
   * @param targetUri the absolute URI the client sent the request to
   * @param header looks up a request header by name, case-insensitively; returns null when the
   *     header is absent, and joins repeated headers with {@code ", "}
   * @param body the request content as received, or null or empty for none
   * @return the verified caller
   * @throws RequestAuthException if the request is not signed as the profile requires; its reason
   *     says which check failed and its message what to fix
   * @throws IllegalArgumentException if {@code method} or {@code targetUri} is not valid, which is
   *     a bug in the server rather than a bad request
   */
  public VerifiedCaller verify(
      String method, URI targetUri, Function<String, String> header, byte[] body) {
    String methodValue = SignatureProfile.methodValue(method);
    String uriValue = SignatureProfile.targetUriValue(targetUri);
    Objects.requireNonNull(header, "header");
    boolean hasBody = SignatureProfile.hasBody(body);

    String inputHeader = header.apply(SignatureProfile.SIGNATURE_INPUT);
    String signatureHeader = header.apply(SignatureProfile.SIGNATURE);
    if (inputHeader == null && signatureHeader == null) {
      throw new RequestAuthException(
          Reason.MISSING_SIGNATURE,
          "the request is not signed: send Signature-Input and Signature headers (RFC 9421 with"
              + " your Ed25519 key, as described for the ASA API)");
    }
    if (inputHeader == null || signatureHeader == null) {
      throw new RequestAuthException(
          Reason.MISSING_SIGNATURE,
          "the request has a "
              + (inputHeader == null ? "Signature" : "Signature-Input")
              + " header but no "
              + (inputHeader == null ? "Signature-Input" : "Signature")
              + " header; send both");
    }
    checkLength(SignatureProfile.SIGNATURE_INPUT, inputHeader, Reason.MALFORMED_SIGNATURE_INPUT);
    checkLength(SignatureProfile.SIGNATURE, signatureHeader, Reason.MALFORMED_SIGNATURE);

    List<StructuredFields.Member> inputs =
        StructuredFields.parseDictionary(
            SignatureProfile.SIGNATURE_INPUT, Reason.MALFORMED_SIGNATURE_INPUT, inputHeader);
    List<StructuredFields.Member> signatures =
        StructuredFields.parseDictionary(
            SignatureProfile.SIGNATURE, Reason.MALFORMED_SIGNATURE, signatureHeader);
    StructuredFields.Member input = chosenInput(inputs, hasBody);
    Ed25519Signature signature = parseSignature(input.key(), signatures);
    Params params = Params.of(input);
    List<String> covered = ((StructuredFields.InnerList) input.value()).strings();

    long distance = Math.abs(clock.instant().getEpochSecond() - params.created());
    if (distance > maxSkewSeconds) {
      throw new RequestAuthException(
          Reason.STALE_CREATED,
          "created "
              + params.created()
              + " is "
              + distance
              + " s away from the server's clock (limit "
              + maxSkewSeconds
              + " s); sign with the current time, and check that the client's clock is set");
    }
    if (params.expires() != null && clock.instant().getEpochSecond() > params.expires()) {
      throw new RequestAuthException(
          Reason.EXPIRED,
          "the signature expired at "
              + params.expires()
              + " (expires), before the server received it; sign again, with a later expires");
    }

    String contentDigest = null;
    // A covered Content-Digest must describe what arrived: with no body, the empty content. So a
    // signed request cannot lose its body on the way and still verify.
    if (hasBody || covered.contains(ContentDigest.COMPONENT)) {
      contentDigest = header.apply(ContentDigest.HEADER);
      if (contentDigest != null) {
        // RFC 9421 section 2.1: a header's component value is its field value without leading
        // and trailing whitespace (SP and HTAB only; anything else is left for the parser to
        // refuse).
        contentDigest = SignatureProfile.trimOws(contentDigest);
      }
      byte[] received = hasBody ? body : new byte[0];
      if (!ContentDigest.matches(contentDigest, received)) {
        throw new RequestAuthException(
            Reason.CONTENT_DIGEST_MISMATCH,
            "Content-Digest does not match the body the server received ("
                + received.length
                + " bytes); compute it over the exact bytes sent, after any compression or"
                + " encoding, and do not change the body after signing");
      }
    }

    SignatureBase base =
        SignatureBase.of(
            SignatureProfile.components(covered, methodValue, targetUri, header, contentDigest),
            input.rawValue());
    if (!params.key().verify(base.utf8(), signature)) {
      throw new RequestAuthException(
          Reason.BAD_SIGNATURE,
          "the signature does not verify with keyid "
              + params.keyId()
              + " for "
              + methodValue
              + " "
              + abbreviate(uriValue)
              + "; sign with the private key of that keyid, over the method and the exact"
              + " target URI you send (scheme, host, port, path and query)"
              + (hasBody ? " and the Content-Digest header value" : "")
              + ", then the Signature-Input text after "
              + input.key()
              + "=");
    }

    if (!nonces.firstUse(params.keyId(), params.nonce(), Instant.ofEpochSecond(params.created()))) {
      throw new RequestAuthException(
          Reason.REPLAYED_NONCE,
          "nonce \""
              + params.nonce()
              + "\" was already used with this key; sign every request, retries included, with a"
              + " fresh random nonce");
    }
    return new VerifiedCaller(
        params.key(), Instant.ofEpochSecond(params.created()), params.nonce());
  }

  private static void checkLength(String field, String value, Reason reason) {
    if (value.length() > SignatureProfile.MAX_HEADER_LENGTH) {
      throw new RequestAuthException(
          reason,
          field
              + " is "
              + value.length()
              + " characters, over the limit of "
              + SignatureProfile.MAX_HEADER_LENGTH
              + "; send one signature in the ASA profile");
    }
  }

  /**
   * The signature the server checks, whatever its label (RFC 9421 leaves labels to the signer): the
   * first Signature-Input member that covers every component the profile requires. A request may
   * carry other signatures (a proxy's, say); they are not checked, and need not verify.
   */
  private static StructuredFields.Member chosenInput(
      List<StructuredFields.Member> inputs, boolean hasBody) {
    List<String> required = SignatureProfile.coveredComponents(hasBody);
    for (StructuredFields.Member member : inputs) {
      if (member.isInnerList()
          && ((StructuredFields.InnerList) member.value()).strings().containsAll(required)) {
        return member;
      }
    }
    if (inputs.size() == 1 && !inputs.get(0).isInnerList()) {
      throw new RequestAuthException(
          Reason.MALFORMED_SIGNATURE_INPUT,
          "Signature-Input "
              + inputs.get(0).key()
              + " must be an inner list of components such as (\"@method\" \"@target-uri\")"
              + " followed by its parameters");
    }
    List<String> labels = inputs.stream().map(StructuredFields.Member::key).toList();
    throw new RequestAuthException(
        Reason.WRONG_COMPONENTS,
        "no signature in Signature-Input ("
            + abbreviate(String.join(", ", labels))
            + ") covers "
            + SignatureProfile.serializeList(required)
            + ", which a request "
            + (hasBody ? "with" : "without")
            + " a body must cover"
            + (inputs.size() == 1 && inputs.get(0).isInnerList()
                ? "; it covers "
                    + abbreviate(
                        SignatureProfile.serializeList(
                            ((StructuredFields.InnerList) inputs.get(0).value()).strings()))
                : ""));
  }

  /** The Signature member labelled {@code label}: one 64-byte byte sequence. */
  private static Ed25519Signature parseSignature(
      String label, List<StructuredFields.Member> signatures) {
    StructuredFields.Member member =
        signatures.stream().filter(m -> m.key().equals(label)).findFirst().orElse(null);
    if (member == null) {
      throw new RequestAuthException(
          Reason.UNKNOWN_LABEL,
          "Signature has no member labelled "
              + label
              + " (it has "
              + abbreviate(
                  String.join(", ", signatures.stream().map(StructuredFields.Member::key).toList()))
              + "); label the signature as its Signature-Input");
    }
    if (!member.isByteSequence() || !member.params().isEmpty()) {
      throw new RequestAuthException(
          Reason.MALFORMED_SIGNATURE,
          "Signature " + label + " must be a byte sequence :<standard base64>: without parameters");
    }
    byte[] bytes = (byte[]) member.value();
    if (bytes.length != Ed25519Signature.LENGTH) {
      throw new RequestAuthException(
          Reason.MALFORMED_SIGNATURE,
          "Signature "
              + label
              + " holds "
              + bytes.length
              + " bytes; an Ed25519 signature is "
              + Ed25519Signature.LENGTH);
    }
    return new Ed25519Signature(bytes);
  }

  private static String abbreviate(String text) {
    return text.length() <= 200 ? text : text.substring(0, 197) + "...";
  }

  /** The checked parameters of Signature-Input. */
  private record Params(
      long created, Long expires, String nonce, String keyId, Ed25519PublicKey key) {

    static Params of(StructuredFields.Member input) {
      Long created = null;
      Long expires = null;
      String nonce = null;
      String keyId = null;
      String alg = null;
      for (StructuredFields.Param param : input.params()) {
        switch (param.key()) {
          case "created" -> created = integer(param);
          case "expires" -> expires = integer(param);
          case "nonce" -> nonce = string(param);
          case "keyid" -> keyId = string(param);
          case "alg" -> alg = string(param);
          case "tag" ->
              string(param); // the signer's own use (RFC 9421 section 2.3); no meaning here
          default ->
              throw new RequestAuthException(
                  Reason.MALFORMED_SIGNATURE_INPUT,
                  "Signature-Input has the parameter "
                      + RequestAuthException.quote(param.key())
                      + ", which RFC 9421 does not define; send only created, expires, nonce,"
                      + " keyid, alg and tag");
        }
      }
      requirePresent(created, "created", "created=<unix seconds>");
      requirePresent(nonce, "nonce", "nonce=\"<16 to 128 characters of A-Z a-z 0-9 - _>\"");
      requirePresent(keyId, "keyid", "keyid=\"<base64url of your Ed25519 public key>\"");
      if (expires != null && expires < created) {
        throw new RequestAuthException(
            Reason.MALFORMED_SIGNATURE_INPUT,
            "Signature-Input has expires=" + expires + ", before created=" + created);
      }
      // alg is optional in RFC 9421 (the key decides); when sent it must name the key's algorithm.
      if (alg != null && !alg.equals(SignatureProfile.ALG)) {
        throw new RequestAuthException(
            Reason.UNSUPPORTED_ALGORITHM,
            "Signature-Input has alg="
                + RequestAuthException.quote(alg)
                + "; the ASA API accepts only alg=\"ed25519\", signed with an Ed25519 key");
      }
      Ed25519PublicKey key;
      try {
        key = Ed25519PublicKey.fromBase64Url(keyId);
      } catch (IllegalArgumentException e) {
        throw new RequestAuthException(
            Reason.BAD_KEY_ID,
            "keyid "
                + RequestAuthException.quote(keyId)
                + " must be the unpadded base64url of your raw 32-byte Ed25519 public key (43"
                + " characters): "
                + e.getMessage());
      }
      if (!SignatureProfile.isValidNonce(nonce)) {
        throw new RequestAuthException(
            Reason.MALFORMED_SIGNATURE_INPUT,
            "nonce "
                + RequestAuthException.quote(nonce)
                + " must be "
                + SignatureProfile.MIN_NONCE_LENGTH
                + " to "
                + SignatureProfile.MAX_NONCE_LENGTH
                + " characters of A-Z a-z 0-9 - _; send at least 16 random bytes in base64url");
      }
      return new Params(created, expires, nonce, keyId, key);
    }

    private static long integer(StructuredFields.Param param) {
      if (!(param.value() instanceof Long value)) {
        throw new RequestAuthException(
            Reason.MALFORMED_SIGNATURE_INPUT,
            "Signature-Input parameter "
                + param.key()
                + " must be an integer (unix seconds without quotes)");
      }
      return value;
    }

    private static String string(StructuredFields.Param param) {
      if (!(param.value() instanceof String value)) {
        throw new RequestAuthException(
            Reason.MALFORMED_SIGNATURE_INPUT,
            "Signature-Input parameter " + param.key() + " must be a quoted string");
      }
      return value;
    }

    private static void requirePresent(Object value, String name, String example) {
      if (value == null) {
        throw new RequestAuthException(
            Reason.MALFORMED_SIGNATURE_INPUT,
            "Signature-Input lacks the parameter " + name + "; add ;" + example);
      }
    }
  }
}
