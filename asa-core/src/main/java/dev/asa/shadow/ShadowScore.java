package dev.asa.shadow;

import java.math.BigDecimal;
import java.math.RoundingMode;

/**
 * The Shadow Score of a sealed suite: failed / total x 100.
 *
 * <p>Two numbers come out of one fraction and they must not be confused: the {@link #level()} is
 * classified on the exact fraction, the {@link #percentage()} is what is shown, rounded half-even
 * to one decimal. Deciding the level from the shown number would make 17/113 (15.04%) minor.
 *
 * @param total sealed tests run
 * @param failed sealed tests that did not pass
 */
public record ShadowScore(int total, int failed) {

  /** Why an empty suite's score is not authoritative. */
  public static final String NOTHING_SEALED =
      "nothing was sealed: the sealed suite has no tests, so 0.0 shows nothing";

  public ShadowScore {
    if (total < 0 || failed < 0 || failed > total) {
      throw new IllegalArgumentException(
          "failed must be from 0 to total, not " + failed + " of " + total);
    }
  }

  public static ShadowScore of(TestSuite sealed) {
    return new ShadowScore(sealed.total(), sealed.failed());
  }

  public int passed() {
    return total - failed;
  }

  /** The reported score, one decimal, half-even (6.25 is 6.2); 0.0 for an empty suite. */
  public BigDecimal percentage() {
    if (total == 0) {
      return BigDecimal.ZERO.setScale(1);
    }
    // Exact: failed*100/total divided at scale 1 with one rounding, never through a double.
    return BigDecimal.valueOf(failed * 100L)
        .divide(BigDecimal.valueOf(total), 1, RoundingMode.HALF_EVEN);
  }

  public Level level() {
    return Level.of(failed, total);
  }

  /** An empty suite scores 0.0 perfect, but only because there was nothing to fail. */
  public boolean isEmpty() {
    return total == 0;
  }

  /** Whether the reported score is strictly above a threshold (reaching it is not exceeding it). */
  public boolean exceeds(BigDecimal threshold) {
    return percentage().compareTo(threshold) > 0;
  }
}
