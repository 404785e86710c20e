package dev.asa.shadow;

/**
 * What enforcement does with a validated deliverable (shadow-scoring.md, Shadow Score Integration),
 * decided on the exact fraction like the levels: 17/113 (shown 15.0) is above 15 and warns.
 */
public enum Gate {
  /** At most 15%: proceed. */
  PROCEED("proceed"),
  /** Above 15, at most 30%: proceed with the report attached as a warning. */
  PROCEED_WITH_WARNING("proceed_with_warning"),
  /** Above 30, at most 50%: quarantine (payment held, the case goes to review with the report). */
  QUARANTINE("quarantine"),
  /** Above 50%: fail. */
  FAIL("fail"),
  /** The seal did not hold: no score may be enforced, whatever it is. */
  BLOCKED("blocked");

  private final String wire;

  Gate(String wire) {
    this.wire = wire;
  }

  public String wire() {
    return wire;
  }

  public static Gate of(ShadowScore score, boolean sealBroken) {
    if (sealBroken) {
      return BLOCKED;
    }
    return switch (score.level()) {
      case PERFECT, MINOR -> PROCEED;
      case MODERATE -> PROCEED_WITH_WARNING;
      case SIGNIFICANT -> QUARANTINE;
      case CRITICAL -> FAIL;
    };
  }
}
