package dev.asa.server.http;

import dev.asa.access.Caller;
import dev.asa.crypto.Ed25519PublicKey;
import dev.asa.server.config.PublicUrls;
import dev.asa.signedrequests.RateLimiter;
import dev.asa.signedrequests.RequestVerifier;
import dev.asa.signedrequests.VerifiedCaller;
import io.javalin.http.Context;
import java.util.Enumeration;

/**
 * Who is calling: verifies the request's RFC 9421 signature (see {@link
 * dev.asa.signedrequests.RequestSigner} for the exact scheme) and applies two rate limits. The
 * per-key limit counts only verified keys, so that forged requests cannot spend someone else's
 * budget; a wider per-address limit applies before verification, because anyone can mint keys and
 * each signed request costs a signature check and a slot in the replay cache.
 */
public final class Authentication {
  private static final String ATTRIBUTE = "asa.caller";

  private final RequestVerifier verifier;
  private final java.util.function.BooleanSupplier settleNonce;
  private final RateLimiter limiter;
  private final RateLimiter perAddress;
  private final Ed25519PublicKey operatorKey;
  private final TargetUris targets;

  /**
   * @param publicUrls the URLs clients reach this server under; signed requests must target one
   */
  public Authentication(
      RequestVerifier verifier,
      RateLimiter perKey,
      RateLimiter perAddress,
      Ed25519PublicKey operatorKey,
      PublicUrls publicUrls) {
    this(verifier, perKey, perAddress, operatorKey, publicUrls, () -> true);
  }

  /**
   * @param settleNonce records a write's nonce that no transaction took, before the answer leaves;
   *     false when another node had used it ({@link
   *     dev.asa.server.store.db.NonceTable#settlePending})
   */
  public Authentication(
      RequestVerifier verifier,
      RateLimiter perKey,
      RateLimiter perAddress,
      Ed25519PublicKey operatorKey,
      PublicUrls publicUrls,
      java.util.function.BooleanSupplier settleNonce) {
    this.settleNonce = settleNonce;
    this.verifier = verifier;
    this.limiter = perKey;
    this.perAddress = perAddress;
    this.operatorKey = operatorKey;
    this.targets = new TargetUris(publicUrls);
  }

  /**
   * The verified caller, or a 401 / 429 problem. The body must be the bytes received (empty for a
   * request verified as bodiless). {@link AccessGate} calls this before the handler runs.
   */
  Caller require(Context ctx, byte[] body) {
    Caller cached = ctx.attribute(ATTRIBUTE);
    if (cached != null) {
      return cached;
    }
    enforce(perAddress.tryAcquire(ctx.ip()), ctx, "this address");
    VerifiedCaller verified;
    try {
      verified =
          verifier.verify(ctx.method().name(), targets.of(ctx), name -> allValues(ctx, name), body);
    } catch (IllegalArgumentException e) {
      throw new RequestException(
          Problem.of("bad-target", "Unusable request target", 400, e.getMessage()));
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
      throw new RequestException(
          Problem.of(
              "rate-limited",
              "Too many requests",
              429,
              who + " has sent more requests than its limit; retry after " + seconds + " s"));
    }
  }

  /** The caller {@link #require} verified for this request, or null when it has not run. */
  static Caller verified(Context ctx) {
    return ctx.attribute(ATTRIBUTE);
  }

  /** Records a waiting nonce (see {@link AccessGate}); false when it had been used. */
  boolean settleNonce() {
    return settleNonce.getAsBoolean();
  }

  /** Whether this server was started with an operator key. */
  boolean hasOperatorKey() {
    return operatorKey != null;
  }

  /** Whether the request carries a signature at all (for routes that also answer anonymously). */
  static boolean isSigned(Context ctx) {
    return ctx.header("Signature-Input") != null || ctx.header("Signature") != null;
  }

  /**
   * A header's value, with repeated header lines joined by ", " as RFC 9110 section 5.3 combines
   * them. Reading only the first line would let a second Signature or Signature-Input line ride
   * along unseen (and a proxy or another reader might pick the other one); joined, the verifier
   * sees two signatures and refuses the request.
   */
  private static String allValues(Context ctx, String name) {
    Enumeration<String> values = ctx.req().getHeaders(name);
    if (values == null || !values.hasMoreElements()) {
      return null;
    }
    StringBuilder joined = new StringBuilder(values.nextElement());
    while (values.hasMoreElements()) {
      joined.append(", ").append(values.nextElement());
    }
    return joined.toString();
  }
}
