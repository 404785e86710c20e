package dev.asa.server.http;

import io.javalin.security.RouteRole;

/**
 * Who may call a route, declared next to the route in {@link Routes} and checked by {@link
 * AccessGate} before the handler runs. Every route has exactly one; a route without one is refused
 * when it is registered. Which of the signed callers may act on a given agreement (client,
 * provider, evaluator) is decided later, by {@link dev.asa.access.AccessPolicy} in the services.
 */
public enum Access implements RouteRole {
  /** Anyone; the request is not authenticated. */
  PUBLIC,
  /** A valid RFC 9421 request signature (covering the body, when there is one) from any key. */
  SIGNED,
  /**
   * Signed, or unsigned when the answer is public anyway: a signed request is verified as for
   * {@link #SIGNED} (a bad signature is refused, not ignored); an unsigned one reaches the handler
   * without a caller, and the service answers it only when the result is public.
   */
  SIGNED_OR_PUBLIC_RESULT,
  /** Signed with the operator key ({@code --operator-key}); any other key is refused with 403. */
  OPERATOR
}
