package dev.asa.server.store.idempotency;

import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Objects;

/**
 * The remembered response to a POST that carried an {@code Idempotency-Key}.
 *
 * @param scope caller + method + route, so two callers may use the same key independently
 * @param requestHash digest of the request, to refuse the same key with a different body
 */
public record IdempotencyRow(
    String scope,
    String key,
    String requestHash,
    int status,
    String responseBody,
    Instant createdAt) {

  public IdempotencyRow {
    Objects.requireNonNull(scope, "scope");
    Objects.requireNonNull(key, "key");
    Objects.requireNonNull(requestHash, "requestHash");
    createdAt = Objects.requireNonNull(createdAt, "createdAt").truncatedTo(ChronoUnit.MILLIS);
  }
}
