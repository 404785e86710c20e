package dev.asa.scoring;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import dev.asa.agreement.CompositeMethod;
import dev.asa.agreement.Dimension;
import dev.asa.agreement.Escrow;
import dev.asa.agreement.MetricType;
import dev.asa.agreement.QualityCriteria;
import dev.asa.agreement.QualityGate;
import dev.asa.agreement.Slo;
import dev.asa.json.Json;
import java.math.BigDecimal;
import java.math.MathContext;
import java.math.RoundingMode;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.stream.Collectors;

/**
 * Turns per-dimension scores and named check results into a {@link Scorecard}: each dimension
 * against its SLO and shadow SLO, the composite, each quality gate, and the determination.
 *
 * <p>Pure: no I/O, no clock. The rules, in the order they apply:
 *
 * <ol>
 *   <li>Every score must fit its dimension's metric (boolean 0 or 100; percentage and score 0..100;
 *       count and duration non-negative), or {@link IllegalArgumentException}.
 *   <li>Every dimension that carries weight must have a score, or {@link
 *       IncompleteScoresException}: a composite is never guessed.
 *   <li>The composite combines the weighted dimensions by {@code composite_method}, weights
 *       normalised by their sum, and is rounded half-even to 3 decimals. That rounded value is both
 *       reported and compared with the threshold, so anyone recomputing from the reported numbers
 *       reaches the same determination.
 *   <li>FAIL if the gates fail (nothing released); otherwise PASS iff composite >= threshold
 *       (NOTES.md, "Decisions"). SLO and shadow misses are always reported and listed in the notes;
 *       only a gate such as {@code all_slos_met} makes them binding.
 * </ol>
 */
public final class Scorer {

  /**
   * The structural check that a deliverable is what its declared format says. It always counts: a
   * deliverable that fails it fails the verification, whatever the criteria's dimensions and gates,
   * as if every agreement carried the gate {@code format_valid}; docs/verification.md promises
   * format checks that always run, and a check that could be ignored would not be one.
   */
  public static final String FORMAT_VALID = "format_valid";

  /** Decimals of the reported composite and confidence. */
  static final int SCALE = 3;

  private static final BigDecimal HUNDRED = BigDecimal.valueOf(100);
  private static final MathContext EXACT_ENOUGH = MathContext.DECIMAL128;
  private static final JsonNodeFactory NODES = Json.mapper().getNodeFactory();

  private Scorer() {}

  /** Scores without payment terms: the release percentage is then 100 on PASS and 0 on FAIL. */
  public static Scorecard score(
      QualityCriteria criteria,
      Map<String, DimensionInput> inputs,
      Map<String, CheckResult> checks) {
    return score(criteria, null, inputs, checks);
  }

  /**
   * Scores against the criteria; the release percentage follows {@code payment} (see {@link
   * Release#percent}).
   *
   * @param payment the agreement's payment terms, or null when there is no escrow
   * @param inputs dimension name to its input; names must be dimensions of the criteria
   * @param checks named check results (format_valid, all_tests_pass...), used by quality gates
   * @throws IllegalArgumentException if an input names an unknown dimension, a score does not fit
   *     its metric, or a shadow value is given for a dimension without a shadow metric
   * @throws IncompleteScoresException if a dimension with weight has no score
   */
  public static Scorecard score(
      QualityCriteria criteria,
      Escrow.Payment payment,
      Map<String, DimensionInput> inputs,
      Map<String, CheckResult> checks) {
    Objects.requireNonNull(criteria, "criteria");
    Objects.requireNonNull(inputs, "inputs");
    Objects.requireNonNull(checks, "checks");
    requireKnownDimensions(criteria, inputs);

    List<Scored> scored = new ArrayList<>();
    for (Dimension dimension : criteria.dimensions()) {
      scored.add(scoreDimension(dimension, inputs.get(dimension.name())));
    }
    requireWeightedScores(scored);

    BigDecimal compositeScore = composite(criteria.compositeMethod(), weightedScores(scored));
    CompositeResult composite =
        new CompositeResult(
            compositeScore,
            criteria.compositeMethod(),
            criteria.compositeThreshold(),
            compositeScore.compareTo(criteria.compositeThreshold()) >= 0);

    Misses misses = Misses.of(scored);
    List<GateResult> gates = new ArrayList<>();
    for (QualityGate gate : criteria.gates()) {
      gates.add(gate(gate, scored, composite, misses, checks));
    }
    boolean criteriaGatesPassed = gatesPass(gates, criteria.gateLogic());
    GateResult formatFailure = formatFailure(checks);
    if (formatFailure != null && !hasCheckGate(criteria, FORMAT_VALID)) {
      gates.add(formatFailure);
    }
    boolean gatesPassed = criteriaGatesPassed && formatFailure == null;

    boolean passed = gatesPassed && composite.passed();
    Determination determination =
        new Determination(
            passed ? Determination.PASS : Determination.FAIL,
            Release.percent(payment, compositeScore, gatesPassed, passed),
            confidence(scored),
            notes(
                gates.stream().filter(g -> g != formatFailure).toList(),
                criteria.gateLogic(),
                criteriaGatesPassed,
                formatFailure,
                composite,
                misses));

    return new Scorecard(
        scored.stream().map(Scored::result).toList(),
        composite,
        gates,
        criteria.gateLogic(),
        gatesPassed,
        determination);
  }

  /**
   * A failed {@value #FORMAT_VALID} check (JSON that does not parse, CSV with uneven rows: the
   * deliverable is not what its declared format says), as the gate every agreement carries whether
   * or not its criteria name it; null when the check passed or was not reported.
   */
  private static GateResult formatFailure(Map<String, CheckResult> checks) {
    CheckResult format = checks.get(FORMAT_VALID);
    if (format == null || format.passed()) {
      return null;
    }
    return new GateResult(
        FORMAT_VALID,
        false,
        format.evidence() != null ? format.evidence() : FORMAT_VALID + " failed");
  }

  private static boolean hasCheckGate(QualityCriteria criteria, String name) {
    return criteria.gates().stream()
        .anyMatch(
            g -> g.condition() instanceof QualityGate.Condition.Check c && c.name().equals(name));
  }

  // ------------------------------------------------------------------ dimensions

  /** A dimension of the criteria with its input (null if none was submitted) and its result. */
  private record Scored(Dimension dimension, DimensionInput input, DimensionResult result) {
    BigDecimal score() {
      return result.score();
    }
  }

  private static void requireKnownDimensions(
      QualityCriteria criteria, Map<String, DimensionInput> inputs) {
    for (Map.Entry<String, DimensionInput> entry : inputs.entrySet()) {
      if (criteria.dimension(entry.getKey()).isEmpty()) {
        throw new IllegalArgumentException(
            "a score was submitted for '"
                + entry.getKey()
                + "', which is not a dimension of the quality criteria");
      }
      if (!entry.getValue().name().equals(entry.getKey())) {
        throw new IllegalArgumentException(
            "the input filed under '"
                + entry.getKey()
                + "' is for dimension '"
                + entry.getValue().name()
                + "'");
      }
    }
  }

  private static Scored scoreDimension(Dimension dimension, DimensionInput input) {
    if (dimension.weight().signum() < 0) {
      throw new IllegalArgumentException(
          "dimension '" + dimension.name() + "' has a negative weight");
    }
    BigDecimal score = input == null ? null : input.score();
    if (score != null) {
      requireFitsMetric(dimension, score);
    }
    if (input != null && input.shadowValue() != null && !dimension.hasShadow()) {
      throw new IllegalArgumentException(
          "a shadow value was submitted for dimension '"
              + dimension.name()
              + "', which has no shadow metric");
    }
    String evidence = input == null ? "no score submitted" : input.evidence();
    DimensionResult result =
        new DimensionResult(
            dimension.name(),
            score,
            wireTarget(dimension.slo()),
            score != null && dimension.slo().isMetBy(score),
            evidence,
            dimension.hasShadow() ? shadow(dimension, input) : null);
    return new Scored(dimension, input, result);
  }

  private static void requireFitsMetric(Dimension dimension, BigDecimal score) {
    String problem =
        switch (dimension.metric()) {
          case BOOLEAN ->
              score.compareTo(BigDecimal.ZERO) == 0 || score.compareTo(HUNDRED) == 0
                  ? null
                  : "is boolean, so its score must be 100 (true) or 0 (false)";
          case PERCENTAGE, SCORE ->
              score.signum() >= 0 && score.compareTo(HUNDRED) <= 0
                  ? null
                  : "is a "
                      + dimension.metric().wireName()
                      + ", so its score must be between 0 and 100";
          case COUNT, DURATION_SECONDS ->
              score.signum() >= 0
                  ? null
                  : "is a " + dimension.metric().wireName() + ", so its score cannot be negative";
        };
    if (problem != null) {
      throw new IllegalArgumentException(
          "dimension '" + dimension.name() + "' " + problem + "; got " + score.toPlainString());
    }
  }

  private static ShadowResult shadow(Dimension dimension, DimensionInput input) {
    BigDecimal value = input == null ? null : input.shadowValue();
    Slo slo = dimension.shadowSlo();
    return new ShadowResult(
        dimension.shadowMetric(),
        value,
        slo == null ? null : wireTarget(slo),
        value == null || slo == null ? null : slo.isMetBy(value),
        input == null ? null : input.shadowEvidence());
  }

  private static void requireWeightedScores(List<Scored> scored) {
    Map<String, String> missing = new LinkedHashMap<>();
    for (Scored s : scored) {
      if (s.dimension().weight().signum() > 0 && s.score() == null) {
        missing.put(
            s.dimension().name(),
            s.result().evidence() == null ? "not evaluated" : s.result().evidence());
      }
    }
    if (!missing.isEmpty()) {
      throw new IncompleteScoresException(missing);
    }
  }

  /** The SLO target as on the wire, numbers without trailing zeros: 85, true, [10,20]. */
  static JsonNode wireTarget(Slo slo) {
    return switch (slo.target()) {
      case Slo.Target.Number n -> NODES.numberNode(Decimals.normalized(n.value()));
      case Slo.Target.Flag f -> NODES.booleanNode(f.value());
      case Slo.Target.Range r ->
          NODES.arrayNode().add(Decimals.normalized(r.low())).add(Decimals.normalized(r.high()));
    };
  }

  /** "gte 85", "eq true", "between [10,20]". */
  private static String objective(Slo slo) {
    return slo.operator().wireName() + " " + wireTarget(slo);
  }

  // ------------------------------------------------------------------ composite

  /** A score with its (not yet normalised) weight. */
  record WeightedScore(BigDecimal weight, BigDecimal score) {}

  private static List<WeightedScore> weightedScores(List<Scored> scored) {
    return scored.stream()
        .filter(s -> s.dimension().weight().signum() > 0)
        .map(s -> new WeightedScore(s.dimension().weight(), s.score()))
        .toList();
  }

  /**
   * The composite of weighted scores, weights normalised by their sum, rounded half-even to {@value
   * #SCALE} decimals. Weighted average and harmonic mean are computed in decimal; the geometric
   * mean needs logarithms and is computed in double, well within the 3 reported decimals.
   */
  static BigDecimal composite(CompositeMethod method, List<WeightedScore> parts) {
    BigDecimal totalWeight =
        parts.stream().map(WeightedScore::weight).reduce(BigDecimal.ZERO, BigDecimal::add);
    if (totalWeight.signum() <= 0) {
      throw new IllegalArgumentException(
          "no dimension carries weight, so there is no composite to compute");
    }
    boolean anyZero = parts.stream().anyMatch(p -> p.score().signum() == 0);
    BigDecimal value =
        switch (method) {
          case WEIGHTED_AVERAGE ->
              parts.stream()
                  .map(p -> p.weight().multiply(p.score()))
                  .reduce(BigDecimal.ZERO, BigDecimal::add)
                  .divide(totalWeight, EXACT_ENOUGH);
          // A zero score has no logarithm, and it drags both means to 0 in the limit.
          case GEOMETRIC_MEAN ->
              anyZero ? BigDecimal.ZERO : weightedGeometricMean(parts, totalWeight);
          case HARMONIC_MEAN ->
              anyZero
                  ? BigDecimal.ZERO
                  : totalWeight.divide(
                      parts.stream()
                          .map(p -> p.weight().divide(p.score(), EXACT_ENOUGH))
                          .reduce(BigDecimal.ZERO, BigDecimal::add),
                      EXACT_ENOUGH);
          case MINIMUM ->
              parts.stream().map(WeightedScore::score).reduce(BigDecimal::min).orElseThrow();
        };
    return value.setScale(SCALE, RoundingMode.HALF_EVEN);
  }

  private static BigDecimal weightedGeometricMean(
      List<WeightedScore> parts, BigDecimal totalWeight) {
    double weightedLogs = 0;
    for (WeightedScore p : parts) {
      weightedLogs += p.weight().doubleValue() * Math.log(p.score().doubleValue());
    }
    return new BigDecimal(Math.exp(weightedLogs / totalWeight.doubleValue()));
  }

  // ------------------------------------------------------------------ gates

  private static GateResult gate(
      QualityGate gate,
      List<Scored> scored,
      CompositeResult composite,
      Misses misses,
      Map<String, CheckResult> checks) {
    String condition = gate.text();
    return switch (gate.condition()) {
      case QualityGate.Condition.AllSlosMet all ->
          misses.none()
              ? new GateResult(condition, true, "every SLO and measured shadow SLO is met")
              : new GateResult(condition, false, misses.describe());
      case QualityGate.Condition.Threshold t -> threshold(condition, t, scored, composite);
      case QualityGate.Condition.Check c -> check(condition, c.name(), scored, checks);
    };
  }

  private static GateResult threshold(
      String condition,
      QualityGate.Condition.Threshold t,
      List<Scored> scored,
      CompositeResult composite) {
    BigDecimal value;
    if (t.isComposite()) {
      value = composite.score();
    } else {
      Scored subject = find(scored, t.subject());
      if (subject == null) {
        return new GateResult(
            condition, false, "no dimension named '" + t.subject() + "' in the quality criteria");
      }
      if (subject.score() == null) {
        return new GateResult(condition, false, t.subject() + " was not evaluated");
      }
      value = subject.score();
    }
    // Slo holds the one implementation of the comparison operators.
    boolean met = new Slo(t.operator(), new Slo.Target.Number(t.value())).isMetBy(value);
    String comparison = t.operator().symbol() + " " + Decimals.text(t.value());
    String subject = t.subject() + " " + Decimals.text(value);
    return new GateResult(
        condition, met, met ? subject + " " + comparison : subject + " is not " + comparison);
  }

  /**
   * A named check passes on a passing check result of that name or on a boolean dimension of that
   * name scored 100. Should both exist and disagree, the gate fails: a gate is a safety boundary,
   * and one failing witness is enough to doubt it. With neither, the gate fails as not evaluated.
   */
  private static GateResult check(
      String condition, String name, List<Scored> scored, Map<String, CheckResult> checks) {
    List<String> evidence = new ArrayList<>();
    boolean anyPassed = false;
    boolean anyFailed = false;
    CheckResult reported = checks.get(name);
    if (reported != null) {
      anyPassed = reported.passed();
      anyFailed = !reported.passed();
      evidence.add(
          reported.evidence() != null
              ? reported.evidence()
              : name + (reported.passed() ? " passed" : " failed"));
    }
    Scored dimension = find(scored, name);
    if (dimension != null
        && dimension.dimension().metric() == MetricType.BOOLEAN
        && dimension.score() != null) {
      boolean isTrue = dimension.score().compareTo(HUNDRED) == 0;
      anyPassed |= isTrue;
      anyFailed |= !isTrue;
      evidence.add("boolean dimension " + name + " scored " + Decimals.text(dimension.score()));
    }
    if (evidence.isEmpty()) {
      return new GateResult(condition, false, "not evaluated: no evaluator reported " + name);
    }
    return new GateResult(condition, anyPassed && !anyFailed, String.join("; ", evidence));
  }

  private static boolean gatesPass(List<GateResult> gates, QualityGate.Logic logic) {
    if (gates.isEmpty()) {
      return true;
    }
    return switch (logic) {
      case ALL_MUST_PASS -> gates.stream().allMatch(GateResult::passed);
      case ANY_MUST_PASS -> gates.stream().anyMatch(GateResult::passed);
    };
  }

  private static Scored find(List<Scored> scored, String name) {
    return scored.stream().filter(s -> s.dimension().name().equals(name)).findFirst().orElse(null);
  }

  // ------------------------------------------------------------------ determination

  /**
   * Every objective that is not met, for the {@code all_slos_met} gate and for the notes: SLO
   * misses ("accuracy 80 (gte 85)"), shadow misses, and dimensions without a score (possible only
   * with weight 0), which cannot be shown to meet their SLO.
   */
  private record Misses(List<String> slo, List<String> shadow, List<String> unscored) {
    static Misses of(List<Scored> scored) {
      List<String> slo = new ArrayList<>();
      List<String> shadow = new ArrayList<>();
      List<String> unscored = new ArrayList<>();
      for (Scored s : scored) {
        Dimension d = s.dimension();
        if (s.score() == null) {
          unscored.add(d.name());
        } else if (!s.result().sloMet()) {
          slo.add(d.name() + " " + Decimals.text(s.score()) + " (" + objective(d.slo()) + ")");
        }
        ShadowResult sh = s.result().shadow();
        if (sh != null && sh.missed()) {
          shadow.add(
              sh.name() + " " + Decimals.text(sh.value()) + " (" + objective(d.shadowSlo()) + ")");
        }
      }
      return new Misses(slo, shadow, unscored);
    }

    boolean none() {
      return slo.isEmpty() && shadow.isEmpty() && unscored.isEmpty();
    }

    /** "SLO misses: a 80 (gte 85); shadow metric misses: h 7 (lte 5); not evaluated: x". */
    String describe() {
      List<String> parts = new ArrayList<>();
      if (!slo.isEmpty()) {
        parts.add("SLO misses: " + String.join(", ", slo));
      }
      if (!shadow.isEmpty()) {
        parts.add("shadow metric misses: " + String.join(", ", shadow));
      }
      if (!unscored.isEmpty()) {
        parts.add("not evaluated: " + String.join(", ", unscored));
      }
      return String.join("; ", parts);
    }
  }

  /**
   * The weighted mean (by dimension weight) of the confidence stated by the inputs of weighted
   * dimensions; null when none states one. Nothing is invented for inputs that do not say.
   */
  private static BigDecimal confidence(List<Scored> scored) {
    BigDecimal weightSum = BigDecimal.ZERO;
    BigDecimal weighted = BigDecimal.ZERO;
    for (Scored s : scored) {
      BigDecimal weight = s.dimension().weight();
      if (weight.signum() > 0 && s.input() != null && s.input().confidence() != null) {
        weightSum = weightSum.add(weight);
        weighted = weighted.add(weight.multiply(s.input().confidence()));
      }
    }
    if (weightSum.signum() == 0) {
      return null;
    }
    return weighted.divide(weightSum, EXACT_ENOUGH).setScale(SCALE, RoundingMode.HALF_EVEN);
  }

  /**
   * "All SLOs met. Composite score 86.1 exceeds threshold of 75." / "Composite 72.4 is below the
   * threshold of 75; SLO misses: accuracy 80 (gte 85)." / "Quality gate accuracy_gte_80 failed:
   * accuracy 78 is not >= 80. ..."
   */
  private static String notes(
      List<GateResult> gates,
      QualityGate.Logic logic,
      boolean gatesPassed,
      GateResult formatFailure,
      CompositeResult composite,
      Misses misses) {
    List<String> sentences = new ArrayList<>();
    if (formatFailure != null) {
      sentences.add(
          "The deliverable is not what its declared format says ("
              + FORMAT_VALID
              + ", always checked): "
              + clause(formatFailure.evidence())
              + ".");
    }
    if (!gatesPassed) {
      sentences.add(gateSentence(gates, logic));
    }
    String score = Decimals.text(composite.score());
    String threshold = Decimals.text(composite.threshold());
    if (composite.passed()) {
      if (misses.none()) {
        sentences.add("All SLOs met.");
      }
      String verb = composite.score().compareTo(composite.threshold()) == 0 ? "meets" : "exceeds";
      sentences.add("Composite score " + score + " " + verb + " threshold of " + threshold + ".");
      if (!misses.none()) {
        sentences.add(capitalize(misses.describe()) + ".");
      }
    } else {
      sentences.add(
          "Composite "
              + score
              + " is below the threshold of "
              + threshold
              + "; "
              + (misses.none() ? "all SLOs met" : misses.describe())
              + ".");
    }
    return String.join(" ", sentences);
  }

  private static String gateSentence(List<GateResult> gates, QualityGate.Logic logic) {
    List<GateResult> failed = gates.stream().filter(g -> !g.passed()).toList();
    String each =
        failed.stream()
            .map(g -> g.condition() + ": " + clause(g.evidence()))
            .collect(Collectors.joining("; "));
    if (logic == QualityGate.Logic.ANY_MUST_PASS) {
      return "No quality gate passed (any_must_pass): " + each + ".";
    }
    if (failed.size() == 1) {
      return "Quality gate "
          + failed.get(0).condition()
          + " failed: "
          + clause(failed.get(0).evidence())
          + ".";
    }
    return "Quality gates "
        + failed.stream().map(GateResult::condition).collect(Collectors.joining(", "))
        + " failed: "
        + each
        + ".";
  }

  /** Evidence used inside a sentence of the notes, without its own final full stop. */
  private static String clause(String evidence) {
    String text = evidence.strip();
    return text.endsWith(".") ? text.substring(0, text.length() - 1) : text;
  }

  private static String capitalize(String text) {
    return text.isEmpty() ? text : Character.toUpperCase(text.charAt(0)) + text.substring(1);
  }
}
