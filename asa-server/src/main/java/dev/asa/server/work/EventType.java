package dev.asa.server.work;

import java.util.Locale;

/**
 * What an entry of an agreement's hash-chained event log records; the wire name is its {@code
 * type}.
 */
public enum EventType {
  CREATED,
  NEGOTIATED,
  ACCEPTED,
  REJECTED,
  SEALED,
  SIGNED,
  EVALUATOR_ASSIGNED,
  FUNDED,
  COLLATERAL_STAKED,
  DELIVERED,
  VERIFICATION_REQUESTED,
  HARDENING_OPENED,
  VERIFIED,
  QUARANTINED,
  CHALLENGED,
  EVALUATOR_TIMED_OUT,
  CANARY_CHECKED,
  ESCALATED,
  CLOSED,
  RULED,
  COLLATERAL_SLASHED,
  COLLATERAL_RETURNED,
  EXPIRED,
  /** A party showed its CoC chain holding the agreement's anchor entry (whitepaper 9.1). */
  ANCHORED;

  public String wireName() {
    return name().toLowerCase(Locale.ROOT);
  }
}
