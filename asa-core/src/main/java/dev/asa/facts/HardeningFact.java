package dev.asa.facts;

import java.time.Instant;
import java.util.Locale;
import java.util.Objects;

/**
 * A Shadow Scoring hardening cycle: the first delivery missed sealed criteria, and the provider may
 * re-deliver once.
 *
 * @param redeliveredAt null while the cycle is open
 */
public record HardeningFact(
    Status status,
    Instant openedAt,
    int redeliveriesAllowed,
    String messagesUrl,
    Instant redeliveredAt)
    implements TypedFact {

  /** Whether the provider may still re-deliver. */
  public enum Status {
    OPEN,
    REDELIVERED;

    public String wireName() {
      return name().toLowerCase(Locale.ROOT);
    }
  }

  public HardeningFact {
    Objects.requireNonNull(status, "status");
    Objects.requireNonNull(openedAt, "openedAt");
  }

  public static HardeningFact opened(Instant at, String messagesUrl) {
    return new HardeningFact(Status.OPEN, at, 1, messagesUrl, null);
  }

  public boolean isOpen() {
    return status == Status.OPEN;
  }

  /** The cycle after the provider's one re-delivery. */
  public HardeningFact redelivered(Instant at) {
    return new HardeningFact(Status.REDELIVERED, openedAt, 0, messagesUrl, at);
  }
}
