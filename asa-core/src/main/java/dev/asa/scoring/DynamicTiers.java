package dev.asa.scoring;

import dev.asa.agreement.DynamicTiersTerms;
import dev.asa.agreement.Tier;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Dynamic tiers, the third cliff-optimisation mitigation of whitepaper 8.2: a {@code
 * composite_score_gte} boundary that a provider's recent scores cluster just above moves up, so
 * that delivering just enough to clear it stops paying.
 *
 * <p>Each boundary B is judged on its own, as written in the agreement, against the last {@code
 * window} scores: when there are at least {@value #MIN_SCORES} of them and at least {@code
 * minShare} of them lie in {@code [B, B + bandPoints)}, B moves to {@code B + shiftPoints}, never
 * above 100. A {@code composite_score_lt} tier with the same boundary moves with it, so that every
 * score still matches exactly one tier. A pure function: the same inputs always give the same
 * tiers.
 *
 * <p>The agreement rules keep neighbouring boundaries further apart than a shift can reach, so a
 * moved boundary never meets or passes the next one.
 */
public final class DynamicTiers {

  /** Fewer scores than this say nothing about a habit: nothing moves. */
  public static final int MIN_SCORES = 3;

  private static final BigDecimal HUNDRED = BigDecimal.valueOf(100);

  /** Shares are recorded with four decimals (0.6667); the decision itself is exact. */
  private static final int SHARE_SCALE = 4;

  private DynamicTiers() {}

  /**
   * The tiers to pay by, in the same order as {@code tiers} (so that threshold-noise offset {@code
   * i} still belongs to tier {@code i}), and the boundaries that moved.
   *
   * @param pastScores the provider's earlier composite scores, most recent last, not including the
   *     one being paid for
   */
  public static Adjustment adjust(
      List<Tier> tiers, List<BigDecimal> pastScores, DynamicTiersTerms terms) {
    Objects.requireNonNull(tiers, "tiers");
    Objects.requireNonNull(pastScores, "pastScores");
    Objects.requireNonNull(terms, "terms");
    List<BigDecimal> recent =
        pastScores.subList(Math.max(0, pastScores.size() - terms.window()), pastScores.size());
    recent.forEach(s -> Objects.requireNonNull(s, "a past score is null"));
    if (!terms.enabled() || recent.size() < MIN_SCORES) {
      return new Adjustment(tiers, List.of(), recent.size());
    }

    // Distinct gte boundaries by value (75 and 75.0 are one boundary), in first-listed order so
    // that the moves are recorded in a stable order.
    Map<BigDecimal, BigDecimal> targets = new LinkedHashMap<>();
    List<Move> moves = new ArrayList<>();
    for (Tier t : tiers) {
      BigDecimal b = t.score();
      if (t.bound() != Tier.Bound.GTE || targets.containsKey(b.stripTrailingZeros())) {
        continue;
      }
      BigDecimal bandEnd = b.add(terms.bandPoints());
      int inBand = 0;
      for (BigDecimal s : recent) {
        if (s.compareTo(b) >= 0 && s.compareTo(bandEnd) < 0) {
          inBand++;
        }
      }
      // inBand / n >= minShare, compared without division so that 0.5 of 10 is exactly 5.
      boolean clustered =
          BigDecimal.valueOf(inBand)
                  .compareTo(terms.minShare().multiply(BigDecimal.valueOf(recent.size())))
              >= 0;
      BigDecimal to = clustered ? b.add(terms.shiftPoints()).min(HUNDRED) : b;
      targets.put(b.stripTrailingZeros(), to);
      if (to.compareTo(b) != 0) {
        BigDecimal share =
            BigDecimal.valueOf(inBand)
                .divide(BigDecimal.valueOf(recent.size()), SHARE_SCALE, RoundingMode.HALF_EVEN);
        moves.add(new Move(b, to, share, inBand));
      }
    }
    if (moves.isEmpty()) {
      return new Adjustment(tiers, List.of(), recent.size());
    }
    List<Tier> adjusted = new ArrayList<>(tiers.size());
    for (Tier t : tiers) {
      // An lt tier moves only when a gte tier has its boundary; a lone lt tier keeps its own.
      BigDecimal to = targets.getOrDefault(t.score().stripTrailingZeros(), t.score());
      adjusted.add(to.compareTo(t.score()) == 0 ? t : new Tier(t.bound(), to, t.releasePercent()));
    }
    return new Adjustment(adjusted, moves, recent.size());
  }

  /**
   * What {@link #adjust} decided.
   *
   * @param tiers the tiers to pay by, in the order given
   * @param moves one per boundary that moved, for the audit record
   * @param scoresConsidered how many past scores were looked at (at most the window)
   */
  public record Adjustment(List<Tier> tiers, List<Move> moves, int scoresConsidered) {
    public Adjustment {
      tiers = List.copyOf(tiers);
      moves = List.copyOf(moves);
      if (scoresConsidered < 0) {
        throw new IllegalArgumentException(
            "scoresConsidered cannot be negative, got " + scoresConsidered);
      }
    }

    /** The tiers as given, nothing moved and nothing looked at. */
    public static Adjustment unchanged(List<Tier> tiers) {
      return new Adjustment(tiers, List.of(), 0);
    }

    public boolean moved() {
      return !moves.isEmpty();
    }
  }

  /**
   * One boundary that moved.
   *
   * @param from the boundary as written in the agreement
   * @param to where it moved, never above 100
   * @param share the share of the looked-at scores in {@code [from, from + bandPoints)}, four
   *     decimals
   * @param scoresInBand how many of the looked-at scores lay in that band
   */
  public record Move(BigDecimal from, BigDecimal to, BigDecimal share, int scoresInBand) {
    public Move {
      Objects.requireNonNull(from, "from");
      Objects.requireNonNull(to, "to");
      Objects.requireNonNull(share, "share");
    }
  }
}
