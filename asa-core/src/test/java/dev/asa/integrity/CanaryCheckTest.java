package dev.asa.integrity;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.math.BigDecimal;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class CanaryCheckTest {

  private static final Canary BAD =
      Canaries.set(2).canaries().get(1); // known 25 / 30, tolerance 10

  private static Map<String, BigDecimal> scores(int accuracy, int writing) {
    return Map.of("accuracy", BigDecimal.valueOf(accuracy), "writing", BigDecimal.valueOf(writing));
  }

  @Test
  void scoresWithinToleranceOfEveryKnownDimensionPass() {
    CanaryCheck c = CanaryCheck.of(BAD, scores(35, 20)); // both exactly 10 off: inclusive
    assertThat(c.passed()).isTrue();
    assertThat(c.problems()).isEmpty();
    assertThat(c.deviations().get("accuracy").bias()).contains(new BigDecimal("10.00"));
    assertThat(c.deviations().get("writing").bias()).contains(new BigDecimal("-10.00"));
    assertThat(c.toJson().has("problems")).isFalse();
  }

  @Test
  void aKnownBadDeliverableRatedGoodFailsSayingByHowMuch() {
    CanaryCheck c = CanaryCheck.of(BAD, scores(85, 32));
    assertThat(c.passed()).isFalse();
    assertThat(c.problems())
        .containsExactly("accuracy: scored 85 against a known 25 (off by 60; tolerance 10)");
    assertThat(c.toJson().path("dimensions").path("accuracy").path("within_tolerance").asBoolean())
        .isFalse();
    assertThat(c.toJson().path("dimensions").path("writing").path("deviation").asInt())
        .isEqualTo(2);
  }

  @Test
  void aDimensionLeftUnscoredFailsAndScoresOfUnknownDimensionsAreIgnored() {
    CanaryCheck c =
        CanaryCheck.of(
            BAD, Map.of("accuracy", BigDecimal.valueOf(25), "on_time", BigDecimal.valueOf(100)));
    assertThat(c.passed()).isFalse();
    assertThat(c.problems()).containsExactly("writing: not scored (known score 30)");
    assertThat(c.deviations()).containsOnlyKeys("accuracy");
  }

  @Test
  void anUnansweredCanaryFailsWithNoCalibration() {
    CanaryCheck c = CanaryCheck.unanswered(BAD);
    assertThat(c.passed()).isFalse();
    assertThat(c.answered()).isFalse();
    assertThat(c.problems()).containsExactly("did not answer by the deadline");
    assertThat(c.deviations()).isEmpty();
    assertThatThrownBy(() ->
            new CanaryCheck(
                "x",
                false,
                List.of(
                    new CanaryCheck.DimensionCheck(
                        "a", BigDecimal.ONE, BigDecimal.ONE, BigDecimal.ONE))))
        .hasMessageContaining("no scores");
  }
}
