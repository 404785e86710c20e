package dev.asa.scoring;

import static dev.asa.scoring.Fixtures.between;
import static dev.asa.scoring.Fixtures.criteria;
import static dev.asa.scoring.Fixtures.dimension;
import static dev.asa.scoring.Fixtures.gte;
import static dev.asa.scoring.Fixtures.inputs;
import static dev.asa.scoring.Fixtures.isTrue;
import static dev.asa.scoring.Fixtures.lt;
import static dev.asa.scoring.Fixtures.n;
import static dev.asa.scoring.Fixtures.percentage;
import static dev.asa.scoring.Fixtures.scores;
import static dev.asa.scoring.Fixtures.slo;
import static dev.asa.scoring.Fixtures.tiered;
import static dev.asa.scoring.Fixtures.whitepaperCriteria;
import static dev.asa.scoring.Fixtures.whitepaperScores;
import static dev.asa.scoring.Fixtures.withGates;
import static dev.asa.scoring.Fixtures.withShadow;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.asa.agreement.CompositeMethod;
import dev.asa.agreement.Dimension;
import dev.asa.agreement.MetricType;
import dev.asa.agreement.QualityCriteria;
import dev.asa.agreement.QualityGate.Logic;
import dev.asa.agreement.Slo;
import dev.asa.agreement.SloOperator;
import java.math.BigDecimal;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class ScorerTest {

  private static final Map<String, CheckResult> NO_CHECKS = Map.of();

  /** Scores one dimension with the given SLO and returns its result. */
  private static DimensionResult single(MetricType metric, Slo slo, String score) {
    QualityCriteria c =
        criteria(CompositeMethod.WEIGHTED_AVERAGE, "0", dimension("d", "1", metric, slo));
    return Scorer.score(c, scores("d", score), NO_CHECKS).dimensions().get(0);
  }

  @Nested
  class SloOperators {

    @ParameterizedTest(name = "{1} {2}: score {0} met={3}")
    @CsvSource({
      "85,      gte, 85, true",
      "84.999,  gte, 85, false",
      "100,     gte, 85, true",
      "85,      gt,  85, false",
      "85.001,  gt,  85, true",
      "5,       lte, 5,  true",
      "5.001,   lte, 5,  false",
      "5,       lt,  5,  false",
      "4.999,   lt,  5,  true",
      "50,      eq,  50, true",
      "50.0,    eq,  50, true",
      "50.001,  eq,  50, false",
      "50,      neq, 50, false",
      "49,      neq, 50, true",
    })
    void numericOperatorsIncludingBoundaries(String score, String op, String target, boolean met) {
      DimensionResult r =
          single(MetricType.PERCENTAGE, slo(SloOperator.fromWire(op), target), score);
      assertThat(r.sloMet()).isEqualTo(met);
      assertThat(r.sloTarget().toString()).isEqualTo(target);
    }

    @ParameterizedTest(name = "between [10, 20]: score {0} met={1}")
    @CsvSource({"10, true", "15, true", "20, true", "9.999, false", "20.001, false"})
    void betweenIsInclusive(String score, boolean met) {
      DimensionResult r = single(MetricType.PERCENTAGE, between("10", "20"), score);
      assertThat(r.sloMet()).isEqualTo(met);
      assertThat(r.sloTarget().toString()).isEqualTo("[10,20]");
    }

    @Test
    void booleanEqTrueIsMetBy100AndNotBy0() {
      assertThat(single(MetricType.BOOLEAN, isTrue(), "100").sloMet()).isTrue();
      assertThat(single(MetricType.BOOLEAN, isTrue(), "0").sloMet()).isFalse();
      assertThat(single(MetricType.BOOLEAN, isTrue(), "100").sloTarget().toString())
          .isEqualTo("true");
    }

    @Test
    void booleanEqFalseAndNeqTrueAreMetBy0() {
      Slo eqFalse = new Slo(SloOperator.EQ, new Slo.Target.Flag(false));
      Slo neqTrue = new Slo(SloOperator.NEQ, new Slo.Target.Flag(true));
      assertThat(single(MetricType.BOOLEAN, eqFalse, "0").sloMet()).isTrue();
      assertThat(single(MetricType.BOOLEAN, eqFalse, "100").sloMet()).isFalse();
      assertThat(single(MetricType.BOOLEAN, neqTrue, "0").sloMet()).isTrue();
    }

    @Test
    void targetsAreWrittenWithoutTrailingZeros() {
      assertThat(
              single(MetricType.PERCENTAGE, slo(SloOperator.GTE, "85.0"), "90")
                  .sloTarget()
                  .toString())
          .isEqualTo("85");
      assertThat(
              single(MetricType.PERCENTAGE, slo(SloOperator.GTE, "100"), "100")
                  .sloTarget()
                  .toString())
          .isEqualTo("100");
    }
  }

  @Nested
  class ScoreRanges {

    @ParameterizedTest(name = "{0} score {1} is refused")
    @CsvSource({
      "BOOLEAN, 50",
      "BOOLEAN, 1",
      "BOOLEAN, -100",
      "PERCENTAGE, 100.001",
      "PERCENTAGE, -1",
      "SCORE, 101",
      "COUNT, -1",
      "DURATION_SECONDS, -0.5",
    })
    void scoresOutsideTheMetricRangeAreRefusedNamingTheDimension(MetricType metric, String score) {
      Slo slo = metric == MetricType.BOOLEAN ? isTrue() : slo(SloOperator.GTE, "0");
      QualityCriteria c =
          criteria(
              CompositeMethod.WEIGHTED_AVERAGE, "0", dimension("my_dimension", "1", metric, slo));
      assertThatThrownBy(() -> Scorer.score(c, scores("my_dimension", score), NO_CHECKS))
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining("my_dimension")
          .hasMessageContaining(score);
    }

    @Test
    void countsAndDurationsMayExceedHundredAndBooleansMayBeWrittenWithDecimals() {
      assertThat(single(MetricType.COUNT, slo(SloOperator.GTE, "5"), "12").sloMet()).isTrue();
      assertThat(single(MetricType.DURATION_SECONDS, slo(SloOperator.LTE, "3600"), "5000").sloMet())
          .isFalse();
      assertThat(single(MetricType.BOOLEAN, isTrue(), "100.00").sloMet()).isTrue();
    }

    @Test
    void anInputForAnUnknownDimensionIsRefused() {
      QualityCriteria c =
          criteria(
              CompositeMethod.WEIGHTED_AVERAGE,
              "0",
              percentage("accuracy", "1", slo(SloOperator.GTE, "0")));
      assertThatThrownBy(() -> Scorer.score(c, scores("accuracy", 90, "acuracy", 80), NO_CHECKS))
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining("'acuracy'");
    }

    @Test
    void aShadowValueForADimensionWithoutShadowMetricIsRefused() {
      QualityCriteria c =
          criteria(
              CompositeMethod.WEIGHTED_AVERAGE,
              "0",
              percentage("accuracy", "1", slo(SloOperator.GTE, "0")));
      Map<String, DimensionInput> in =
          inputs(DimensionInput.scored("accuracy", n("90"), "ok").withShadow(n("3"), "measured"));
      assertThatThrownBy(() -> Scorer.score(c, in, NO_CHECKS))
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining("accuracy");
    }
  }

  @Nested
  class Completeness {

    @Test
    void weightedDimensionsWithoutScoreAreListedWithTheReason() {
      QualityCriteria c = whitepaperCriteria();
      Map<String, DimensionInput> in =
          scores("relevance", 94, "source_quality", 78, "writing_quality", 81);
      in.put("accuracy", DimensionInput.notEvaluated("accuracy", "the judge timed out"));
      in.put("timeliness", DimensionInput.structural("timeliness", n("100"), "on time"));

      assertThatThrownBy(() -> Scorer.score(c, in, NO_CHECKS))
          .isInstanceOfSatisfying(
              IncompleteScoresException.class,
              e -> {
                assertThat(e.missing())
                    .containsExactly(
                        Map.entry("accuracy", "the judge timed out"),
                        Map.entry("completeness", "no score submitted"));
                assertThat(e.getMessage())
                    .contains("accuracy (the judge timed out)")
                    .contains("completeness (no score submitted)");
              });
    }

    @Test
    void aDimensionOfWeightZeroMayGoUnscoredButItsSloIsNotMet() {
      QualityCriteria c =
          criteria(
              CompositeMethod.WEIGHTED_AVERAGE,
              "75",
              percentage("accuracy", "1", slo(SloOperator.GTE, "80")),
              percentage("style", "0", slo(SloOperator.GTE, "50")));
      Scorecard card = Scorer.score(c, scores("accuracy", 90), NO_CHECKS);

      DimensionResult style = card.dimensions().get(1);
      assertThat(style.score()).isNull();
      assertThat(style.sloMet()).isFalse();
      assertThat(style.evidence()).isEqualTo("no score submitted");
      assertThat(card.composite().score()).isEqualByComparingTo("90");
      assertThat(card.determination().result()).isEqualTo("PASS");
      assertThat(card.determination().notes())
          .isEqualTo("Composite score 90 exceeds threshold of 75. Not evaluated: style.");
    }
  }

  @Nested
  class Composite {

    private BigDecimal composite(
        CompositeMethod method, String w1, String s1, String w2, String s2) {
      QualityCriteria c =
          criteria(
              method,
              "0",
              percentage("a", w1, slo(SloOperator.GTE, "0")),
              percentage("b", w2, slo(SloOperator.GTE, "0")));
      return Scorer.score(c, scores("a", s1, "b", s2), NO_CHECKS).composite().score();
    }

    @Test
    void weightedGeometricMeanOf80And90() {
      // exp(0.5 ln 80 + 0.5 ln 90) = sqrt(7200) = 84.85281...
      assertThat(composite(CompositeMethod.GEOMETRIC_MEAN, "0.5", "80", "0.5", "90"))
          .isEqualTo(n("84.853"));
    }

    @Test
    void weightedHarmonicMeanOf80And90() {
      // 1 / (0.5/80 + 0.5/90) = 1440/17 = 84.70588...
      assertThat(composite(CompositeMethod.HARMONIC_MEAN, "0.5", "80", "0.5", "90"))
          .isEqualTo(n("84.706"));
    }

    @Test
    void weightedAverageOf80And90WithUnevenWeights() {
      // 0.3 * 80 + 0.7 * 90 = 87
      assertThat(composite(CompositeMethod.WEIGHTED_AVERAGE, "0.3", "80", "0.7", "90"))
          .isEqualTo(n("87.000"));
    }

    @Test
    void minimumIgnoresDimensionsWithoutWeight() {
      QualityCriteria c =
          criteria(
              CompositeMethod.MINIMUM,
              "0",
              percentage("a", "0.5", slo(SloOperator.GTE, "0")),
              percentage("b", "0.5", slo(SloOperator.GTE, "0")),
              percentage("ignored", "0", slo(SloOperator.GTE, "0")));
      Scorecard card = Scorer.score(c, scores("a", 80, "b", 72.5, "ignored", 10), NO_CHECKS);
      assertThat(card.composite().score()).isEqualTo(n("72.500"));
    }

    @Test
    void weightsAreNormalisedByTheirSum() {
      for (CompositeMethod method : CompositeMethod.values()) {
        assertThat(composite(method, "0.2", "80", "0.2", "90"))
            .as(method.wireName())
            .isEqualTo(composite(method, "0.5", "80", "0.5", "90"));
      }
      assertThat(composite(CompositeMethod.WEIGHTED_AVERAGE, "0.2", "80", "0.2", "90"))
          .isEqualTo(n("85.000"));
    }

    @Test
    void aZeroScoreMakesGeometricAndHarmonicMeansZero() {
      assertThat(composite(CompositeMethod.GEOMETRIC_MEAN, "0.5", "0", "0.5", "90"))
          .isEqualTo(n("0.000"));
      assertThat(composite(CompositeMethod.HARMONIC_MEAN, "0.5", "0", "0.5", "90"))
          .isEqualTo(n("0.000"));
      assertThat(composite(CompositeMethod.WEIGHTED_AVERAGE, "0.5", "0", "0.5", "90"))
          .isEqualTo(n("45.000"));
    }

    @Test
    void whitepaperScoresAverageTo87NotThePrinted86Point1() {
      // 0.25*88 + 0.20*82 + 0.20*94 + 0.15*78 + 0.10*81 + 0.10*100
      //   = 22 + 16.4 + 18.8 + 11.7 + 8.1 + 10 = 87.0. Section 5.2 prints 86.1, an arithmetic slip.
      Scorecard card = Scorer.score(whitepaperCriteria(), whitepaperScores(), NO_CHECKS);
      assertThat(card.composite().score()).isEqualTo(n("87.000"));
      assertThat(card.composite().method()).isEqualTo(CompositeMethod.WEIGHTED_AVERAGE);
    }

    @Test
    void compositeIsRoundedHalfEvenToThreeDecimalsBeforeTheThresholdComparison() {
      // (74.9992 + 75) / 2 = 74.9996, reported as 75.000, which meets a threshold of 75.
      QualityCriteria c =
          criteria(
              CompositeMethod.WEIGHTED_AVERAGE,
              "75",
              percentage("a", "0.5", slo(SloOperator.GTE, "0")),
              percentage("b", "0.5", slo(SloOperator.GTE, "0")));
      Scorecard card = Scorer.score(c, scores("a", "74.9992", "b", "75"), NO_CHECKS);
      assertThat(card.composite().score()).isEqualTo(n("75.000"));
      assertThat(card.composite().passed()).isTrue();
      assertThat(card.determination().result()).isEqualTo("PASS");

      // Half-even: 0.0005 rounds to the even neighbour 0.000; 0.0015 to 0.002.
      assertThat(
              Scorer.composite(
                  CompositeMethod.MINIMUM, List.of(new Scorer.WeightedScore(n("1"), n("10.0005")))))
          .isEqualTo(n("10.000"));
      assertThat(
              Scorer.composite(
                  CompositeMethod.MINIMUM, List.of(new Scorer.WeightedScore(n("1"), n("10.0015")))))
          .isEqualTo(n("10.002"));
    }
  }

  @Nested
  class Gates {

    private final QualityCriteria base =
        criteria(
            CompositeMethod.WEIGHTED_AVERAGE,
            "75",
            withShadow(
                percentage("accuracy", "0.5", slo(SloOperator.GTE, "85")),
                "hallucination_rate",
                slo(SloOperator.LTE, "5")),
            percentage("completeness", "0.4", slo(SloOperator.GTE, "80")),
            dimension("timeliness", "0.1", MetricType.BOOLEAN, isTrue()));

    private Map<String, DimensionInput> good() {
      return scores("accuracy", 90, "completeness", 85, "timeliness", 100);
    }

    private GateResult onlyGate(
        String condition, Map<String, DimensionInput> in, Map<String, CheckResult> checks) {
      Scorecard card = Scorer.score(withGates(base, Logic.ALL_MUST_PASS, condition), in, checks);
      assertThat(card.gates()).hasSize(1);
      assertThat(card.gatesPassed()).isEqualTo(card.gates().get(0).passed());
      return card.gates().get(0);
    }

    @Test
    void aDeliverableThatIsNotItsDeclaredFormatFailsWithoutAnyGateNamingIt() {
      Map<String, CheckResult> broken =
          Map.of("format_valid", CheckResult.failed("not valid JSON: unexpected end at line 1"));
      Scorecard card = Scorer.score(base, good(), broken);
      assertThat(card.gatesPassed()).isFalse();
      assertThat(card.determination().result()).isEqualTo(Determination.FAIL);
      assertThat(card.gates())
          .singleElement()
          .satisfies(g -> assertThat(g.condition()).isEqualTo("format_valid"));
      assertThat(card.determination().notes())
          .startsWith(
              "The deliverable is not what its declared format says (format_valid, always"
                  + " checked): not valid JSON: unexpected end at line 1.");
      // A passing check changes nothing, and an explicit gate on it is not doubled.
      assertThat(
              Scorer.score(base, good(), Map.of("format_valid", CheckResult.passed("JSON")))
                  .gatesPassed())
          .isTrue();
      assertThat(onlyGate("format_valid", good(), broken).passed()).isFalse();
    }

    @Test
    void noGatesMeansTheGatesPass() {
      Scorecard card = Scorer.score(base, good(), NO_CHECKS);
      assertThat(card.gates()).isEmpty();
      assertThat(card.gatesPassed()).isTrue();
    }

    @Test
    void allSlosMetPassesWhenEverySloAndMeasuredShadowIsMet() {
      Map<String, DimensionInput> in = good();
      in.put(
          "accuracy",
          DimensionInput.scored("accuracy", n("90"), "ok").withShadow(n("5"), "5 of 100"));
      GateResult g = onlyGate("all_slos_met", in, NO_CHECKS);
      assertThat(g.passed()).isTrue();
      assertThat(g.condition()).isEqualTo("all_slos_met");
    }

    @Test
    void allSlosMetIgnoresAShadowMetricThatWasNotMeasured() {
      assertThat(onlyGate("all_slos_met", good(), NO_CHECKS).passed()).isTrue();
    }

    @Test
    void allSlosMetFailsOnADimensionMiss() {
      GateResult g =
          onlyGate(
              "all_slos_met",
              scores("accuracy", 80, "completeness", 85, "timeliness", 100),
              NO_CHECKS);
      assertThat(g.passed()).isFalse();
      assertThat(g.evidence()).isEqualTo("SLO misses: accuracy 80 (gte 85)");
    }

    @Test
    void allSlosMetFailsOnAShadowMiss() {
      Map<String, DimensionInput> in = good();
      in.put(
          "accuracy",
          DimensionInput.scored("accuracy", n("90"), "ok").withShadow(n("7.5"), "many"));
      GateResult g = onlyGate("all_slos_met", in, NO_CHECKS);
      assertThat(g.passed()).isFalse();
      assertThat(g.evidence()).isEqualTo("shadow metric misses: hallucination_rate 7.5 (lte 5)");
    }

    @Test
    void thresholdOnADimension() {
      GateResult pass =
          onlyGate(
              "accuracy_gte_80",
              scores("accuracy", 80, "completeness", 85, "timeliness", 100),
              NO_CHECKS);
      assertThat(pass.passed()).isTrue();
      assertThat(pass.evidence()).isEqualTo("accuracy 80 >= 80");

      GateResult fail =
          onlyGate(
              "accuracy_gte_80",
              scores("accuracy", 78, "completeness", 85, "timeliness", 100),
              NO_CHECKS);
      assertThat(fail.passed()).isFalse();
      assertThat(fail.evidence()).isEqualTo("accuracy 78 is not >= 80");

      assertThat(onlyGate("completeness_lt_85", good(), NO_CHECKS).passed()).isFalse();
      assertThat(onlyGate("completeness_lte_85", good(), NO_CHECKS).passed()).isTrue();
      assertThat(onlyGate("completeness_gt_84.5", good(), NO_CHECKS).passed()).isTrue();
    }

    @Test
    void thresholdOnTheCompositeUsesTheReportedComposite() {
      // 0.5*90 + 0.4*85 + 0.1*100 = 89
      assertThat(onlyGate("composite_gte_89", good(), NO_CHECKS).passed()).isTrue();
      GateResult g = onlyGate("composite_gt_89", good(), NO_CHECKS);
      assertThat(g.passed()).isFalse();
      assertThat(g.evidence()).isEqualTo("composite 89 is not > 89");
    }

    @Test
    void thresholdOnAnUnknownSubjectFails() {
      GateResult g = onlyGate("speed_gte_80", good(), NO_CHECKS);
      assertThat(g.passed()).isFalse();
      assertThat(g.evidence()).contains("no dimension named 'speed'");
    }

    @Test
    void checkPassesOrFailsByTheReportedResult() {
      GateResult pass =
          onlyGate(
              "all_tests_pass",
              good(),
              Map.of("all_tests_pass", CheckResult.passed("42 of 42 tests pass")));
      assertThat(pass.passed()).isTrue();
      assertThat(pass.evidence()).isEqualTo("42 of 42 tests pass");

      GateResult fail =
          onlyGate(
              "all_tests_pass",
              good(),
              Map.of("all_tests_pass", CheckResult.failed("2 of 42 tests fail")));
      assertThat(fail.passed()).isFalse();
      assertThat(fail.evidence()).isEqualTo("2 of 42 tests fail");
    }

    @Test
    void checkWithoutAResultFailsAsNotEvaluated() {
      GateResult g = onlyGate("no_critical_security_vulnerabilities", good(), NO_CHECKS);
      assertThat(g.passed()).isFalse();
      assertThat(g.evidence())
          .isEqualTo("not evaluated: no evaluator reported no_critical_security_vulnerabilities");
    }

    @Test
    void checkNamingABooleanDimensionUsesItsScore() {
      assertThat(onlyGate("timeliness", good(), NO_CHECKS).passed()).isTrue();
      GateResult late =
          onlyGate(
              "timeliness", scores("accuracy", 90, "completeness", 85, "timeliness", 0), NO_CHECKS);
      assertThat(late.passed()).isFalse();
      assertThat(late.evidence()).isEqualTo("boolean dimension timeliness scored 0");
    }

    @Test
    void checkNamingANonBooleanDimensionIsNotEvaluated() {
      assertThat(onlyGate("accuracy", good(), NO_CHECKS).passed()).isFalse();
    }

    @Test
    void aFailingCheckResultIsNotOverruledByABooleanDimension() {
      GateResult g =
          onlyGate(
              "timeliness", good(), Map.of("timeliness", CheckResult.failed("clock says late")));
      assertThat(g.passed()).isFalse();
      assertThat(g.evidence())
          .isEqualTo("clock says late; boolean dimension timeliness scored 100");
    }

    @Test
    void allMustPassNeedsEveryGate() {
      Scorecard card =
          Scorer.score(
              withGates(base, Logic.ALL_MUST_PASS, "accuracy_gte_80", "all_tests_pass"),
              good(),
              Map.of("all_tests_pass", CheckResult.failed("1 failing")));
      assertThat(card.gates()).extracting(GateResult::passed).containsExactly(true, false);
      assertThat(card.gatesPassed()).isFalse();
    }

    @Test
    void anyMustPassNeedsOneGate() {
      QualityCriteria c = withGates(base, Logic.ANY_MUST_PASS, "accuracy_gte_95", "all_tests_pass");
      Scorecard one =
          Scorer.score(c, good(), Map.of("all_tests_pass", CheckResult.passed("all pass")));
      assertThat(one.gatesPassed()).isTrue();
      assertThat(one.gateLogic()).isEqualTo(Logic.ANY_MUST_PASS);

      Scorecard none =
          Scorer.score(c, good(), Map.of("all_tests_pass", CheckResult.failed("1 failing")));
      assertThat(none.gatesPassed()).isFalse();
      assertThat(none.determination().notes())
          .startsWith(
              "No quality gate passed (any_must_pass): accuracy_gte_95: accuracy 90 is not >= 95; all_tests_pass: 1 failing.");
    }
  }

  @Nested
  class Determinations {

    @Test
    void whitepaperExamplePasses() {
      Scorecard card = Scorer.score(whitepaperCriteria(), whitepaperScores(), NO_CHECKS);
      Determination d = card.determination();
      assertThat(d.result()).isEqualTo("PASS");
      assertThat(d.paymentReleasePercent()).isEqualByComparingTo("100");
      assertThat(d.notes()).isEqualTo("All SLOs met. Composite score 87 exceeds threshold of 75.");
      assertThat(card.dimensions()).extracting(DimensionResult::sloMet).containsOnly(true);
      ShadowResult shadow = card.dimensions().get(0).shadow();
      assertThat(shadow.name()).isEqualTo("hallucination_rate");
      assertThat(shadow.value()).isEqualByComparingTo("3.2");
      assertThat(shadow.sloMet()).isTrue();
      assertThat(card.dimensions().get(1).shadow()).isNull();
    }

    @Test
    void withTheWhitepaperTiersTheSameScoresRelease85Percent() {
      // Section 5.2 prints 100 %, but its own tiers (4.1) put a composite in 75..89 at 85 %.
      Scorecard card =
          Scorer.score(
              whitepaperCriteria(),
              tiered(gte("90", "100"), gte("75", "85"), gte("60", "50"), lt("60", "0")),
              whitepaperScores(),
              NO_CHECKS);
      assertThat(card.determination().paymentReleasePercent()).isEqualByComparingTo("85");
    }

    @Test
    void aFailedGateFailsWithNothingReleasedEvenAtComposite99() {
      QualityCriteria c =
          withGates(
              criteria(
                  CompositeMethod.WEIGHTED_AVERAGE,
                  "75",
                  percentage("accuracy", "1", slo(SloOperator.GTE, "85"))),
              Logic.ALL_MUST_PASS,
              "all_tests_pass");
      Scorecard card =
          Scorer.score(
              c,
              tiered(gte("90", "100"), lt("90", "50")),
              scores("accuracy", 99),
              Map.of("all_tests_pass", CheckResult.failed("3 of 40 tests fail.")));
      Determination d = card.determination();
      assertThat(card.composite().score()).isEqualByComparingTo("99");
      assertThat(card.composite().passed()).isTrue();
      assertThat(d.result()).isEqualTo("FAIL");
      assertThat(d.paymentReleasePercent()).isEqualByComparingTo("0");
      assertThat(d.notes())
          .isEqualTo(
              "Quality gate all_tests_pass failed: 3 of 40 tests fail. All SLOs met. Composite score 99 exceeds threshold of 75.");
    }

    @Test
    void compositeEqualToTheThresholdPasses() {
      QualityCriteria c =
          criteria(
              CompositeMethod.WEIGHTED_AVERAGE,
              "75",
              percentage("accuracy", "1", slo(SloOperator.GTE, "70")));
      Determination d = Scorer.score(c, scores("accuracy", 75), NO_CHECKS).determination();
      assertThat(d.result()).isEqualTo("PASS");
      assertThat(d.notes()).isEqualTo("All SLOs met. Composite score 75 meets threshold of 75.");
    }

    @Test
    void compositeBelowTheThresholdFailsAndListsEveryMiss() {
      QualityCriteria c =
          criteria(
              CompositeMethod.WEIGHTED_AVERAGE,
              "75",
              withShadow(
                  percentage("accuracy", "0.5", slo(SloOperator.GTE, "85")),
                  "hallucination_rate",
                  slo(SloOperator.LTE, "5")),
              percentage("completeness", "0.5", slo(SloOperator.GTE, "60")));
      Map<String, DimensionInput> in = scores("completeness", "64.8");
      in.put(
          "accuracy",
          DimensionInput.scored("accuracy", n("80"), "ok").withShadow(n("6"), "6 of 100"));
      Determination d = Scorer.score(c, in, NO_CHECKS).determination();
      assertThat(d.result()).isEqualTo("FAIL");
      assertThat(d.paymentReleasePercent()).isEqualByComparingTo("0");
      assertThat(d.notes())
          .isEqualTo(
              "Composite 72.4 is below the threshold of 75; SLO misses: accuracy 80 (gte 85); "
                  + "shadow metric misses: hallucination_rate 6 (lte 5).");
    }

    @Test
    void sloMissesDoNotFailAPassingCompositeButAreListed() {
      QualityCriteria c =
          criteria(
              CompositeMethod.WEIGHTED_AVERAGE,
              "75",
              percentage("accuracy", "0.5", slo(SloOperator.GTE, "85")),
              percentage("completeness", "0.5", slo(SloOperator.GTE, "60")));
      Determination d =
          Scorer.score(c, scores("accuracy", 80, "completeness", 90), NO_CHECKS).determination();
      assertThat(d.result()).isEqualTo("PASS");
      assertThat(d.notes())
          .isEqualTo(
              "Composite score 85 exceeds threshold of 75. SLO misses: accuracy 80 (gte 85).");
    }

    @Test
    void confidenceIsTheWeightedMeanOfStatedConfidences() {
      QualityCriteria c =
          criteria(
              CompositeMethod.WEIGHTED_AVERAGE,
              "0",
              percentage("a", "0.6", slo(SloOperator.GTE, "0")),
              percentage("b", "0.3", slo(SloOperator.GTE, "0")),
              percentage("c", "0.1", slo(SloOperator.GTE, "0")));
      Map<String, DimensionInput> in =
          inputs(
              DimensionInput.scored("a", n("90"), "judge", n("0.8"), "evaluator"),
              DimensionInput.structural("b", n("100"), "parsed"),
              DimensionInput.scored("c", n("70"), "no confidence stated"));
      // (0.6 * 0.8 + 0.3 * 1) / 0.9 = 0.78 / 0.9 = 0.8666...; c states none and is left out.
      assertThat(Scorer.score(c, in, NO_CHECKS).determination().confidence()).isEqualTo(n("0.867"));
    }

    @Test
    void confidenceIsNullWhenNoInputStatesOne() {
      Scorecard card =
          Scorer.score(
              whitepaperCriteria(),
              scores(
                  "accuracy",
                  88,
                  "completeness",
                  82,
                  "relevance",
                  94,
                  "source_quality",
                  78,
                  "writing_quality",
                  81,
                  "timeliness",
                  100),
              NO_CHECKS);
      assertThat(card.determination().confidence()).isNull();
    }

    @Test
    void structuralInputsCountWithConfidenceOne() {
      assertThat(
              new DimensionInput("x", n("1"), "e", null, null, null, DimensionInput.STRUCTURAL)
                  .confidence())
          .isEqualByComparingTo("1");
      assertThatThrownBy(() -> DimensionInput.scored("x", n("1"), "e", n("1.5"), "evaluator"))
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining("between 0 and 1");
    }
  }

  @Test
  void dimensionsAreReportedInAgreementOrderWithEvidence() {
    Scorecard card = Scorer.score(whitepaperCriteria(), whitepaperScores(), NO_CHECKS);
    assertThat(card.dimensions())
        .extracting(DimensionResult::name)
        .containsExactly(
            "accuracy",
            "completeness",
            "relevance",
            "source_quality",
            "writing_quality",
            "timeliness");
    assertThat(card.dimensions().get(5).evidence())
        .isEqualTo("Delivered 847 seconds before the deadline.");
    Dimension timeliness = whitepaperCriteria().dimension("timeliness").orElseThrow();
    assertThat(timeliness.metric()).isEqualTo(MetricType.BOOLEAN);
  }
}
