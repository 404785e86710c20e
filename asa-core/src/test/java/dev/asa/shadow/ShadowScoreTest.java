package dev.asa.shadow;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.math.BigDecimal;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class ShadowScoreTest {

  @ParameterizedTest(name = "{0}/{1} -> {2} {3}")
  @CsvSource({
    // the boundaries of issue 7: level on the exact fraction, shown half-even to one decimal
    "3, 20, 15.0, minor",
    "4, 25, 16.0, moderate",
    "1, 16, 6.2, minor",
    "17, 113, 15.0, moderate",
    "0, 0, 0.0, perfect",
    "7, 7, 100.0, critical",
    // the other upper-inclusive bounds, exactly on and just past
    "6, 20, 30.0, moderate",
    "61, 200, 30.5, significant",
    "1, 2, 50.0, significant",
    "101, 200, 50.5, critical",
    // a failure too small to show still is not perfect
    "1, 2001, 0.0, minor",
    // half-even both ways: 3/16 = 18.75 -> 18.8, 1/80 = 1.25 -> 1.2
    "3, 16, 18.8, moderate",
    "1, 80, 1.2, minor",
    "1, 3, 33.3, significant",
    "2, 3, 66.7, critical",
    "1, 9, 11.1, minor",
  })
  void classifiesTheExactFractionAndReportsHalfEven(
      int failed, int total, String shown, String level) {
    ShadowScore score = new ShadowScore(total, failed);

    assertThat(score.percentage()).isEqualTo(new BigDecimal(shown)); // scale too: 15.0, not 15
    assertThat(score.level().wire()).isEqualTo(level);
    assertThat(score.passed()).isEqualTo(total - failed);
  }

  @Test
  void seventeenOf113IsAboveFifteenPercentThoughItIsShownAs15() {
    ShadowScore score = new ShadowScore(113, 17);

    assertThat(score.percentage()).isEqualByComparingTo("15.0");
    assertThat(score.level()).isEqualTo(Level.MODERATE);
    assertThat(new ShadowScore(20, 3).level()).isEqualTo(Level.MINOR);
  }

  @Test
  void anEmptySuiteIsZeroPerfectAndAdvisory() {
    ShadowReport report = ShadowReport.of(TestSuite.of());

    assertThat(report.score().percentage()).isEqualTo(new BigDecimal("0.0"));
    assertThat(report.score().level()).isEqualTo(Level.PERFECT);
    assertThat(report.isAdvisory()).isTrue();
    assertThat(report.advisoryReasonInEffect())
        .hasValueSatisfying(r -> assertThat(r).contains("nothing was sealed"));
  }

  @Test
  void allFailingIsHundredCritical() {
    TestSuite suite =
        TestSuite.of(
            TestResult.failed("a", Category.SECURITY, "x", "y", "m"),
            TestResult.failed("b", Category.SECURITY, "x", "y", "m"));

    ShadowScore score = ShadowScore.of(suite);

    assertThat(score.percentage()).isEqualTo(new BigDecimal("100.0"));
    assertThat(score.level()).isEqualTo(Level.CRITICAL);
  }

  @Test
  void exceedingIsStrictlyAboveTheThresholdOnTheReportedScore() {
    ShadowScore elevenPointOne = new ShadowScore(9, 1);

    assertThat(elevenPointOne.exceeds(new BigDecimal("15"))).isFalse();
    assertThat(elevenPointOne.exceeds(new BigDecimal("10"))).isTrue();
    assertThat(elevenPointOne.exceeds(new BigDecimal("11.1"))).isFalse();
    assertThat(new ShadowScore(0, 0).exceeds(BigDecimal.ZERO)).isFalse();
    assertThat(new ShadowScore(5, 3).exceeds(BigDecimal.ZERO)).isTrue();
  }

  @Test
  void refusesImpossibleCounts() {
    assertThatThrownBy(() -> new ShadowScore(3, 4)).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> new ShadowScore(-1, 0)).isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void largeSuitesDoNotOverflow() {
    ShadowScore score = new ShadowScore(Integer.MAX_VALUE, Integer.MAX_VALUE / 2);

    assertThat(score.level()).isEqualTo(Level.SIGNIFICANT);
    assertThat(score.percentage()).isEqualByComparingTo("50.0");
  }
}
