package dev.asa.server.work;

import dev.asa.json.Json;
import dev.asa.server.store.Write;
import dev.asa.server.store.idempotency.IdempotencyRow;
import java.time.Instant;
import java.util.List;

/**
 * A POST that carried an {@code Idempotency-Key}: its response is stored in the same transaction as
 * the change it made, so a retry gets the same answer and changes nothing.
 */
public record IdempotencyTicket(String scope, String key, String requestHash) {

  /** The write that remembers a POST's answer for its key; none without a ticket. */
  public static List<Write> writes(IdempotencyTicket ticket, Outcome outcome, Instant now) {
    if (ticket == null) {
      return List.of();
    }
    return List.of(
        new Write.PutIdempotency(
            new IdempotencyRow(
                ticket.scope(),
                ticket.key(),
                ticket.requestHash(),
                outcome.status(),
                Json.write(outcome.body()),
                now)));
  }
}
