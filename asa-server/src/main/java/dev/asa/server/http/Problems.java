package dev.asa.server.http;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.asa.access.AccessDeniedException;
import dev.asa.agreement.InvalidDocumentException;
import dev.asa.agreement.SignatureRefusedException;
import dev.asa.agreement.UnsupportedVersionException;
import dev.asa.json.Json;
import dev.asa.lifecycle.TransitionRefusedException;
import dev.asa.negotiation.NegotiationRefusedException;
import dev.asa.server.escrow.ChainNotReadyException;
import dev.asa.server.escrow.PaymentRequiredException;
import dev.asa.server.escrow.X402Facilitator;
import dev.asa.server.escrow.erc8183.ChainUnavailableException;
import dev.asa.server.escrow.x402.X402;
import dev.asa.server.store.db.NonceReplayedException;
import dev.asa.server.store.db.RepeatedFailures;
import dev.asa.server.store.db.StoreUnavailableException;
import dev.asa.server.verification.VerificationFailedException;
import dev.asa.server.work.ArchivedException;
import dev.asa.server.work.ConflictException;
import dev.asa.server.work.NotFoundException;
import dev.asa.server.work.UnauthenticatedException;
import dev.asa.signedrequests.RequestAuthException;
import io.javalin.config.RoutesConfig;
import io.javalin.http.Context;
import io.javalin.http.HttpResponseException;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Maps every exception that can leave a handler to a problem+json response, in one table. */
final class Problems {
  private static final Logger log = LoggerFactory.getLogger(Problems.class);
  static final String CONTENT_TYPE = "application/problem+json";

  /** A full disk fails every request the same way: one stack trace, then counts (issue 60). */
  private static final RepeatedFailures storeFailures =
      new RepeatedFailures(log, Duration.ofMinutes(1));

  private Problems() {}

  static void register(RoutesConfig routes) {
    routes.exception(
        InvalidDocumentException.class,
        (e, ctx) ->
            send(
                ctx,
                new Problem(
                    "invalid-document",
                    "The request body breaks the rules",
                    422,
                    e.violations().size() == 1
                        ? e.violations().get(0).toString()
                        : e.violations().size() + " problems; see errors",
                    e.violations(),
                    null)));
    routes.exception(
        PaymentRequiredException.class,
        (e, ctx) -> {
          ctx.header(X402.PAYMENT_REQUIRED_HEADER, X402.header(e.paymentRequired()));
          send(
              ctx,
              new Problem(
                  "payment-required",
                  "Payment required",
                  402,
                  e.getMessage(),
                  List.of(),
                  Json.object().set("x402_payment_required", e.paymentRequired())));
        });
    routes.exception(
        UnsupportedVersionException.class,
        (e, ctx) ->
            send(
                ctx,
                Problem.of("unsupported-version", "Unsupported asa_version", 422, e.getMessage())));
    routes.exception(
        SignatureRefusedException.class,
        (e, ctx) ->
            send(
                ctx,
                Problem.of(
                    "signature-refused", "The signature does not verify", 422, e.getMessage())));
    routes.exception(
        ArchivedException.class,
        (e, ctx) ->
            send(
                ctx,
                new Problem(
                    "archived",
                    "Archived",
                    410,
                    e.getMessage(),
                    List.of(),
                    Json.object()
                        .put("archive", e.archive())
                        .put("archived_at", e.archivedAt().toString()))));
    routes.exception(
        NotFoundException.class,
        (e, ctx) -> send(ctx, Problem.of("not-found", "Not found", 404, e.getMessage())));
    routes.exception(
        AccessDeniedException.class,
        (e, ctx) ->
            send(
                ctx,
                e.hidesExistence()
                    ? Problem.of("not-found", "Not found", 404, e.getMessage())
                    : Problem.of("forbidden", "Not allowed for this key", 403, e.getMessage())));
    routes.exception(
        RequestAuthException.class,
        (e, ctx) -> {
          ObjectNode ext = Json.object().put("reason", e.reason().name().toLowerCase(Locale.ROOT));
          if (e.reason() == RequestAuthException.Reason.NONCE_CACHE_FULL) {
            ctx.header("Retry-After", "1");
            send(
                ctx,
                new Problem(
                    "overloaded",
                    "Too many requests in flight",
                    503,
                    e.getMessage(),
                    List.of(),
                    ext));
          } else {
            unauthenticated(ctx, e.getMessage(), e.reason().name().toLowerCase(Locale.ROOT));
          }
        });
    routes.exception(
        NonceReplayedException.class,
        (e, ctx) -> unauthenticated(ctx, e.getMessage(), "replayed_nonce"));
    routes.exception(
        UnauthenticatedException.class,
        (e, ctx) -> unauthenticated(ctx, e.getMessage(), "missing_signature"));
    routes.exception(
        NegotiationRefusedException.class,
        (e, ctx) ->
            send(
                ctx,
                Problem.of(
                    "negotiation-refused",
                    "The negotiation rules refuse this message",
                    409,
                    e.getMessage())));
    routes.exception(
        VerificationFailedException.class,
        (e, ctx) ->
            send(
                ctx,
                Problem.of("verification-failed", "Verification failed", 422, e.getMessage())));
    routes.exception(
        ConflictException.class,
        (e, ctx) -> send(ctx, Problem.of("conflict", "Conflict", 409, e.getMessage())));
    routes.exception(
        TransitionRefusedException.class,
        (e, ctx) -> {
          ObjectNode ext = Json.object();
          ext.put("current_state", e.current().name());
          ArrayNode allowed = ext.putArray("allowed_actions");
          e.offered().forEach(action -> allowed.add(action.wireName()));
          send(
              ctx,
              new Problem(
                  "transition-refused",
                  "Not allowed in the current state",
                  409,
                  e.getMessage(),
                  List.of(),
                  ext));
        });
    routes.exception(
        Json.UnusableJsonException.class,
        (e, ctx) ->
            send(
                ctx,
                Problem.of(
                    "invalid-document",
                    "The request body breaks the rules",
                    422,
                    e.getOriginalMessage())));
    routes.exception(
        JsonProcessingException.class,
        (e, ctx) ->
            send(
                ctx,
                Problem.of(
                    "malformed-json",
                    "The body is not valid JSON",
                    400,
                    e.getOriginalMessage()
                        + (e.getLocation() == null
                            ? ""
                            : " (line "
                                + e.getLocation().getLineNr()
                                + ", column "
                                + e.getLocation().getColumnNr()
                                + ")"))));
    routes.exception(RequestException.class, (e, ctx) -> send(ctx, e.problem()));
    routes.exception(
        HttpResponseException.class,
        (e, ctx) ->
            send(
                ctx, // Javalin's own, e.g. 413 on a chunked body
                Problem.of(
                    e.getStatus() == 413 ? "payload-too-large" : "http-" + e.getStatus(),
                    e.getMessage(),
                    e.getStatus(),
                    e.getStatus() == 413
                        ? "the request body is larger than this server accepts"
                        : e.getMessage())));
    routes.exception(
        StoreUnavailableException.class,
        (e, ctx) -> {
          StoreUnavailableException.Cause cause = e.kind();
          storeFailures.warn(
              cause.problemType(),
              "store unavailable (" + cause.sentence() + ") on " + ctx.method() + " " + ctx.path(),
              e);
          ctx.header("Retry-After", String.valueOf(cause.retryAfter().toSeconds()));
          send(
              ctx,
              Problem.of(
                  cause.problemType(),
                  "Storage unavailable",
                  503,
                  cause.sentence() + "; retry later"));
        });
    routes.exception(
        ChainNotReadyException.class,
        (e, ctx) -> {
          ctx.header("Retry-After", String.valueOf(e.retryAfter().toSeconds()));
          send(ctx, Problem.of("chain-not-ready", "Not yet on chain", 409, e.getMessage()));
        });
    // An x402 facilitator or a chain's node that gave no answer: nothing was decided.
    routes.exception(ChainUnavailableException.class, Problems::railUnavailable);
    routes.exception(
        X402Facilitator.FacilitatorUnavailableException.class, Problems::railUnavailable);
    routes.exception(
        Exception.class,
        (e, ctx) -> {
          log.error("unexpected failure on {} {}", ctx.method(), ctx.path(), e);
          send(
              ctx,
              Problem.of(
                  "internal",
                  "Internal error",
                  500,
                  "an unexpected error occurred; it has been logged"));
        });
    routes.error(
        404,
        "*",
        ctx -> {
          if (!CONTENT_TYPE.equals(ctx.res().getContentType())) {
            send(
                ctx,
                Problem.of(
                    "no-such-route",
                    "No such route",
                    404,
                    "no route " + ctx.method() + " " + ctx.path()));
          }
        });
    routes.error(
        405,
        "*",
        ctx ->
            send(
                ctx,
                Problem.of(
                    "method-not-allowed",
                    "Method not allowed",
                    405,
                    ctx.method() + " is not allowed on " + ctx.path())));
  }

  private static void railUnavailable(Exception e, Context ctx) {
    send(
        ctx,
        Problem.of(
            "payment-rail-unavailable",
            "Payment rail unavailable",
            503,
            e.getMessage() + "; nothing was recorded, retry later"));
  }

  /** A request whose nonce another node had used: 401, as a replay to this node is answered. */
  static void replayed(Context ctx, String detail) {
    unauthenticated(ctx, detail, "replayed_nonce");
  }

  /** The one 401 answer: why the signature was not accepted, as {@code reason}. */
  private static void unauthenticated(Context ctx, String detail, String reason) {
    ctx.header("WWW-Authenticate", "Signature");
    send(
        ctx,
        new Problem(
            "unauthenticated",
            "The request signature was not accepted",
            401,
            detail,
            List.of(),
            Json.object().put("reason", reason)));
  }

  static void send(Context ctx, Problem p) {
    ctx.status(p.status());
    ctx.contentType(CONTENT_TYPE);
    ctx.result(Json.writeBytes(p.toJson(ctx.path(), RequestIds.of(ctx))));
  }
}
