package dev.asa.server.http;

import dev.asa.access.AccessDeniedException;
import dev.asa.access.Caller;
import dev.asa.server.store.db.PendingNonce;
import io.javalin.config.JavalinConfig;
import io.javalin.http.Context;
import io.javalin.http.HandlerType;
import io.javalin.router.Endpoint;
import io.javalin.security.Roles;
import io.javalin.security.RouteRole;
import java.io.IOException;
import java.io.InputStream;
import java.util.List;
import java.util.Set;

/**
 * Checks each route's declared {@link Access} before its handler runs, so that a handler cannot
 * forget to authenticate: a Javalin {@code beforeMatched} handler reads the matched route's access
 * level and, for a signed route, reads the body (size-limited, once), verifies the RFC 9421
 * signature over it with {@link Authentication} (per-address limit, signature, per-key limit) and
 * leaves the verified caller and the body bytes in the request's attributes for the handler. A
 * refusal (401, 403, 413, 429) is thrown here, and Javalin then skips the handler.
 *
 * <p>A route without exactly one access level cannot exist: registering one throws, and so does
 * starting a server that has one; were one to slip through anyway, its requests would fail with 500
 * rather than run unchecked.
 */
final class AccessGate {
  private static final String BODY = "asa.body";

  /** Methods whose requests are verified as having no body (their body, if any, is not read). */
  private static final Set<HandlerType> BODILESS = Set.of(HandlerType.GET, HandlerType.HEAD);

  private final Authentication auth;
  private final long maxBodyBytes;

  AccessGate(Authentication auth, long maxBodyBytes) {
    this.auth = auth;
    this.maxBodyBytes = maxBodyBytes;
  }

  /**
   * Puts the gate in front of every route of {@code config} and returns the table to register them
   * in. From here on a route registered without an access level throws at once; one registered
   * before (or around the table) makes the server refuse to start.
   */
  RouteTable install(JavalinConfig config) {
    config.events.handlerAdded(
        added -> declared(added.getHttpMethod(), added.getPath(), added.getRoles()));
    config.events.serverStarting(() ->
        requireDeclared(
            config.unsafe.internalRouter.allHttpHandlers().stream()
                .map(parsed -> parsed.endpoint)
                .toList()));
    config.routes.beforeMatched(this::check);
    config.routes.afterMatched(this::settleNonce);
    config.routes.after(this::drainLeftOver);
    return new RouteTable(config.routes);
  }

  /** Throws unless every HTTP route of {@code endpoints} declares exactly one access level. */
  static void requireDeclared(List<Endpoint> endpoints) {
    for (Endpoint e : endpoints) {
      Roles roles = e.metadata(Roles.class);
      declared(e.method, e.path, roles == null ? Set.of() : roles.getRoles());
    }
  }

  /**
   * The one access level among {@code roles}, or null for what is not a route (before and after
   * handlers). Throws for a route with none or several.
   */
  static Access declared(HandlerType method, String path, Set<RouteRole> roles) {
    if (!method.isHttpMethod()) {
      return null;
    }
    List<Access> declared =
        roles.stream().filter(Access.class::isInstance).map(Access.class::cast).toList();
    if (declared.size() != 1) {
      throw new IllegalStateException(
          method
              + " "
              + path
              + " declares "
              + (declared.isEmpty() ? "no access level" : "several access levels " + declared)
              + "; register it in Routes' table with exactly one Access");
    }
    return declared.get(0);
  }

  private void check(Context ctx) {
    if (ctx.method() == HandlerType.HEAD && ctx.routeRoles().isEmpty()) {
      return; // a HEAD on a GET route: Javalin answers it itself (200, no body) and runs no handler
    }
    switch (declared(ctx.method(), ctx.path(), ctx.routeRoles())) {
      case PUBLIC -> drainUnused(ctx);
      case SIGNED -> authenticate(ctx);
      case SIGNED_OR_PUBLIC_RESULT -> {
        if (Authentication.isSigned(ctx)) {
          authenticate(ctx);
        } else {
          drainUnused(ctx);
        }
      }
      case OPERATOR -> {
        if (!(authenticate(ctx) instanceof Caller.Key k && k.operator())) {
          throw AccessDeniedException.forbidden(
              auth.hasOperatorKey()
                  ? "admin routes are for the operator key only"
                  : "admin routes need the operator key, and this server was started without --operator-key");
        }
      }
    }
  }

  /**
   * Reads the body (if the method has one), then verifies the signature over exactly those bytes.
   */
  private Caller authenticate(Context ctx) {
    byte[] body;
    if (BODILESS.contains(ctx.method())) {
      drainUnused(ctx);
      body = new byte[0];
    } else {
      body = readBody(ctx);
    }
    ctx.attribute(BODY, body);
    if (BODILESS.contains(ctx.method())) {
      return auth.require(ctx, body);
    }
    // A write: its nonce is recorded by its first transaction (one commit, not two).
    try {
      return PendingNonce.deferringDuring(() -> auth.require(ctx, body));
    } catch (RuntimeException e) {
      settleNonce(
          ctx); // refused after its nonce was accepted (rate-limited): recorded all the same
      throw e;
    }
  }

  /**
   * After the handler, before the answer leaves: a nonce no transaction took is recorded now, and
   * if another node had used it the answer becomes a 401 (see {@link PendingNonce}).
   */
  private void settleNonce(Context ctx) {
    try {
      if (!auth.settleNonce()) {
        Problems.replayed(ctx, "this nonce was already used; sign each request afresh");
      }
    } finally {
      PendingNonce.clear();
    }
  }

  /** The caller the gate verified, for a {@link Access#SIGNED} or {@link Access#OPERATOR} route. */
  static Caller caller(Context ctx) {
    Caller caller = Authentication.verified(ctx);
    if (caller == null) {
      throw new IllegalStateException(
          ctx.method() + " " + ctx.path() + " asks for the caller but its route is not signed");
    }
    return caller;
  }

  /**
   * The verified caller, or null when a {@link Access#SIGNED_OR_PUBLIC_RESULT} request came
   * unsigned.
   */
  static Caller callerIfSigned(Context ctx) {
    return Authentication.verified(ctx);
  }

  /** The body the signature was verified over (read once, by the gate). */
  static byte[] body(Context ctx) {
    byte[] body = ctx.attribute(BODY);
    if (body == null) {
      throw new IllegalStateException(
          ctx.method() + " " + ctx.path() + " asks for the body but its route is not signed");
    }
    return body;
  }

  /**
   * Reads and drops a body the route has no use for (a GET sent with one, say), within the same
   * limit as any body. Answered with the body unread, the connection would be closed with bytes
   * still in its receive buffer, and TCP then resets it: the client could lose the answer (the fuzz
   * test saw a 4 MB GET /templates end that way).
   */
  private void drainUnused(Context ctx) {
    if (ctx.contentLength() != 0) {
      readBody(ctx);
    }
  }

  /**
   * After every answer, matched or not (a 404 for a path no route has, a 413 for a body over the
   * limit), whatever the body still holds is read and dropped before the answer leaves, up to twice
   * the limit, so that the connection does not close with bytes unread and lose the answer to a TCP
   * reset (the fuzz test saw a POST of 4 MB to an unknown path end that way, three times in a row
   * on a loaded machine). A body declared larger than that is left to the reset: a client that
   * sends one gets no promise. Reading stops at the end of the body, at the body's deadline, or
   * when the client goes away; a body read already is at its end.
   */
  private void drainLeftOver(Context ctx) {
    long declared = ctx.contentLength();
    long bound = 2 * maxBodyBytes;
    if (declared == 0 || declared > bound) {
      return;
    }
    try {
      InputStream in = ctx.req().getInputStream();
      if (in.read() < 0) {
        return; // the common case, a body read to its end: no buffer to allocate for each request
      }
      byte[] buffer = new byte[16 * 1024];
      for (long read = 1; read <= bound; ) {
        int n = in.read(buffer);
        if (n < 0) {
          return;
        }
        read += n;
      }
    } catch (IOException | RuntimeException gone) {
      // The client went away or missed the body's deadline: nothing is left to answer.
    }
  }

  private byte[] readBody(Context ctx) {
    long declared = ctx.contentLength();
    if (declared > maxBodyBytes) {
      throw tooLarge();
    }
    byte[] bytes;
    try {
      bytes = ctx.bodyAsBytes();
    } catch (Exception e) { // Jetty's EofException arrives unchecked through Javalin
      throw AbortedUpload.from(ctx, e);
    }
    if (bytes.length > maxBodyBytes) {
      throw tooLarge();
    }
    return bytes;
  }

  private RequestException tooLarge() {
    return new RequestException(
        Problem.of(
            "payload-too-large",
            "Request body too large",
            413,
            "request bodies are limited to " + maxBodyBytes + " bytes"));
  }
}
