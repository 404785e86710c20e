package dev.asa.negotiation;

import java.util.Arrays;
import java.util.Locale;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * Why a negotiation message asks for what it asks. A fixed list on purpose: a reason is one of
 * these codes and never prose, so a message has no slot where text aimed at the other party's
 * language model could travel (whitepaper section 7, "rationale_code from fixed enum").
 */
public enum RationaleCode {
  /** More time is asked for (or given) in exchange for a higher quality target. */
  EXTENDED_TIMELINE_FOR_HIGHER_QUALITY,
  /** Less work is asked for, so the price or the resources go down. */
  REDUCED_SCOPE,
  /** The price moves towards the market median for the service type. */
  MARKET_RATE_ALIGNMENT,
  /** A quality target (an SLO, a weight, the composite threshold) changes. */
  QUALITY_REQUIREMENT_CHANGE,
  /** The provider cannot deliver within the current tokens, time or cost. */
  RESOURCE_CONSTRAINTS,
  /** Timeouts, challenge window or release mode change to rebalance who bears a risk. */
  RISK_ADJUSTMENT,
  /** The client cannot pay more than a budget it has. */
  BUDGET_LIMIT,
  /** The terms are accepted as they stand (goes with {@code accept}). */
  ACCEPT_AS_PROPOSED,
  /** The sender sees no agreement within reach (goes with {@code reject}). */
  NO_AGREEMENT_POSSIBLE;

  /** The snake_case name used on the wire. */
  public String wireName() {
    return name().toLowerCase(Locale.ROOT);
  }

  /** The code with this exact wire name; no case folding, no trimming. */
  public static Optional<RationaleCode> fromWire(String name) {
    for (RationaleCode c : values()) {
      if (c.wireName().equals(name)) {
        return Optional.of(c);
      }
    }
    return Optional.empty();
  }

  /** All wire names, for error messages. */
  public static String wireNames() {
    return Arrays.stream(values()).map(RationaleCode::wireName).collect(Collectors.joining(", "));
  }
}
