package dev.asa.server.http;

import com.fasterxml.jackson.databind.JsonNode;
import dev.asa.access.Caller;
import dev.asa.crypto.Digest;
import dev.asa.json.Json;
import dev.asa.server.store.idempotency.IdempotencyRow;
import dev.asa.server.store.idempotency.IdempotencyStore;
import dev.asa.server.work.ConflictException;
import dev.asa.server.work.IdempotencyTicket;
import dev.asa.server.work.Outcome;
import io.javalin.http.Context;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * Running mutating requests: the body {@link AccessGate} read and verified is parsed (strict JSON),
 * and the {@code Idempotency-Key} looked up. A key seen before with the same body replays the
 * stored answer; with another body it is refused.
 */
public final class Requests {
  private static final Pattern KEY = Pattern.compile("^[\\x21-\\x7e]{1,255}$");

  private final IdempotencyStore idempotency;

  public Requests(IdempotencyStore idempotency) {
    this.idempotency = idempotency;
  }

  /** A use case run with the request's typed command. */
  interface Mutation<C> {
    Outcome run(C command, Caller caller, IdempotencyTicket ticket) throws Exception;
  }

  /** Reads a request body into a typed command, refusing a malformed one naming its field. */
  interface BodyReader<C> {
    C read(JsonNode body);
  }

  /**
   * A write on a signed route: the gate has read the body (size-limited) and verified the signature
   * over it; here the Idempotency-Key is looked up (keys are per caller), and a request not seen
   * before is read into its command by {@code reader} and run.
   */
  <C> void mutation(Context ctx, BodyReader<C> reader, Mutation<C> mutation) throws Exception {
    byte[] bytes = AccessGate.body(ctx);
    Caller caller = AccessGate.caller(ctx);
    JsonNode body = bytes.length == 0 ? Json.mapper().missingNode() : RequestBodies.parse(bytes);
    IdempotencyTicket ticket = ticket(ctx, caller, bytes);
    if (ticket != null) {
      Optional<IdempotencyRow> seen = idempotency.find(ticket.scope(), ticket.key());
      if (seen.isPresent()) {
        replay(ctx, ticket, seen.get());
        return;
      }
    }
    try {
      Routes.render(ctx, mutation.run(reader.read(body), caller, ticket));
    } catch (ConflictException e) {
      // A concurrent request with the same key may have won the race: answer as it did.
      Optional<IdempotencyRow> seen =
          ticket == null ? Optional.empty() : idempotency.find(ticket.scope(), ticket.key());
      if (seen.isEmpty()) {
        throw e;
      }
      replay(ctx, ticket, seen.get());
    }
  }

  private void replay(Context ctx, IdempotencyTicket ticket, IdempotencyRow row) {
    if (!row.requestHash().equals(ticket.requestHash())) {
      throw new RequestException(
          Problem.of(
              "idempotency-key-reused",
              "Idempotency-Key reused",
              422,
              "the Idempotency-Key '"
                  + ticket.key()
                  + "' was already used with a different request body; use a new key"));
    }
    ctx.header("Idempotent-Replayed", "true");
    ctx.status(row.status());
    ctx.contentType("application/json");
    ctx.result(row.responseBody());
  }

  private static IdempotencyTicket ticket(Context ctx, Caller caller, byte[] body) {
    String key = ctx.header("Idempotency-Key");
    if (key == null) {
      return null;
    }
    if (!KEY.matcher(key).matches()) {
      throw new RequestException(
          Problem.of(
              "invalid-header",
              "Invalid Idempotency-Key",
              400,
              "Idempotency-Key must be 1 to 255 visible ASCII characters"));
    }
    String scope = caller.describe() + " " + ctx.method() + " " + ctx.path();
    return new IdempotencyTicket(scope, key, Digest.sha256(body).toString());
  }

  static int intParam(Context ctx, String name, int fallback, int min, int max) {
    String v = ctx.queryParam(name);
    if (v == null) {
      return fallback;
    }
    try {
      int n = Integer.parseInt(v);
      if (n < min || n > max) {
        throw new NumberFormatException();
      }
      return n;
    } catch (NumberFormatException e) {
      throw new RequestException(
          Problem.of(
              "invalid-parameter",
              "Invalid query parameter",
              400,
              name + " must be a whole number from " + min + " to " + max));
    }
  }
}
