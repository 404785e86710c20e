package dev.asa.server.escrow;

import java.time.Duration;
import java.util.Objects;

/**
 * The chain does not show, deep enough, what a request depends on (a job's funding, a provider's
 * submission): answered 409 with {@code Retry-After}; nothing was recorded, and the same request
 * succeeds once the chain shows it.
 */
public final class ChainNotReadyException extends RuntimeException {
  private final Duration retryAfter;

  ChainNotReadyException(String message, Duration retryAfter) {
    super(message);
    this.retryAfter = Objects.requireNonNull(retryAfter, "retryAfter");
  }

  public Duration retryAfter() {
    return retryAfter;
  }
}
