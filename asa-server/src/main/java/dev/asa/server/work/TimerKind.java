package dev.asa.server.work;

import java.util.Locale;

/**
 * The durable timers an agreement can have (section 8.3 and the challenge window); the wire name is
 * what the timers table stores, so names never change once released.
 */
public enum TimerKind {
  /** A negotiation left without a message for the policy's timeout is rejected. */
  NEGOTIATION_TIMEOUT,
  /** The agreement's own {@code expires_at}: unsigned or undelivered agreements expire then. */
  EXPIRES_AT,
  /** {@code client_timeout_seconds} after activation: an unfunded agreement expires. */
  CLIENT_FUNDING_TIMEOUT,
  /**
   * {@code provider_timeout_seconds} after funding (or activation): undelivered work is refunded.
   */
  PROVIDER_DELIVERY_TIMEOUT,
  /** {@code evaluator_timeout_seconds} after delivery: the dead-man's switch's timeout action. */
  EVALUATOR_TIMEOUT,
  /** The end of the challenge window: the result is enforced and the agreement closes. */
  CHALLENGE_WINDOW;

  public String wireName() {
    return name().toLowerCase(Locale.ROOT);
  }

  /**
   * The kind a stored timer names; a kind this build does not know is a bug or a newer build's row.
   */
  public static TimerKind fromWire(String name) {
    for (TimerKind k : values()) {
      if (k.wireName().equals(name)) {
        return k;
      }
    }
    throw new IllegalStateException(
        "unknown timer kind '" + name + "' (written by a newer build?)");
  }
}
