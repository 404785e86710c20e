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
 * dev.asa.http.SignatureProfile} for the exact scheme) and applies the per-key rate limit. The
 * rate limit counts only verified keys, so that forged requests cannot spend someone else's budget.
 */
public final class Authentication {
  private static final String ATTRIBUTE = "asa.caller";

  private final RequestVerifier verifier;
  private final RateLimiter limiter;
  private final Ed25519PublicKey operatorKey;

  public Authentication(RequestVerifier verifier, RateLimiter limiter, Ed25519PublicKey operatorKey) {
    this.verifier = verifier;
    this.limiter = limiter;
    this.operatorKey = operatorKey;
  }

  /** The verified caller, or a 401 / 429 problem. The body must be the bytes received. */
  Caller require(Context ctx, byte[] body) {
    Caller cached = ctx.attribute(ATTRIBUTE);
    if (cached != null) {
      return cached;
    }
    VerifiedCaller verified;
    try {
      verified = verifier.verify(ctx.method().name(), targetUri(ctx), ctx::header, body);
    } catch (IllegalArgumentException e) {
      throw new RequestException(Problem.of("bad-target", "Unusable request target", 400, e.getMessage()));
    }
    RateLimiter.Decision decision = limiter.tryAcquire(verified.keyId());
    if (!decision.allowed()) {
      long seconds = Math.max(1, (decision.retryAfter().toMillis() + 999) / 1000);
      ctx.header("Retry-After", Long.toString(seconds));
      throw new RequestException(Problem.of("rate-limited", "Too many requests", 429,
          "this key has sent more requests than its limit; retry after " + seconds + " s"));
    }
    Caller caller = new Caller.Key(verified.key(), verified.key().equals(operatorKey));
    ctx.attribute(ATTRIBUTE, caller);
    return caller;
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
