package dev.asa.agreement;

import java.math.BigDecimal;
import java.util.Objects;

/**
 * One release tier: {@code composite_score_gte: 75 -> 85%} or the floor {@code composite_score_lt:
 * 60 -> 0%}. Tiers are matched by value, never by list order.
 */
public record Tier(Bound bound, BigDecimal score, BigDecimal releasePercent) {
  public Tier {
    Objects.requireNonNull(bound, "bound");
    Objects.requireNonNull(score, "score");
    Objects.requireNonNull(releasePercent, "releasePercent");
  }

  public enum Bound {
    GTE,
    LT
  }

  public boolean matches(BigDecimal composite) {
    int c = composite.compareTo(score);
    return bound == Bound.GTE ? c >= 0 : c < 0;
  }
}
