package dev.asa.server.store.escrow;

import java.time.Instant;
import java.util.Objects;

/**
 * A message to another system (a payment system's webhook, an x402 facilitator, a dispute
 * protocol), written in the same transaction as the change that caused it and delivered afterwards
 * by the escrow package's outbox: at least once, retried with backoff. Its {@code id} is stable
 * across retries, so the receiver applies it at most once.
 *
 * @param kind what the message asks for, e.g. {@code escrow.release} or {@code x402.settle}
 * @param destination the URL it is sent to
 * @param body the JSON body, exactly as sent (and signed)
 */
public record OutboxMessage(
    String id,
    String agreementId,
    String kind,
    String destination,
    String body,
    Instant createdAt,
    int attempts) {
  public OutboxMessage {
    Objects.requireNonNull(id, "id");
    Objects.requireNonNull(agreementId, "agreementId");
    Objects.requireNonNull(kind, "kind");
    Objects.requireNonNull(destination, "destination");
    Objects.requireNonNull(body, "body");
    Objects.requireNonNull(createdAt, "createdAt");
    createdAt = Instant.ofEpochMilli(createdAt.toEpochMilli());
  }
}
