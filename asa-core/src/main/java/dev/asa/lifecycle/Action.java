package dev.asa.lifecycle;

import java.util.Locale;

/**
 * Everything that can happen to an agreement. Which action is allowed in which state: {@link
 * Lifecycle}.
 */
public enum Action {
  /** A counter-proposal or acceptance during negotiation (section 7). */
  NEGOTIATE,
  /** A party signs the current terms; the second signature activates the agreement. */
  SIGN,
  /** The client funds the escrow. */
  FUND,
  /**
   * The provider stakes the collateral its terms ask for ({@code escrow.collateral}), before it
   * delivers.
   */
  STAKE_COLLATERAL,
  /** The provider submits the deliverable. */
  DELIVER,
  /**
   * The provider submits its one re-delivery of a Shadow Scoring hardening cycle: the agreement
   * stays DELIVERED, with the new deliverable to verify.
   */
  REDELIVER,
  /** The evaluator's result is recorded. */
  VERIFY,
  /** A party contests the result inside the challenge window. */
  CHALLENGE,
  /**
   * The Shadow Scoring gate holds the payment of a result just recorded (quarantine, or a broken
   * seal): the case goes to a ruling with the money frozen, as a challenge would, without one.
   */
  QUARANTINE,
  /** The result is final: money moves and the record is sealed. */
  CLOSE,
  /** A ruling settles a dispute. */
  RULE,
  /**
   * The evaluator timed out and no backup could score the deliverable: the case goes to a ruling
   * (funds stay frozen) instead of being decided by default.
   */
  ESCALATE,
  /** A party declines the terms, or negotiation ran out of rounds or time. */
  REJECT,
  /** A dead-man's switch or the agreement's own expiry fired. */
  EXPIRE;

  public String wireName() {
    return name().toLowerCase(Locale.ROOT);
  }

  /**
   * Whether a caller can ask for this action through the API. Quarantine, escalation and expiry are
   * the server's own moves (the Shadow Scoring gate, an evaluator timeout, a timer), so a refusal
   * never offers them as something to do.
   */
  public boolean requestable() {
    return this != QUARANTINE && this != ESCALATE && this != EXPIRE;
  }
}
