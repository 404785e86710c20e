package dev.asa.integrity;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.math.BigDecimal;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class TrackRecordTest {

  private static final CanaryCheck PASSED =
      new CanaryCheck(
          "c1",
          true,
          List.of(
              new CanaryCheck.DimensionCheck(
                  "accuracy", BigDecimal.valueOf(30), BigDecimal.valueOf(34), BigDecimal.TEN)));
  private static final CanaryCheck FAILED =
      new CanaryCheck(
          "c2",
          true,
          List.of(
              new CanaryCheck.DimensionCheck(
                  "accuracy", BigDecimal.valueOf(30), BigDecimal.valueOf(80), BigDecimal.TEN)));

  @Test
  void aNewRecordHasNoRateAndNoCalibration() {
    assertThat(TrackRecord.NEW.canaryPassRate()).isEmpty();
    assertThat(TrackRecord.NEW.calibration().overall().samples()).isZero();
    assertThat(TrackRecord.NEW.passRateAtLeast(BigDecimal.ZERO)).isFalse();
    assertThat(TrackRecord.NEW.toJson().has("canary_pass_rate")).isFalse();
  }

  @Test
  void canariesCountAsEvaluationsWhenAnsweredAndCalibrateTheEvaluator() {
    TrackRecord r = TrackRecord.NEW.withCanary(PASSED).withCanary(FAILED);
    assertThat(r.evaluations()).isEqualTo(2);
    assertThat(r.canaryTasks()).isEqualTo(2);
    assertThat(r.canaryPasses()).isEqualTo(1);
    assertThat(r.canaryPassRate()).contains(new BigDecimal("0.5000"));
    Deviation accuracy = r.calibration().fromKnown().get("accuracy");
    assertThat(accuracy.samples()).isEqualTo(2);
    assertThat(accuracy.meanAbsolute()).contains(new BigDecimal("27.00"));
    assertThat(accuracy.bias()).contains(new BigDecimal("27.00"));

    TrackRecord silent = r.withCanary(CanaryCheck.unanswered(canary()));
    assertThat(silent.evaluations()).as("no answer, no evaluation").isEqualTo(2);
    assertThat(silent.canaryTasks()).isEqualTo(3);
    assertThat(silent.canaryPasses()).isEqualTo(1);
    assertThat(silent.calibration()).isEqualTo(r.calibration());
  }

  @Test
  void streaksGrowWithEachDeliveryAndEndWhenAnotherEvaluatorTakesOne() {
    TrackRecord r =
        TrackRecord.NEW
            .withEvaluationOf("prov-a")
            .withEvaluationOf("prov-a")
            .withEvaluationOf("prov-b");
    assertThat(r.evaluations()).isEqualTo(3);
    assertThat(r.consecutiveFor("prov-a")).isEqualTo(2);
    assertThat(r.consecutiveFor("prov-b")).isEqualTo(1);
    assertThat(r.consecutiveFor("prov-c")).isZero();
    TrackRecord after = r.withProviderAssessedByAnother("prov-a");
    assertThat(after.consecutiveFor("prov-a")).isZero();
    assertThat(after.consecutiveByProvider()).containsOnlyKeys("prov-b");
    assertThat(after.withProviderAssessedByAnother("prov-z")).isSameAs(after);
    assertThat(r.toJson().path("consecutive_by_provider").toString())
        .isEqualTo("{\"prov-a\":2,\"prov-b\":1}");
  }

  @Test
  void passRateComparisonsAreExact() {
    TrackRecord r = Pools.record(60, 20, 19, "1");
    assertThat(r.passRateAtLeast(new BigDecimal("0.95"))).isTrue();
    assertThat(r.passRateAbove(new BigDecimal("0.95"))).isFalse();
    assertThat(r.passRateAbove(new BigDecimal("0.9499"))).isTrue();
    assertThat(Pools.record(3, 3, 2, "1").canaryPassRate()).contains(new BigDecimal("0.6667"));
  }

  @Test
  void consensusCalibrationAddsUp() {
    Calibration more =
        new Calibration(
            Map.of(),
            Map.of("accuracy", Deviation.of(BigDecimal.valueOf(70), BigDecimal.valueOf(60))));
    TrackRecord r = TrackRecord.NEW.withCanary(PASSED).withCalibration(more);
    assertThat(r.calibration().overall().samples()).isEqualTo(2);
    assertThat(r.calibration().overall().meanAbsolute()).contains(new BigDecimal("7.00"));
    assertThat(r.toJson().path("calibration_deviation").decimalValue()).isEqualByComparingTo("7");
  }

  @Test
  void impossibleRecordsAreRefused() {
    assertThatThrownBy(() -> new TrackRecord(1, 2, 3, Calibration.EMPTY, Map.of()))
        .hasMessageContaining("cannot pass 3 of 2");
    assertThatThrownBy(() -> new TrackRecord(-1, 0, 0, Calibration.EMPTY, Map.of()))
        .hasMessageContaining("negative");
    assertThatThrownBy(() -> new TrackRecord(1, 0, 0, Calibration.EMPTY, Map.of("p", 0)))
        .hasMessageContaining("leave provider p out");
  }

  private static Canary canary() {
    return new Canary(
        "c3",
        null,
        dev.asa.json.Json.object().put("description", "x"),
        dev.asa.json.Json.object().put("content", "y"),
        dev.asa.json.Json.object(),
        Map.of("accuracy", BigDecimal.valueOf(30)),
        BigDecimal.TEN);
  }
}
