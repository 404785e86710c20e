package dev.asa.integrity;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.asa.agreement.EvaluatorSelection;
import dev.asa.json.Json;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * The evaluator marketplace (whitepaper 3.6.1): among eligible evaluators that meet the agreement's
 * criteria, the best match on track record and price. The order is a plain lexicographic one, so
 * that anyone can recompute it from the recorded figures:
 *
 * <ol>
 *   <li>canary pass rate in whole percent, higher first;
 *   <li>calibration deviation in whole points (rounded up), lower first;
 *   <li>price, lower first (an evaluator that states none comes last);
 *   <li>evaluations, more first;
 *   <li>key, canonical order.
 * </ol>
 *
 * Rates and deviations are compared in whole units on purpose: a 97.3% judge is not better than a
 * 97.1% one in any way that should outweigh a lower price.
 */
public final class Marketplace {
  private Marketplace() {}

  /** The eligible members that meet the criteria, best first, and those that do not. */
  public record Ranking(List<PoolMember> ranked, List<Screening.Exclusion> unmet) {
    public Ranking {
      ranked = List.copyOf(ranked);
      unmet = List.copyOf(unmet);
    }
  }

  public static final Comparator<PoolMember> BEST_FIRST =
      Comparator.comparingInt((PoolMember m) -> -passRatePercent(m.record()))
          .thenComparingInt(m -> deviationPoints(m.record()))
          .thenComparing(
              m -> m.profile().priceUsd(), Comparator.nullsLast(Comparator.naturalOrder()))
          .thenComparingInt(m -> -m.record().evaluations())
          .thenComparing(PoolMember::key, Draw.CANONICAL);

  public static Ranking rank(
      EvaluatorSelection.Marketplace.Criteria criteria, List<PoolMember> eligible) {
    List<PoolMember> meet = new ArrayList<>();
    List<Screening.Exclusion> unmet = new ArrayList<>();
    for (PoolMember m : eligible) {
      List<String> reasons = new ArrayList<>();
      if (criteria.minEvaluations() != null
          && m.record().evaluations() < criteria.minEvaluations()) {
        reasons.add(
            "has "
                + m.record().evaluations()
                + " evaluations; the marketplace criteria ask for "
                + criteria.minEvaluations());
      }
      if (criteria.domain() != null && !m.profile().domains().contains(criteria.domain())) {
        reasons.add("does not declare the domain " + criteria.domain());
      }
      BigDecimal max = criteria.maxPriceUsd();
      if (max != null) {
        BigDecimal price = m.profile().priceUsd();
        if (price == null) {
          reasons.add("states no price; the marketplace criteria cap it at " + max.toPlainString());
        } else if (price.compareTo(max) > 0) {
          reasons.add(
              "charges "
                  + price.toPlainString()
                  + " USD; the marketplace criteria cap it at "
                  + max.toPlainString());
        }
      }
      if (reasons.isEmpty()) {
        meet.add(m);
      } else {
        unmet.add(new Screening.Exclusion(m, ExclusionRule.MARKETPLACE_CRITERIA, reasons));
      }
    }
    meet.sort(BEST_FIRST);
    return new Ranking(meet, unmet);
  }

  /** Whole percent, rounded down; -1 before the first canary (ranks last). */
  static int passRatePercent(TrackRecord r) {
    if (r.canaryTasks() == 0) {
      return -1;
    }
    return (int) (100L * r.canaryPasses() / r.canaryTasks());
  }

  /** Whole points, rounded up; {@link Integer#MAX_VALUE} without calibration (ranks last). */
  static int deviationPoints(TrackRecord r) {
    return r.calibration()
        .overall()
        .meanAbsolute()
        .map(d -> d.setScale(0, RoundingMode.CEILING).intValueExact())
        .orElse(Integer.MAX_VALUE);
  }

  /** The figures the order is computed from, for the assignment's record. */
  static ObjectNode figures(PoolMember m) {
    ObjectNode o = Json.object();
    o.put("key", m.profile().keyId());
    o.put("canary_pass_percent", passRatePercent(m.record()));
    int d = deviationPoints(m.record());
    if (d != Integer.MAX_VALUE) {
      o.put("deviation_points", d);
    }
    if (m.profile().priceUsd() != null) {
      o.put("price_usd", m.profile().priceUsd());
    }
    o.put("evaluations", m.record().evaluations());
    return o;
  }
}
