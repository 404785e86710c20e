package dev.asa.integrity;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.asa.json.Json;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.Collections;
import java.util.HashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.TreeMap;

/**
 * What an evaluator has done, as the registry shows it and qualification judges it.
 *
 * <p>A canary counts as an evaluation when answered: the evaluator cannot tell it from real work,
 * and it is how a newly registered evaluator earns its first evaluations. An unanswered canary
 * counts only as a failed canary.
 *
 * @param evaluations tasks completed, real and canary
 * @param canaryTasks canary tasks given (answered or not)
 * @param canaryPasses canary tasks passed
 * @param calibration deviation from known and consensus scores
 * @param consecutiveByProvider per provider (its key id, base64url), how many of its latest
 *     deliveries in a row this evaluator assessed; a provider whose latest delivery someone else
 *     assessed is absent (what rotation bounds)
 */
public record TrackRecord(
    int evaluations,
    int canaryTasks,
    int canaryPasses,
    Calibration calibration,
    Map<String, Integer> consecutiveByProvider) {

  /** A newly registered evaluator. */
  public static final TrackRecord NEW = new TrackRecord(0, 0, 0, Calibration.EMPTY, Map.of());

  /** Pass rates are shown as fractions to four decimals (0.9167). */
  public static final int RATE_SCALE = 4;

  public TrackRecord {
    Objects.requireNonNull(calibration, "calibration");
    if (evaluations < 0 || canaryTasks < 0 || canaryPasses < 0) {
      throw new IllegalArgumentException("counts are never negative");
    }
    if (canaryPasses > canaryTasks) {
      throw new IllegalArgumentException(
          "cannot pass " + canaryPasses + " of " + canaryTasks + " canary tasks");
    }
    consecutiveByProvider = Collections.unmodifiableSortedMap(new TreeMap<>(consecutiveByProvider));
    for (var e : consecutiveByProvider.entrySet()) {
      if (e.getValue() < 1) {
        throw new IllegalArgumentException(
            "a streak is at least 1 (leave provider " + e.getKey() + " out instead)");
      }
    }
  }

  /** passes / tasks to four decimals; empty before the first canary. */
  public Optional<BigDecimal> canaryPassRate() {
    if (canaryTasks == 0) {
      return Optional.empty();
    }
    return Optional.of(
        BigDecimal.valueOf(canaryPasses)
            .divide(BigDecimal.valueOf(canaryTasks), RATE_SCALE, RoundingMode.HALF_EVEN));
  }

  /**
   * Whether the pass rate is at least {@code rate}, exactly (17 of 20 is not 0.85000001); false
   * before the first canary.
   */
  public boolean passRateAtLeast(BigDecimal rate) {
    return canaryTasks > 0
        && BigDecimal.valueOf(canaryPasses)
                .compareTo(rate.multiply(BigDecimal.valueOf(canaryTasks)))
            >= 0;
  }

  /** Whether the pass rate is strictly above {@code rate}; false before the first canary. */
  public boolean passRateAbove(BigDecimal rate) {
    return canaryTasks > 0
        && BigDecimal.valueOf(canaryPasses)
                .compareTo(rate.multiply(BigDecimal.valueOf(canaryTasks)))
            > 0;
  }

  /** How many of the provider's latest deliveries in a row this evaluator assessed. */
  public int consecutiveFor(String providerId) {
    return consecutiveByProvider.getOrDefault(providerId, 0);
  }

  /** After a canary: an evaluation if answered, a canary, a pass if passed, its calibration. */
  public TrackRecord withCanary(CanaryCheck check) {
    Calibration c = calibration;
    for (var d : check.deviations().entrySet()) {
      c = c.plusKnown(d.getKey(), d.getValue());
    }
    return new TrackRecord(
        evaluations + (check.answered() ? 1 : 0),
        canaryTasks + 1,
        canaryPasses + (check.passed() ? 1 : 0),
        c,
        consecutiveByProvider);
  }

  /** After it assessed a delivery of the provider: one more evaluation, its streak one longer. */
  public TrackRecord withEvaluationOf(String providerId) {
    Map<String, Integer> streaks = new HashMap<>(consecutiveByProvider);
    streaks.merge(providerId, 1, Integer::sum);
    return new TrackRecord(evaluations + 1, canaryTasks, canaryPasses, calibration, streaks);
  }

  /** After someone else assessed a delivery of the provider: its streak with that provider ends. */
  public TrackRecord withProviderAssessedByAnother(String providerId) {
    if (!consecutiveByProvider.containsKey(providerId)) {
      return this;
    }
    Map<String, Integer> streaks = new HashMap<>(consecutiveByProvider);
    streaks.remove(providerId);
    return new TrackRecord(evaluations, canaryTasks, canaryPasses, calibration, streaks);
  }

  /** With more calibration (e.g. against the consensus of a multi-evaluator verification). */
  public TrackRecord withCalibration(Calibration more) {
    return new TrackRecord(
        evaluations, canaryTasks, canaryPasses, calibration.plus(more), consecutiveByProvider);
  }

  /**
   * {@code {"evaluations", "canary_tasks", "canary_pass_rate"?, "calibration_deviation"?,
   * "calibration", "consecutive_by_provider"}}, as {@code GET /evaluators/{key}} shows it.
   */
  public ObjectNode toJson() {
    ObjectNode o = Json.object();
    o.put("evaluations", evaluations);
    o.put("canary_tasks", canaryTasks);
    o.put("canary_passes", canaryPasses);
    canaryPassRate().ifPresent(r -> o.put("canary_pass_rate", r));
    calibration.overall().meanAbsolute().ifPresent(d -> o.put("calibration_deviation", d));
    o.set("calibration", calibration.toJson());
    ObjectNode streaks = o.putObject("consecutive_by_provider");
    consecutiveByProvider.forEach(streaks::put);
    return o;
  }
}
