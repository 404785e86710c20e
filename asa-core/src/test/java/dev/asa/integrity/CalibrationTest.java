package dev.asa.integrity;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.asa.integrity.Calibration.Score;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

class CalibrationTest {

  private static Score s(String evaluator, String deliverable, String dimension, int score) {
    return new Score(evaluator, deliverable, dimension, BigDecimal.valueOf(score));
  }

  @Test
  void aCanaryScoreIsComparedWithTheKnownScore() {
    Map<String, Calibration> c =
        Calibration.compute(
            List.of(s("e1", "canary-1", "accuracy", 80), s("e1", "canary-1", "writing", 50)),
            Map.of("canary-1", Map.of("accuracy", BigDecimal.valueOf(30))));
    Deviation accuracy = c.get("e1").fromKnown().get("accuracy");
    assertThat(accuracy.samples()).isEqualTo(1);
    assertThat(accuracy.meanAbsolute()).contains(new BigDecimal("50.00"));
    assertThat(accuracy.bias()).contains(new BigDecimal("50.00"));
    assertThat(c.get("e1").fromKnown()).doesNotContainKey("writing");
    assertThat(c.get("e1").fromConsensus()).isEmpty();
  }

  @Test
  void aSharedDeliverableIsComparedWithTheMedianOfTheOthers() {
    List<Score> scores =
        List.of(
            s("honest-1", "d1", "accuracy", 70),
            s("honest-2", "d1", "accuracy", 74),
            s("honest-3", "d1", "accuracy", 72),
            s("lenient", "d1", "accuracy", 95));
    Map<String, Calibration> c = Calibration.compute(scores, Map.of());
    // The lenient one against the median of 70, 72, 74.
    assertThat(c.get("lenient").fromConsensus().get("accuracy").meanAbsolute())
        .contains(new BigDecimal("23.00"));
    // honest-1 against the median of 72, 74, 95 = 74.
    assertThat(c.get("honest-1").fromConsensus().get("accuracy").bias())
        .contains(new BigDecimal("-4.00"));
    assertThat(c.get("honest-3").fromConsensus().get("accuracy").meanAbsolute())
        .contains(new BigDecimal("2.00"));
    assertThat(c.get("lenient").fromKnown()).isEmpty();
  }

  @Test
  void withOnlyOneOtherEvaluatorThereIsNoConsensus() {
    Map<String, Calibration> c =
        Calibration.compute(
            List.of(s("a", "d1", "accuracy", 10), s("b", "d1", "accuracy", 90)), Map.of());
    assertThat(c).isEmpty();
  }

  @Test
  void theMedianOfAnEvenCountIsTheMeanOfTheMiddleTwo() {
    assertThat(
            Calibration.median(
                List.of(
                    BigDecimal.valueOf(71),
                    BigDecimal.ONE,
                    BigDecimal.valueOf(100),
                    BigDecimal.valueOf(70))))
        .isEqualByComparingTo("70.5");
    assertThat(Calibration.median(List.of(BigDecimal.valueOf(3)))).isEqualByComparingTo("3");
    assertThatThrownBy(() -> Calibration.median(List.of())).hasMessageContaining("nothing");
  }

  @Test
  void scoringTheSameThingTwiceIsRefused() {
    assertThatThrownBy(() ->
            Calibration.compute(
                List.of(s("a", "d1", "accuracy", 10), s("a", "d1", "accuracy", 12)), Map.of()))
        .hasMessageContaining("scored accuracy of d1 twice");
  }

  @Test
  void theWorstDimensionAndOverallPoolBothKinds() {
    Calibration c =
        new Calibration(
            Map.of("accuracy", new Deviation(2, BigDecimal.valueOf(10), BigDecimal.valueOf(-10))),
            Map.of(
                "accuracy", new Deviation(2, BigDecimal.valueOf(2), BigDecimal.ZERO),
                "writing", new Deviation(1, BigDecimal.valueOf(9), BigDecimal.valueOf(9))));
    assertThat(c.byDimension().get("accuracy").samples()).isEqualTo(4);
    assertThat(c.byDimension().get("accuracy").meanAbsolute()).contains(new BigDecimal("3.00"));
    assertThat(c.worstDimension().orElseThrow().getKey()).isEqualTo("writing");
    assertThat(c.overall().samples()).isEqualTo(5);
    assertThat(c.overall().meanAbsolute()).contains(new BigDecimal("4.20"));
    assertThat(c.toJson().path("overall").path("mean_absolute").decimalValue())
        .isEqualByComparingTo("4.2");
    assertThat(Calibration.EMPTY.worstDimension()).isEmpty();
  }

  @Test
  void calibrationsMergeTheSameInAnyOrder() {
    // Property: the record of a whole history is the record of its parts, however split.
    Random random = new Random(20260314L);
    for (int round = 0; round < 200; round++) {
      List<Calibration> parts = new ArrayList<>();
      for (int i = 0; i < 1 + random.nextInt(6); i++) {
        Calibration c = Calibration.EMPTY;
        for (int j = 0; j < random.nextInt(5); j++) {
          String dim = List.of("accuracy", "depth", "writing").get(random.nextInt(3));
          Deviation d =
              Deviation.of(
                  BigDecimal.valueOf(random.nextInt(101)), BigDecimal.valueOf(random.nextInt(101)));
          c =
              random.nextBoolean()
                  ? c.plusKnown(dim, d)
                  : c.plus(new Calibration(Map.of(), Map.of(dim, d)));
        }
        parts.add(c);
      }
      Calibration forward = Calibration.EMPTY;
      for (Calibration p : parts) {
        forward = forward.plus(p);
      }
      Calibration backward = Calibration.EMPTY;
      for (int i = parts.size() - 1; i >= 0; i--) {
        backward = parts.get(i).plus(backward);
      }
      assertThat(backward).isEqualTo(forward);
      assertThat(forward.overall().samples())
          .isEqualTo(parts.stream().mapToInt(p -> p.overall().samples()).sum());
    }
  }

  @Test
  void deviationsRefuseImpossibleSums() {
    assertThatThrownBy(() -> new Deviation(0, BigDecimal.ONE, BigDecimal.ZERO))
        .hasMessageContaining("over no sample is zero");
    assertThatThrownBy(() -> new Deviation(1, BigDecimal.ONE, BigDecimal.TEN))
        .hasMessageContaining("cannot exceed");
    assertThat(Deviation.NONE.meanAbsolute()).isEmpty();
    assertThat(Deviation.NONE.toJson().toString()).isEqualTo("{\"samples\":0}");
  }
}
