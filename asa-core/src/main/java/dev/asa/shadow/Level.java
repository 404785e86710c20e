package dev.asa.shadow;

/**
 * The interpretation scale of the Shadow Score. The bounds are upper-inclusive (15% exactly is
 * still minor) and are applied to the exact fraction failed/total, never to the rounded percentage:
 * 17/113 is 15.04%, shown as 15.0 but moderate.
 */
public enum Level {
  PERFECT("perfect"),
  MINOR("minor"),
  MODERATE("moderate"),
  SIGNIFICANT("significant"),
  CRITICAL("critical");

  private final String wire;

  Level(String wire) {
    this.wire = wire;
  }

  public String wire() {
    return wire;
  }

  /** The level of {@code failed} failures out of {@code total} tests; an empty suite is perfect. */
  public static Level of(long failed, long total) {
    if (failed < 0 || total < 0 || failed > total) {
      throw new IllegalArgumentException(
          "failed must be from 0 to total, not " + failed + " of " + total);
    }
    if (failed == 0) {
      return PERFECT;
    }
    // failed/total <= p/100  <=>  failed*100 <= p*total: integers, so no rounding can move a case.
    long percentTimesTotal = failed * 100;
    if (percentTimesTotal <= 15 * total) {
      return MINOR;
    }
    if (percentTimesTotal <= 30 * total) {
      return MODERATE;
    }
    if (percentTimesTotal <= 50 * total) {
      return SIGNIFICANT;
    }
    return CRITICAL;
  }
}
