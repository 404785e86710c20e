package dev.asa.server.escrow;

import dev.asa.server.store.escrow.OutboxMessage;
import dev.asa.text.ControlCharacters;

/** Carries one outbox message to its destination, once per call; the {@link Outbox} retries. */
public interface Courier {

  /**
   * Sends the message; never throws for a failure of the other side, it answers {@link Attempt}.
   */
  Attempt deliver(OutboxMessage message);

  /**
   * How one delivery attempt ended. Its text often quotes the other side, which may send anything:
   * a NUL in it is written as its JSON escape (a backslash, then {@code u0000}), since PostgreSQL
   * cannot store the character itself (the record of the attempt would fail, and the message be
   * sent again and again).
   */
  sealed interface Attempt {
    /**
     * The destination accepted the message (2xx, or 0 for a destination that is not HTTP, such as a
     * chain); {@code response} is kept for the record.
     */
    record Delivered(int status, String response) implements Attempt {
      public Delivered {
        response = ControlCharacters.escapeNul(response);
      }
    }

    /** Worth trying again later: connection refused, timeout, 5xx, 429, an unexpected answer. */
    record Retry(String reason) implements Attempt {
      public Retry {
        reason = ControlCharacters.escapeNul(reason);
      }
    }

    /**
     * The destination answered that this message can never succeed (e.g. an x402 settlement
     * refused).
     */
    record Failed(String reason) implements Attempt {
      public Failed {
        reason = ControlCharacters.escapeNul(reason);
      }
    }
  }
}
