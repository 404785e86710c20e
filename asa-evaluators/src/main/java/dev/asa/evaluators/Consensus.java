package dev.asa.evaluators;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.asa.agreement.Dimension;
import dev.asa.agreement.MetricType;
import dev.asa.agreement.QualityCriteria;
import dev.asa.json.Json;
import dev.asa.scoring.DimensionInput;
import java.math.BigDecimal;
import java.math.MathContext;
import java.math.RoundingMode;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Several evaluators' inputs for the same dimensions, combined (whitepaper 6.3, PoLL): per
 * dimension the median score, or the majority vote for a pass/fail (boolean) dimension; the spread
 * between evaluators reported; and a confidence that falls as they disagree.
 *
 * <p>Confidence = agreement x certainty. Agreement is {@code 1 - spread/100} for scores and the
 * majority's share for votes; certainty is the mean confidence the evaluators stated (left out when
 * none states one). One evaluator alone keeps its own input and confidence. Nothing here is a
 * constant: evaluators that agree and are sure give a high confidence, and the reverse a low one.
 */
public final class Consensus {

  private static final BigDecimal HUNDRED = BigDecimal.valueOf(100);
  private static final MathContext PRECISION = MathContext.DECIMAL64;

  private Consensus() {}

  /**
   * The combined input of every dimension of the criteria, with a report of each dimension's scores
   * and spread (for the result's {@code consensus} member).
   *
   * @param evaluations one or more evaluations of the same deliverable against {@code criteria}
   */
  public static Combined combine(QualityCriteria criteria, List<Evaluation> evaluations) {
    if (evaluations.isEmpty()) {
      throw new IllegalArgumentException("consensus needs at least one evaluation");
    }
    Map<String, DimensionInput> inputs = new LinkedHashMap<>();
    ObjectNode report = Json.object();
    report.put("method", "median (majority vote for boolean dimensions)");
    ArrayNode ids = report.putArray("evaluators");
    evaluations.forEach(e -> ids.add(e.evaluatorId()));
    ObjectNode perDimension = report.putObject("dimensions");
    for (Dimension dimension : criteria.dimensions()) {
      List<Vote> votes = new ArrayList<>();
      Set<String> reasons = new LinkedHashSet<>();
      for (Evaluation e : evaluations) {
        DimensionInput input = e.dimensions().get(dimension.name());
        if (input != null && input.isEvaluated()) {
          votes.add(new Vote(e.evaluatorId(), input));
        } else if (input != null) {
          reasons.add(input.evidence());
        }
      }
      if (votes.isEmpty()) {
        inputs.put(
            dimension.name(),
            DimensionInput.notEvaluated(
                dimension.name(),
                reasons.isEmpty()
                    ? "no evaluator scored " + dimension.name()
                    : String.join("; ", reasons)));
      } else if (votes.size() == 1 && evaluations.size() == 1) {
        inputs.put(dimension.name(), votes.getFirst().input());
      } else {
        Outcome outcome =
            dimension.metric() == MetricType.BOOLEAN
                ? vote(dimension, votes)
                : median(dimension, votes);
        inputs.put(dimension.name(), outcome.input());
        perDimension.set(dimension.name(), outcome.report());
      }
    }
    return new Combined(inputs, evaluations.size() > 1 ? report : null);
  }

  /**
   * @param inputs one per dimension of the criteria, in their order
   * @param report the {@code consensus} member of the result; null when only one evaluator ran
   */
  public record Combined(Map<String, DimensionInput> inputs, ObjectNode report) {}

  private record Vote(String evaluatorId, DimensionInput input) {}

  private record Outcome(DimensionInput input, ObjectNode report) {}

  private static Outcome median(Dimension dimension, List<Vote> votes) {
    List<Vote> sorted =
        votes.stream().sorted(Comparator.comparing(v -> v.input().score())).toList();
    int n = sorted.size();
    BigDecimal median =
        n % 2 == 1
            ? sorted.get(n / 2).input().score()
            : sorted
                .get(n / 2 - 1)
                .input()
                .score()
                .add(sorted.get(n / 2).input().score())
                .divide(BigDecimal.TWO, PRECISION);
    BigDecimal spread =
        sorted.getLast().input().score().subtract(sorted.getFirst().input().score());
    BigDecimal agreement = clamp(BigDecimal.ONE.subtract(spread.divide(HUNDRED, PRECISION)));
    Vote closest =
        votes.stream()
            .min(Comparator.comparing(v -> v.input().score().subtract(median).abs()))
            .orElseThrow();
    String evidence =
        "median of "
            + n
            + " evaluators ("
            + list(votes)
            + "; spread "
            + plain(spread)
            + "): "
            + closest.input().evidence();
    return outcome(dimension, votes, median, spread, agreement, evidence);
  }

  private static Outcome vote(Dimension dimension, List<Vote> votes) {
    long yes = votes.stream().filter(v -> v.input().score().compareTo(HUNDRED) == 0).count();
    long no = votes.size() - yes;
    // A tie is not a majority for "met": the dimension is then counted as false, and says why.
    boolean verdict = yes > no;
    BigDecimal agreement =
        BigDecimal.valueOf(Math.max(yes, no)).divide(BigDecimal.valueOf(votes.size()), PRECISION);
    String evidence =
        "majority vote of "
            + votes.size()
            + " evaluators ("
            + list(votes)
            + "): "
            + yes
            + " true, "
            + no
            + " false"
            + (yes == no ? ", a tie, counted as false" : "");
    BigDecimal spread = yes > 0 && no > 0 ? HUNDRED : BigDecimal.ZERO;
    return outcome(
        dimension, votes, verdict ? HUNDRED : BigDecimal.ZERO, spread, agreement, evidence);
  }

  private static Outcome outcome(
      Dimension dimension,
      List<Vote> votes,
      BigDecimal score,
      BigDecimal spread,
      BigDecimal agreement,
      String evidence) {
    BigDecimal certainty = meanConfidence(votes);
    BigDecimal confidence =
        (certainty == null ? agreement : agreement.multiply(certainty, PRECISION))
            .setScale(3, RoundingMode.HALF_EVEN);
    DimensionInput input =
        new DimensionInput(dimension.name(), score, evidence, null, null, confidence, "consensus");
    List<BigDecimal> shadows =
        votes.stream()
            .map(v -> v.input().shadowValue())
            .filter(java.util.Objects::nonNull)
            .sorted()
            .toList();
    if (!shadows.isEmpty()) {
      int n = shadows.size();
      BigDecimal shadow =
          n % 2 == 1
              ? shadows.get(n / 2)
              : shadows.get(n / 2 - 1).add(shadows.get(n / 2)).divide(BigDecimal.TWO, PRECISION);
      input =
          input.withShadow(
              shadow,
              "median of "
                  + n
                  + " measured values "
                  + shadows.stream().map(Consensus::plain).toList());
    }
    ObjectNode report = Json.object();
    ArrayNode scores = report.putArray("scores");
    votes.forEach(
        v -> scores.addObject().put("evaluator", v.evaluatorId()).put("score", v.input().score()));
    report.put("score", score);
    report.put("spread", spread);
    report.put("confidence", confidence);
    return new Outcome(input, report);
  }

  private static BigDecimal meanConfidence(List<Vote> votes) {
    List<BigDecimal> stated =
        votes.stream().map(v -> v.input().confidence()).filter(java.util.Objects::nonNull).toList();
    if (stated.isEmpty()) {
      return null;
    }
    return stated.stream()
        .reduce(BigDecimal.ZERO, BigDecimal::add)
        .divide(BigDecimal.valueOf(stated.size()), PRECISION);
  }

  private static BigDecimal clamp(BigDecimal value) {
    return value.max(BigDecimal.ZERO).min(BigDecimal.ONE);
  }

  private static String list(List<Vote> votes) {
    List<String> parts = new ArrayList<>();
    for (Vote v : votes) {
      parts.add(v.evaluatorId() + " " + plain(v.input().score()));
    }
    return String.join(", ", parts);
  }

  private static String plain(BigDecimal value) {
    return value.stripTrailingZeros().toPlainString();
  }
}
