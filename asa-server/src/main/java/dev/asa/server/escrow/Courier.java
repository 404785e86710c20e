package dev.asa.server.escrow;

import dev.asa.server.store.OutboxMessage;

/** Carries one outbox message to its destination, once per call; the {@link Outbox} retries. */
public interface Courier {

  /**
   * Sends the message; never throws for a failure of the other side, it answers {@link Attempt}.
   */
  Attempt deliver(OutboxMessage message);

  /** How one delivery attempt ended. */
  sealed interface Attempt {
    /** The destination accepted the message (2xx); {@code response} is kept for the record. */
    record Delivered(int status, String response) implements Attempt {}

    /** Worth trying again later: connection refused, timeout, 5xx, 429, an unexpected answer. */
    record Retry(String reason) implements Attempt {}

    /**
     * The destination answered that this message can never succeed (e.g. an x402 settlement
     * refused).
     */
    record Failed(String reason) implements Attempt {}
  }
}
