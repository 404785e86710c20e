package dev.asa.signedrequests;

import dev.asa.crypto.Digest;
import dev.asa.signedrequests.RequestAuthException.Reason;
import java.security.MessageDigest;
import java.util.Base64;
import java.util.List;
import java.util.Objects;

/**
 * The {@code Content-Digest} header of RFC 9530, restricted to one SHA-256 digest: {@code
 * sha-256=:<standard base64 of SHA-256(body)>:}.
 *
 * <p>The request signature covers this header rather than the body itself, so the body is bound to
 * the signature through it. Only {@code sha-256} is accepted: one algorithm means one thing to
 * implement and nothing to downgrade to.
 */
public final class ContentDigest {

  /** Header name. */
  public static final String HEADER = "Content-Digest";

  /** Its name as an RFC 9421 component identifier. */
  static final String COMPONENT = "content-digest";

  /** Longest header value accepted; a SHA-256 member is 52 characters. */
  static final int MAX_LENGTH = 4096;

  private static final String ALGORITHM = "sha-256";

  private ContentDigest() {}

  /** The header value for {@code body}: {@code sha-256=:<base64>:}. */
  public static String of(byte[] body) {
    Objects.requireNonNull(body, "body");
    return ALGORITHM + "=:" + Base64.getEncoder().encodeToString(Digest.sha256(body).bytes()) + ":";
  }

  /**
   * Whether {@code headerValue} is the SHA-256 digest of exactly {@code body}.
   *
   * @throws RequestAuthException if the header is absent ({@code MISSING_CONTENT_DIGEST}), uses
   *     another algorithm ({@code UNSUPPORTED_ALGORITHM}) or is not a single {@code sha-256=:...:}
   *     member ({@code MALFORMED_CONTENT_DIGEST}); a well-formed digest of other bytes is {@code
   *     false}, not an exception
   */
  public static boolean matches(String headerValue, byte[] body) {
    Objects.requireNonNull(body, "body");
    byte[] claimed = parse(headerValue);
    return MessageDigest.isEqual(claimed, Digest.sha256(body).bytes());
  }

  /** The 32 digest bytes of a {@code sha-256=:...:} header value. */
  static byte[] parse(String headerValue) {
    if (headerValue == null) {
      throw new RequestAuthException(
          Reason.MISSING_CONTENT_DIGEST,
          "the request has a body but no Content-Digest header; send Content-Digest:"
              + " sha-256=:<standard base64 of SHA-256(body)>: and cover it in the signature");
    }
    if (headerValue.length() > MAX_LENGTH) {
      throw new RequestAuthException(
          Reason.MALFORMED_CONTENT_DIGEST,
          "Content-Digest is "
              + headerValue.length()
              + " characters, over the limit of "
              + MAX_LENGTH
              + "; send a single sha-256=:<base64>: member");
    }
    List<StructuredFields.Member> members =
        StructuredFields.parseDictionary(HEADER, Reason.MALFORMED_CONTENT_DIGEST, headerValue);
    if (members.size() != 1) {
      throw new RequestAuthException(
          Reason.MALFORMED_CONTENT_DIGEST,
          "Content-Digest holds "
              + members.size()
              + " digests; send exactly one: sha-256=:<base64 of SHA-256(body)>:");
    }
    StructuredFields.Member member = members.get(0);
    if (!member.key().equals(ALGORITHM)) {
      throw new RequestAuthException(
          Reason.UNSUPPORTED_ALGORITHM,
          "Content-Digest uses the algorithm "
              + RequestAuthException.quote(member.key())
              + "; only sha-256 is accepted: send sha-256=:<base64 of SHA-256(body)>:");
    }
    if (!member.isByteSequence() || !member.params().isEmpty()) {
      throw new RequestAuthException(
          Reason.MALFORMED_CONTENT_DIGEST,
          "Content-Digest sha-256 must be a byte sequence :<base64>: without parameters");
    }
    byte[] digest = (byte[]) member.value();
    if (digest.length != Digest.LENGTH) {
      throw new RequestAuthException(
          Reason.MALFORMED_CONTENT_DIGEST,
          "Content-Digest sha-256 holds "
              + digest.length
              + " bytes; a SHA-256 digest is "
              + Digest.LENGTH);
    }
    return digest;
  }
}
