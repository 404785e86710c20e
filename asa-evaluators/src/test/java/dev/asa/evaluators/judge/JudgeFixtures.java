package dev.asa.evaluators.judge;

import dev.asa.agreement.CompositeMethod;
import dev.asa.agreement.Dimension;
import dev.asa.agreement.MetricType;
import dev.asa.agreement.QualityCriteria;
import dev.asa.agreement.QualityGate;
import dev.asa.agreement.Slo;
import dev.asa.agreement.SloOperator;
import dev.asa.evaluators.Deliverable;
import dev.asa.evaluators.EvaluationTask;
import java.math.BigDecimal;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/** Criteria, tasks and judge answers for the judge's tests. */
final class JudgeFixtures {
  private JudgeFixtures() {}

  static final Instant DELIVERED = Instant.parse("2026-03-26T15:00:00Z");

  static Dimension percentage(String name) {
    return new Dimension(
        name, new BigDecimal("0.2"), MetricType.PERCENTAGE, atLeast("80"), null, null, null);
  }

  static Dimension of(String name, MetricType metric) {
    Slo slo =
        metric == MetricType.BOOLEAN
            ? new Slo(SloOperator.EQ, new Slo.Target.Flag(true))
            : atLeast("80");
    return new Dimension(name, new BigDecimal("0.2"), metric, slo, null, null, null);
  }

  static Dimension accuracyWithHallucinationRate() {
    return new Dimension(
        "accuracy",
        new BigDecimal("0.25"),
        MetricType.PERCENTAGE,
        atLeast("85"),
        "hallucination_rate",
        new Slo(SloOperator.LTE, new Slo.Target.Number(new BigDecimal("5"))),
        null);
  }

  static Slo atLeast(String n) {
    return new Slo(SloOperator.GTE, new Slo.Target.Number(new BigDecimal(n)));
  }

  static QualityCriteria criteria(Dimension... dims) {
    return new QualityCriteria(
        Arrays.asList(dims),
        new BigDecimal("75"),
        CompositeMethod.WEIGHTED_AVERAGE,
        QualityCriteria.GuaranteeType.PROBABILISTIC,
        List.of(),
        QualityGate.Logic.ALL_MUST_PASS,
        null,
        List.of());
  }

  static QualityCriteria research() {
    return criteria(percentage("accuracy"), percentage("completeness"), percentage("relevance"));
  }

  static EvaluationTask task(String content, QualityCriteria criteria) {
    return EvaluationTask.of(
        Deliverable.of(content, "markdown", DELIVERED),
        "Summarize recent literature on federated learning privacy guarantees",
        "text/research",
        criteria);
  }

  static EvaluationTask task(QualityCriteria criteria) {
    return task(
        "# Federated learning privacy\n\nDifferential privacy bounds were tightened in 2025 [1].",
        criteria);
  }

  static EvaluationTask withProvider(EvaluationTask t, String providerModel) {
    return new EvaluationTask(
        t.deliverable(),
        t.request(),
        t.deliverableType(),
        t.criteria(),
        t.constraints(),
        t.deadline(),
        providerModel,
        t.options(),
        t.progress());
  }

  static EvaluationTask.Options options(int spotChecks, String maxCostUsd) {
    return new EvaluationTask.Options(
        null, spotChecks, maxCostUsd == null ? null : new BigDecimal(maxCostUsd), true);
  }

  /**
   * A well-formed answer: each dimension with its score, evidence "<name> evidence" and confidence
   * 0.9.
   */
  static String answer(Map<String, Integer> scores) {
    return answer(scores, null);
  }

  static String answer(Map<String, Integer> scores, String claimsJson) {
    String dims =
        scores.entrySet().stream()
            .map(e ->
                "{\"name\":\""
                    + e.getKey()
                    + "\",\"score\":"
                    + e.getValue()
                    + ",\"evidence\":\""
                    + e.getKey()
                    + " evidence\",\"confidence\":0.9}")
            .collect(Collectors.joining(","));
    return "{\"dimensions\":["
        + dims
        + "]"
        + (claimsJson == null ? "" : ",\"claims\":" + claimsJson)
        + "}";
  }

  /** Scores for accuracy, completeness, relevance, in that order. */
  static Map<String, Integer> research(int accuracy, int completeness, int relevance) {
    java.util.LinkedHashMap<String, Integer> m = new java.util.LinkedHashMap<>();
    m.put("accuracy", accuracy);
    m.put("completeness", completeness);
    m.put("relevance", relevance);
    return m;
  }
}
