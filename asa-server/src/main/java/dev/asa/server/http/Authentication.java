package dev.asa.server.http;

import dev.asa.access.Caller;
import dev.asa.crypto.Ed25519PublicKey;
import dev.asa.http.RateLimiter;
import dev.asa.http.RequestVerifier;
import dev.asa.http.VerifiedCaller;
import io.javalin.http.Context;
import java.net.URI;
import java.net.URISyntaxException;

/**
 * Who is calling: verifies the request's RFC 9421 signature (see {@link
 * dev.asa.http.RequestSigner} for the exact scheme) and applies two rate limits. The per-key limit
 * counts only verified keys, so that forged requests cannot spend someone else's budget; a wider
 * per-address limit applies before verification, because anyone can mint keys and each signed
 * request costs a signature check and a slot in the replay cache.
 */
public final class Authentication {
  private static final String ATTRIBUTE = "asa.caller";

  private final RequestVerifier verifier;
  private final RateLimiter limiter;
  private final RateLimiter perAddress;
  private final Ed25519PublicKey operatorKey;

  public Authentication(RequestVerifier verifier, RateLimiter perKey, RateLimiter perAddress, Ed25519PublicKey operatorKey) {
    this.verifier = verifier;
    this.limiter = perKey;
    this.perAddress = perAddress;
    this.operatorKey = operatorKey;
  }

  /** The verified caller, or a 401 / 429 problem. The body must be the bytes received. */
  Caller require(Context ctx, byte[] body) {
    Caller cached = ctx.attribute(ATTRIBUTE);
    if (cached != null) {
      return cached;
    }
    enforce(perAddress.tryAcquire(ctx.ip()), ctx, "this address");
    VerifiedCaller verified;
    try {
      verified = verifier.verify(ctx.method().name(), targetUri(ctx), ctx::header, body);
    } catch (IllegalArgumentException e) {
      throw new RequestException(Problem.of("bad-target", "Unusable request target", 400, e.getMessage()));
    }
    enforce(limiter.tryAcquire(verified.keyId()), ctx, "this key");
    Caller caller = new Caller.Key(verified.key(), verified.key().equals(operatorKey));
    ctx.attribute(ATTRIBUTE, caller);
    return caller;
  }

  private static void enforce(RateLimiter.Decision decision, Context ctx, String who) {
    if (!decision.allowed()) {
      long seconds = decision.retryAfterSeconds();
      ctx.header("Retry-After", Long.toString(seconds));
      throw new RequestException(Problem.of("rate-limited", "Too many requests", 429,
          who + " has sent more requests than its limit; retry after " + seconds + " s"));
    }
  }

  /** For requests without a body (GET). */
  Caller require(Context ctx) {
    return require(ctx, new byte[0]);
  }

  /** Whether the request carries a signature at all (for routes that also answer anonymously). */
  static boolean isSigned(Context ctx) {
    return ctx.header("Signature-Input") != null || ctx.header("Signature") != null;
  }

  /**
   * The target URI as the client addressed it: {@code http://} + the Host header + the raw path and
   * query. (Behind a TLS-terminating proxy the scheme would be https; that needs a configured
   * public base URL, which this server does not have yet.)
   */
  static URI targetUri(Context ctx) {
    String host = ctx.header("Host");
    String query = ctx.req().getQueryString();
    String raw = "http://" + (host == null ? "localhost" : host) + ctx.req().getRequestURI() + (query == null ? "" : "?" + query);
    try {
      return new URI(raw);
    } catch (URISyntaxException e) {
      throw new RequestException(Problem.of("bad-target", "Unusable request target", 400,
          "the request's Host or path cannot form a URI: " + e.getReason()));
    }
  }
}
