package dev.asa.integrity;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * The bar an evaluator must clear to be assigned from the pool (whitepaper 3.6.1): a minimum number
 * of prior evaluations, a canary pass rate at least a threshold, and a calibration deviation within
 * bounds. An evaluator that falls below a bound leaves the pool and returns when it recovers: the
 * policy judges the record as it is now, it remembers nothing.
 *
 * <p>The whitepaper sets the first two (50, 90%) and leaves the deviation open; 10 points on the
 * 0-100 scale is the default here: a judge 10 points off on average moves most agreements across a
 * payment tier, which is exactly what calibration is there to stop.
 *
 * <p>Canaries alone do not make a judge trusted with a verdict by itself (issue 53): an evaluator
 * that clears the bar by canaries is on probation until it has {@code minConsensusSamples} scores
 * of real work compared with other evaluators' scores of the same deliverable (a panel's
 * consensus). On probation it may be drawn, but onto a panel only as a minority, and alone only
 * when nobody off probation can be ({@code Screening}, {@code Assignment}).
 *
 * @param minEvaluations the fewest evaluations (canaries included)
 * @param minCanaryPassRate the lowest canary pass rate, a fraction from 0 to 1
 * @param maxDeviationPoints the largest mean absolute calibration deviation, in score points
 * @param minConsensusSamples the fewest scores of real work compared with a consensus before an
 *     evaluator is off probation (0: nobody is on probation)
 */
public record QualificationPolicy(
    int minEvaluations,
    BigDecimal minCanaryPassRate,
    BigDecimal maxDeviationPoints,
    int minConsensusSamples) {

  // Before DEFAULTS: the constructor that builds DEFAULTS reads it.
  private static final BigDecimal HUNDRED = BigDecimal.valueOf(100);

  /** Scores of real work beside others before probation ends: a panel of three, four deliveries. */
  public static final int DEFAULT_MIN_CONSENSUS_SAMPLES = 12;

  public static final QualificationPolicy DEFAULTS =
      new QualificationPolicy(
          50, new BigDecimal("0.90"), BigDecimal.TEN, DEFAULT_MIN_CONSENSUS_SAMPLES);

  /** The bar with the default probation ({@link #DEFAULT_MIN_CONSENSUS_SAMPLES}). */
  public QualificationPolicy(
      int minEvaluations, BigDecimal minCanaryPassRate, BigDecimal maxDeviationPoints) {
    this(minEvaluations, minCanaryPassRate, maxDeviationPoints, DEFAULT_MIN_CONSENSUS_SAMPLES);
  }

  public QualificationPolicy {
    Objects.requireNonNull(minCanaryPassRate, "minCanaryPassRate");
    Objects.requireNonNull(maxDeviationPoints, "maxDeviationPoints");
    if (minConsensusSamples < 0) {
      throw new IllegalArgumentException(
          "the minimum consensus samples must not be negative, got " + minConsensusSamples);
    }
    if (minEvaluations < 0) {
      throw new IllegalArgumentException(
          "the minimum number of evaluations must not be negative, got " + minEvaluations);
    }
    if (minCanaryPassRate.signum() < 0 || minCanaryPassRate.compareTo(BigDecimal.ONE) > 0) {
      throw new IllegalArgumentException(
          "the canary pass rate is a fraction from 0 to 1 (0.9 for 90%), got "
              + minCanaryPassRate.toPlainString());
    }
    if (maxDeviationPoints.signum() < 0 || maxDeviationPoints.compareTo(HUNDRED) > 0) {
      throw new IllegalArgumentException(
          "the calibration deviation is from 0 to 100 score points, got "
              + maxDeviationPoints.toPlainString());
    }
  }

  /** Judges a record and the operator's standing; every unmet bound is a reason. */
  public Qualification assess(TrackRecord record, Standing standing) {
    Objects.requireNonNull(record, "record");
    Objects.requireNonNull(standing, "standing");
    List<String> reasons = new ArrayList<>();
    if (standing instanceof Standing.Suspended s) {
      reasons.add("suspended by the operator: " + s.note());
    }
    if (record.evaluations() < minEvaluations) {
      reasons.add(
          "has "
              + record.evaluations()
              + " evaluation"
              + (record.evaluations() == 1 ? "" : "s")
              + "; needs "
              + minEvaluations);
    }
    if (minCanaryPassRate.signum() > 0) {
      if (record.canaryTasks() == 0) {
        reasons.add(
            "has taken no canary task yet; needs a canary pass rate of at least "
                + percent(minCanaryPassRate));
      } else if (!record.passRateAtLeast(minCanaryPassRate)) {
        reasons.add(
            "passed "
                + record.canaryPasses()
                + " of "
                + record.canaryTasks()
                + " canary tasks ("
                + percent(record.canaryPassRate().orElseThrow())
                + "); needs at least "
                + percent(minCanaryPassRate));
      }
    }
    Deviation overall = record.calibration().overall();
    if (overall.samples() == 0 && maxDeviationPoints.compareTo(HUNDRED) < 0) {
      reasons.add(
          "has no calibration yet (no canary or shared deliverable scored); needs a deviation of"
              + " at most "
              + maxDeviationPoints.toPlainString()
              + " points");
    } else if (overall.samples() > 0) {
      BigDecimal mean = overall.meanAbsolute().orElseThrow();
      if (mean.compareTo(maxDeviationPoints) > 0) {
        BigDecimal bias = overall.bias().orElseThrow();
        String worst =
            record
                .calibration()
                .worstDimension()
                .map(e -> "; worst dimension " + e.getKey() + ": " + e.getValue().toPlainString())
                .orElse("");
        reasons.add(
            "its scores deviate "
                + mean.toPlainString()
                + " points on average from known and consensus scores ("
                + (bias.signum() > 0 ? "lenient" : bias.signum() < 0 ? "harsh" : "unbiased")
                + ", bias "
                + (bias.signum() > 0 ? "+" : "")
                + bias.toPlainString()
                + worst
                + "); at most "
                + maxDeviationPoints.toPlainString()
                + " allowed");
      }
    }
    if (!reasons.isEmpty()) {
      return new Qualification(reasons);
    }
    int samples = record.calibration().consensusSamples();
    if (samples >= minConsensusSamples) {
      return Qualification.QUALIFIED;
    }
    return new Qualification(
        List.of(),
        "on probation: has "
            + samples
            + " score"
            + (samples == 1 ? "" : "s")
            + " of real work compared with other evaluators'; needs "
            + minConsensusSamples
            + " (earned on panels, where it sits as a minority until then)");
  }

  /** 0.9 -> "90%", 0.9167 -> "91.7%". */
  static String percent(BigDecimal fraction) {
    BigDecimal p =
        fraction.multiply(HUNDRED).setScale(1, RoundingMode.HALF_EVEN).stripTrailingZeros();
    return (p.scale() < 0 ? p.setScale(0) : p).toPlainString() + "%";
  }
}
