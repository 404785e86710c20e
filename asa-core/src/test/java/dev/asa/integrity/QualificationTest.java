package dev.asa.integrity;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.math.BigDecimal;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class QualificationTest {

  private static final QualificationPolicy POLICY = QualificationPolicy.DEFAULTS;

  @Test
  void theDefaultsAreTheWhitepapers() {
    assertThat(POLICY.minEvaluations()).isEqualTo(50);
    assertThat(POLICY.minCanaryPassRate()).isEqualByComparingTo("0.9");
    assertThat(POLICY.maxDeviationPoints()).isEqualByComparingTo("10");
  }

  @Test
  void aGoodRecordQualifiesOnProbationUntilItHasJudgedRealWorkBesideOthers() {
    Qualification q = POLICY.assess(Pools.qualifiedRecord(), Standing.ACTIVE);
    assertThat(q.qualified()).isTrue();
    assertThat(q.reasons()).isEmpty();
    assertThat(q.onProbation()).as("canaries alone").isTrue();
    assertThat(q.probation())
        .contains("has 0 scores of real work compared with other evaluators'")
        .contains("needs 12");
    assertThat(q.toJson().path("probation").asText()).isEqualTo(q.probation());

    TrackRecord eleven =
        Pools.qualifiedRecord()
            .withCalibration(
                new Calibration(
                    Map.of(),
                    Map.of("accuracy", new Deviation(11, BigDecimal.TEN, BigDecimal.ONE))));
    assertThat(POLICY.assess(eleven, Standing.ACTIVE).onProbation()).isTrue();
    TrackRecord seasoned =
        eleven.withCalibration(
            new Calibration(
                Map.of(), Map.of("writing", new Deviation(1, BigDecimal.ONE, BigDecimal.ONE))));
    Qualification off = POLICY.assess(seasoned, Standing.ACTIVE);
    assertThat(off.onProbation()).isFalse();
    assertThat(off.toJson().toString()).isEqualTo("{\"qualified\":true}");

    QualificationPolicy noProbation =
        new QualificationPolicy(50, new BigDecimal("0.9"), BigDecimal.TEN, 0);
    assertThat(noProbation.assess(Pools.qualifiedRecord(), Standing.ACTIVE).onProbation())
        .isFalse();
    assertThat(POLICY.assess(TrackRecord.NEW, Standing.ACTIVE).onProbation())
        .as("an evaluator that does not qualify is not on probation either")
        .isFalse();
  }

  @Test
  void aNewEvaluatorIsToldEverythingItLacks() {
    Qualification q = POLICY.assess(TrackRecord.NEW, Standing.ACTIVE);
    assertThat(q.qualified()).isFalse();
    assertThat(q.reasons())
        .containsExactly(
            "has 0 evaluations; needs 50",
            "has taken no canary task yet; needs a canary pass rate of at least 90%",
            "has no calibration yet (no canary or shared deliverable scored); needs a deviation"
                + " of at most 10 points");
    assertThat(q.toJson().path("reasons")).hasSize(3);
  }

  @Test
  void tooFewEvaluationsSaysHowMany() {
    assertThat(POLICY.assess(Pools.record(12, 20, 20, "2"), Standing.ACTIVE).reasons())
        .containsExactly("has 12 evaluations; needs 50");
    assertThat(POLICY.assess(Pools.record(1, 1, 1, "2"), Standing.ACTIVE).reasons())
        .contains("has 1 evaluation; needs 50");
  }

  @ParameterizedTest
  @CsvSource({
    "45, 50, true", // exactly 90%: the bound is inclusive, and exact (no rounding)
    "44, 50, false",
    "9, 10, true",
    "26, 29, false", // 89.66%
    "27, 30, true"
  })
  void thePassRateBoundIsExactAndInclusive(int passes, int tasks, boolean qualified) {
    TrackRecord r = Pools.record(60, tasks, passes, "2");
    assertThat(POLICY.assess(r, Standing.ACTIVE).qualified()).isEqualTo(qualified);
  }

  @Test
  void aLowPassRateSaysTheCountsAndTheRate() {
    assertThat(POLICY.assess(Pools.record(60, 20, 17, "2"), Standing.ACTIVE).reasons())
        .containsExactly("passed 17 of 20 canary tasks (85%); needs at least 90%");
    assertThat(POLICY.assess(Pools.record(60, 12, 10, "2"), Standing.ACTIVE).reasons())
        .containsExactly("passed 10 of 12 canary tasks (83.3%); needs at least 90%");
  }

  @Test
  void aDeviationBeyondTheBoundSaysWhichWayAndWhere() {
    Calibration c =
        new Calibration(
            Map.of(
                "accuracy", new Deviation(4, new BigDecimal("80"), new BigDecimal("80")),
                "writing", new Deviation(4, new BigDecimal("8"), new BigDecimal("8"))),
            Map.of());
    TrackRecord r = new TrackRecord(60, 8, 8, c, Map.of());
    assertThat(POLICY.assess(r, Standing.ACTIVE).reasons())
        .containsExactly(
            "its scores deviate 11.00 points on average from known and consensus scores"
                + " (lenient, bias +11.00; worst dimension accuracy: 20.00); at most 10 allowed");
    TrackRecord harsh =
        new TrackRecord(
            60,
            8,
            8,
            new Calibration(
                Map.of("accuracy", new Deviation(2, new BigDecimal("30"), new BigDecimal("-30"))),
                Map.of()),
            Map.of());
    assertThat(POLICY.assess(harsh, Standing.ACTIVE).reasons().getFirst())
        .contains("harsh, bias -15.00");
    // Exactly at the bound is within it.
    assertThat(POLICY.assess(Pools.record(60, 20, 20, "10"), Standing.ACTIVE).qualified()).isTrue();
  }

  @Test
  void suspensionIsAReasonWhateverTheRecord() {
    Qualification q =
        POLICY.assess(Pools.qualifiedRecord(), Standing.suspended("colluded with provider X"));
    assertThat(q.reasons()).containsExactly("suspended by the operator: colluded with provider X");
    assertThatThrownBy(() -> Standing.suspended(null)).hasMessageContaining("say why");
  }

  @Test
  void anOperatorCanLowerEveryBarToZero() {
    QualificationPolicy open = new QualificationPolicy(0, BigDecimal.ZERO, BigDecimal.valueOf(100));
    assertThat(open.assess(TrackRecord.NEW, Standing.ACTIVE).qualified()).isTrue();
  }

  @Test
  void thePolicyRefusesBoundsOutsideTheirRange() {
    assertThatThrownBy(() -> new QualificationPolicy(-1, BigDecimal.ONE, BigDecimal.TEN))
        .hasMessageContaining("must not be negative");
    assertThatThrownBy(() -> new QualificationPolicy(50, new BigDecimal("90"), BigDecimal.TEN))
        .hasMessageContaining("0.9 for 90%");
    assertThatThrownBy(() -> new QualificationPolicy(50, BigDecimal.ONE, new BigDecimal("-1")))
        .hasMessageContaining("0 to 100 score points");
  }

  @ParameterizedTest
  @CsvSource({"0.9, 90%", "0.9167, 91.7%", "1, 100%", "0, 0%", "0.95, 95%"})
  void percentagesReadNaturally(String fraction, String text) {
    assertThat(QualificationPolicy.percent(new BigDecimal(fraction))).isEqualTo(text);
  }
}
