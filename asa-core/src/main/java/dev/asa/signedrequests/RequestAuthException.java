package dev.asa.signedrequests;

import java.util.Objects;

/**
 * A request's signature was refused: {@link #reason()} says which rule it broke, for code; {@link
 * #getMessage()} says what the caller should change, for people.
 *
 * <p>This is the only exception that {@link RequestVerifier#verify} throws for anything a client
 * sent, however malformed, so a server needs exactly one {@code catch}. Messages quote client input
 * only after escaping control characters and shortening it, so they are safe to log and to return
 * in a problem+json {@code detail}.
 */
public final class RequestAuthException extends RuntimeException {

  private static final long serialVersionUID = 1L;

  /**
   * Why a request was refused. Every reason except {@link #NONCE_CACHE_FULL} is the caller's fault
   * (answer 401); {@link #NONCE_CACHE_FULL} is the server protecting itself (answer 503 or 429 with
   * a short Retry-After).
   */
  public enum Reason {
    /** Signature-Input or Signature is absent. */
    MISSING_SIGNATURE,
    /** Signature-Input is not the profile's RFC 8941 dictionary, or a parameter is bad. */
    MALFORMED_SIGNATURE_INPUT,
    /** Signature is not a dictionary holding one 64-byte byte sequence. */
    MALFORMED_SIGNATURE,
    /** Signature has no member with the label of the Signature-Input member checked. */
    UNKNOWN_LABEL,
    /**
     * {@code alg} is not {@code "ed25519"}, or Content-Digest uses an algorithm other than sha-256.
     */
    UNSUPPORTED_ALGORITHM,
    /** {@code keyid} is not the base64url of a 32-byte Ed25519 public key. */
    BAD_KEY_ID,
    /**
     * The covered components miss one the profile requires, name one twice, or name one the server
     * cannot derive (an unknown derived component, a header field the request lacks).
     */
    WRONG_COMPONENTS,
    /** The request has a body but no Content-Digest header. */
    MISSING_CONTENT_DIGEST,
    /** Content-Digest is not a single {@code sha-256=:<base64>:} member. */
    MALFORMED_CONTENT_DIGEST,
    /** Content-Digest does not match the body received. */
    CONTENT_DIGEST_MISMATCH,
    /** {@code created} is further from the server's clock than the allowed skew. */
    STALE_CREATED,
    /** The signer's {@code expires} has passed. */
    EXPIRED,
    /** This key already used this nonce within the replay window. */
    REPLAYED_NONCE,
    /** The signature does not verify with the key named by {@code keyid}. */
    BAD_SIGNATURE,
    /**
     * The server remembers as many nonces as it can afford; not the caller's fault, retry later.
     */
    NONCE_CACHE_FULL
  }

  private final Reason reason;

  RequestAuthException(Reason reason, String message) {
    // No stack trace: these are expected answers to bad requests, not bugs, and a flood of garbage
    // requests should not pay for walking the stack each time. The reason and message say it all.
    super(Objects.requireNonNull(message, "message"), null, false, false);
    this.reason = Objects.requireNonNull(reason, "reason");
  }

  /**
   * The rule the request broke, stable across versions; map it to an HTTP status and problem type.
   */
  public Reason reason() {
    return reason;
  }

  @Override
  public String toString() {
    return "RequestAuthException[" + reason + "]: " + getMessage();
  }

  /**
   * Quotes client-supplied text for a message: at most {@code 80} characters, control and non-ASCII
   * characters escaped, so a header cannot forge log lines or flood them.
   */
  static String quote(String text) {
    StringBuilder out = new StringBuilder(Math.min(text.length(), 80) + 8).append('"');
    int limit = Math.min(text.length(), 80);
    for (int i = 0; i < limit; i++) {
      char c = text.charAt(i);
      if (c >= 0x20 && c < 0x7f && c != '\\') {
        out.append(c);
      } else if (c == '\\') {
        out.append("\\\\");
      } else {
        out.append(String.format("\\u%04X", (int) c));
      }
    }
    out.append('"');
    if (text.length() > limit) {
      out.append("... (").append(text.length()).append(" characters)");
    }
    return out.toString();
  }
}
