package dev.asa.evaluators;

import static org.assertj.core.api.Assertions.assertThat;

import dev.asa.agreement.CompositeMethod;
import dev.asa.agreement.Dimension;
import dev.asa.agreement.MetricType;
import dev.asa.agreement.QualityCriteria;
import dev.asa.agreement.QualityGate;
import dev.asa.agreement.Slo;
import dev.asa.agreement.SloOperator;
import dev.asa.scoring.DimensionInput;
import java.math.BigDecimal;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ConsensusTest {

  static final QualityCriteria CRITERIA =
      new QualityCriteria(
          List.of(
              new Dimension(
                  "accuracy",
                  new BigDecimal("0.7"),
                  MetricType.PERCENTAGE,
                  new Slo(SloOperator.GTE, new Slo.Target.Number(BigDecimal.valueOf(80))),
                  null,
                  null,
                  null),
              new Dimension(
                  "cites_sources",
                  new BigDecimal("0.3"),
                  MetricType.BOOLEAN,
                  new Slo(SloOperator.EQ, new Slo.Target.Flag(true)),
                  null,
                  null,
                  null)),
          BigDecimal.valueOf(70),
          CompositeMethod.WEIGHTED_AVERAGE,
          QualityCriteria.GuaranteeType.DETERMINISTIC,
          List.of(),
          QualityGate.Logic.ALL_MUST_PASS,
          null,
          List.of());

  static final EvaluationTask TASK =
      EvaluationTask.of(
          Deliverable.of("text", "text", Instant.parse("2026-01-01T00:00:00Z")),
          "req",
          "general",
          CRITERIA);

  private static List<Evaluation> run(ScriptedEvaluator... evaluators) throws Exception {
    List<Evaluation> out = new ArrayList<>();
    for (ScriptedEvaluator e : evaluators) {
      out.add(e.evaluate(TASK));
    }
    return out;
  }

  @Test
  void medianOfThreeWithSpreadAndConfidenceFromAgreementTimesCertainty() throws Exception {
    var combined =
        Consensus.combine(
            CRITERIA,
            run(
                ScriptedEvaluator.scoring(
                    "a", 0.8, Map.of("accuracy", 90.0, "cites_sources", 100.0)),
                ScriptedEvaluator.scoring(
                    "b", 0.9, Map.of("accuracy", 80.0, "cites_sources", 100.0)),
                ScriptedEvaluator.scoring(
                    "c", 1.0, Map.of("accuracy", 85.0, "cites_sources", 0.0))));
    DimensionInput accuracy = combined.inputs().get("accuracy");
    assertThat(accuracy.score()).isEqualByComparingTo("85");
    // agreement 1 - 10/100 = 0.9; certainty (0.8 + 0.9 + 1.0) / 3 = 0.9; 0.9 x 0.9 = 0.81
    assertThat(accuracy.confidence()).isEqualByComparingTo("0.81");
    assertThat(accuracy.evidence())
        .startsWith("median of 3 evaluators (a 90, b 80, c 85; spread 10): c says 85");
    assertThat(combined.report().path("dimensions").path("accuracy").path("spread").decimalValue())
        .isEqualByComparingTo("10");

    DimensionInput cites = combined.inputs().get("cites_sources");
    assertThat(cites.score()).isEqualByComparingTo("100");
    // majority 2 of 3 = 0.6667 x certainty 0.9 = 0.6
    assertThat(cites.confidence()).isEqualByComparingTo("0.600");
  }

  @Test
  void evenCountTakesTheMeanOfTheMiddleTwoAndATieVoteIsFalse() throws Exception {
    var combined =
        Consensus.combine(
            CRITERIA,
            run(
                ScriptedEvaluator.scoring(
                    "a", null, Map.of("accuracy", 80.0, "cites_sources", 100.0)),
                ScriptedEvaluator.scoring(
                    "b", null, Map.of("accuracy", 90.0, "cites_sources", 0.0))));
    assertThat(combined.inputs().get("accuracy").score()).isEqualByComparingTo("85");
    assertThat(combined.inputs().get("accuracy").confidence())
        .isEqualByComparingTo("0.9"); // no stated certainty
    assertThat(combined.inputs().get("cites_sources").score()).isEqualByComparingTo("0");
    assertThat(combined.inputs().get("cites_sources").evidence())
        .contains("a tie, counted as false");
  }

  @Test
  void agreeingEvaluatorsAreMoreConfidentThanDisagreeingOnes() throws Exception {
    var agree =
        Consensus.combine(
            CRITERIA,
            run(
                ScriptedEvaluator.scoring("a", 0.9, Map.of("accuracy", 84.0)),
                ScriptedEvaluator.scoring("b", 0.9, Map.of("accuracy", 86.0))));
    var disagree =
        Consensus.combine(
            CRITERIA,
            run(
                ScriptedEvaluator.scoring("a", 0.9, Map.of("accuracy", 40.0)),
                ScriptedEvaluator.scoring("b", 0.9, Map.of("accuracy", 100.0))));
    assertThat(agree.inputs().get("accuracy").confidence())
        .isGreaterThan(disagree.inputs().get("accuracy").confidence());
    assertThat(disagree.inputs().get("accuracy").confidence())
        .isEqualByComparingTo("0.36"); // (1 - 0.6) x 0.9
  }

  @Test
  void aDimensionNobodyScoredStaysNotEvaluatedWithTheReasons() throws Exception {
    var combined =
        Consensus.combine(
            CRITERIA, run(ScriptedEvaluator.scoring("a", 0.9, Map.of("accuracy", 84.0))));
    assertThat(combined.inputs().get("cites_sources").isEvaluated()).isFalse();
    assertThat(combined.inputs().get("cites_sources").evidence())
        .isEqualTo("a cannot judge cites_sources");
    assertThat(combined.report()).isNull(); // one evaluator: no consensus to report
    assertThat(combined.inputs().get("accuracy").confidence()).isEqualByComparingTo("0.9");
  }
}
