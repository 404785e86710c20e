package dev.asa.scoring;

import dev.asa.agreement.CompositeMethod;
import dev.asa.agreement.Currency;
import dev.asa.agreement.Dimension;
import dev.asa.agreement.Escrow;
import dev.asa.agreement.GraduatedRelease;
import dev.asa.agreement.MetricType;
import dev.asa.agreement.Money;
import dev.asa.agreement.QualityCriteria;
import dev.asa.agreement.QualityGate;
import dev.asa.agreement.Slo;
import dev.asa.agreement.SloOperator;
import dev.asa.agreement.Tier;
import java.math.BigDecimal;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Small builders for criteria, inputs and payments, so that tests read like the agreement. */
final class Fixtures {
  private Fixtures() {}

  static BigDecimal n(String decimal) {
    return new BigDecimal(decimal);
  }

  static Slo slo(SloOperator op, String target) {
    return new Slo(op, new Slo.Target.Number(n(target)));
  }

  static Slo isTrue() {
    return new Slo(SloOperator.EQ, new Slo.Target.Flag(true));
  }

  static Slo between(String low, String high) {
    return new Slo(SloOperator.BETWEEN, new Slo.Target.Range(n(low), n(high)));
  }

  static Dimension percentage(String name, String weight, Slo slo) {
    return new Dimension(name, n(weight), MetricType.PERCENTAGE, slo, null, null, null);
  }

  static Dimension dimension(String name, String weight, MetricType metric, Slo slo) {
    return new Dimension(name, n(weight), metric, slo, null, null, null);
  }

  static Dimension withShadow(Dimension d, String shadowName, Slo shadowSlo) {
    return new Dimension(
        d.name(), d.weight(), d.metric(), d.slo(), shadowName, shadowSlo, d.description());
  }

  static QualityCriteria criteria(
      CompositeMethod method,
      String threshold,
      List<QualityGate> gates,
      QualityGate.Logic logic,
      Dimension... dims) {
    return new QualityCriteria(
        Arrays.asList(dims),
        n(threshold),
        method,
        QualityCriteria.GuaranteeType.DETERMINISTIC,
        gates,
        logic,
        null,
        List.of());
  }

  static QualityCriteria criteria(CompositeMethod method, String threshold, Dimension... dims) {
    return criteria(method, threshold, List.of(), QualityGate.Logic.ALL_MUST_PASS, dims);
  }

  static QualityCriteria withGates(
      QualityCriteria c, QualityGate.Logic logic, String... conditions) {
    List<QualityGate> gates =
        Arrays.stream(conditions)
            .map(text ->
                QualityGate.of(
                    text,
                    text.matches(".*_(gte|gt|lte|lt)_[0-9.]+")
                        ? QualityGate.Kind.THRESHOLD
                        : QualityGate.Kind.BOOLEAN))
            .toList();
    return new QualityCriteria(
        c.dimensions(),
        c.compositeThreshold(),
        c.compositeMethod(),
        c.guaranteeType(),
        gates,
        logic,
        null,
        List.of());
  }

  /** The research agreement of whitepaper section 4.1. */
  static QualityCriteria whitepaperCriteria() {
    return criteria(
        CompositeMethod.WEIGHTED_AVERAGE,
        "75",
        withShadow(
            percentage("accuracy", "0.25", slo(SloOperator.GTE, "85")),
            "hallucination_rate",
            slo(SloOperator.LTE, "5")),
        percentage("completeness", "0.20", slo(SloOperator.GTE, "80")),
        percentage("relevance", "0.20", slo(SloOperator.GTE, "90")),
        percentage("source_quality", "0.15", slo(SloOperator.GTE, "70")),
        percentage("writing_quality", "0.10", slo(SloOperator.GTE, "75")),
        dimension("timeliness", "0.10", MetricType.BOOLEAN, isTrue()));
  }

  /** The scores of whitepaper section 5.2. */
  static Map<String, DimensionInput> whitepaperScores() {
    return inputs(
        DimensionInput.scored("accuracy", n("88"), "Spot-checked 3 claims.")
            .withShadow(n("3.2"), "1 unsupported claim in 31"),
        DimensionInput.scored("completeness", n("82"), "Covers 8 of 10 major papers."),
        DimensionInput.scored("relevance", n("94"), "All sections on topic."),
        DimensionInput.scored("source_quality", n("78"), "12 sources cited."),
        DimensionInput.scored("writing_quality", n("81"), "Clear structure."),
        DimensionInput.structural(
            "timeliness", n("100"), "Delivered 847 seconds before the deadline."));
  }

  static Map<String, DimensionInput> inputs(DimensionInput... inputs) {
    Map<String, DimensionInput> map = new LinkedHashMap<>();
    for (DimensionInput i : inputs) {
      map.put(i.name(), i);
    }
    return map;
  }

  static Map<String, DimensionInput> scores(Object... nameScorePairs) {
    Map<String, DimensionInput> map = new LinkedHashMap<>();
    for (int i = 0; i < nameScorePairs.length; i += 2) {
      String name = (String) nameScorePairs[i];
      map.put(
          name,
          DimensionInput.scored(
              name, n(String.valueOf(nameScorePairs[i + 1])), "scored by a test"));
    }
    return map;
  }

  static Currency currency(String code) {
    return Currency.of(code).orElseThrow();
  }

  static Money money(String amount, String code) {
    return new Money(n(amount), currency(code));
  }

  static Tier gte(String score, String percent) {
    return new Tier(Tier.Bound.GTE, n(score), n(percent));
  }

  static Tier lt(String score, String percent) {
    return new Tier(Tier.Bound.LT, n(score), n(percent));
  }

  /** The graduated tiers of whitepaper section 4.1, listed in the given order. */
  static Escrow.Payment tiered(Tier... tiers) {
    return new Escrow.Payment(
        money("5.00", "USDC"),
        new GraduatedRelease(true, GraduatedRelease.Mode.TIERS, List.of(tiers)));
  }

  static Escrow.Payment continuous() {
    return new Escrow.Payment(
        money("5.00", "USDC"),
        new GraduatedRelease(true, GraduatedRelease.Mode.CONTINUOUS, List.of()));
  }

  static Escrow.Payment notGraduated() {
    return new Escrow.Payment(money("5.00", "USDC"), GraduatedRelease.DISABLED);
  }
}
