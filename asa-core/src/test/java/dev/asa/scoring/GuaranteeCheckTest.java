package dev.asa.scoring;

import static org.assertj.core.api.Assertions.assertThat;

import dev.asa.agreement.SeriesGuarantee;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

class GuaranteeCheckTest {

  private static List<GuaranteeCheck.Delivery> passes(boolean... passed) {
    List<GuaranteeCheck.Delivery> out = new ArrayList<>();
    for (boolean p : passed) {
      out.add(new GuaranteeCheck.Delivery(p, Map.of()));
    }
    return out;
  }

  private static List<GuaranteeCheck.Delivery> accuracy(int... scores) {
    List<GuaranteeCheck.Delivery> out = new ArrayList<>();
    for (int s : scores) {
      out.add(new GuaranteeCheck.Delivery(true, Map.of("accuracy", BigDecimal.valueOf(s))));
    }
    return out;
  }

  @Test
  void passAtTwoOfSevenPassesInTenIsOneMinusThreeOverFortyFive() {
    var g = new SeriesGuarantee.PassAtK(2, BigDecimal.valueOf(95), 20, 2);
    var outcome =
        GuaranteeCheck.evaluate(
            g, passes(true, true, false, true, true, false, true, true, false, true));
    // 1 - C(3,2)/C(10,2) = 1 - 3/45 = 0.93333...
    assertThat(outcome.value()).isEqualByComparingTo("93.333");
    assertThat(outcome.met()).isFalse();
    assertThat(outcome.evidence())
        .contains("7 of the last 10 deliveries passed")
        .contains("below the guaranteed 95%");
  }

  @Test
  void passAtFiveIsCertainWhenFewerThanFiveFailed() {
    var g = new SeriesGuarantee.PassAtK(5, BigDecimal.valueOf(95), 20, 5);
    assertThat(GuaranteeCheck.evaluate(g, passes(false, false, false, false, true, true)).value())
        .isEqualByComparingTo("100");
    // C(5,5)/C(6,5) = 1/6: pass@5 = 83.333
    assertThat(GuaranteeCheck.evaluate(g, passes(false, false, false, false, false, true)).value())
        .isEqualByComparingTo("83.333");
  }

  @Test
  void aShortSeriesIsNotYetEvaluableNeverMet() {
    var g = new SeriesGuarantee.PassAtK(5, BigDecimal.valueOf(95), 20, 5);
    var outcome = GuaranteeCheck.evaluate(g, passes(true, true, true));
    assertThat(outcome.met()).isNull();
    assertThat(outcome.asCheck().passed()).isFalse();
    assertThat(outcome.evidence()).contains("needs 5 deliveries; the series has 3");
  }

  @Test
  void onlyTheNewestWindowCounts() {
    var g = new SeriesGuarantee.PassAtK(1, BigDecimal.valueOf(100), 3, 1);
    var outcome = GuaranteeCheck.evaluate(g, passes(false, false, false, true, true, true));
    assertThat(outcome.deliveries()).isEqualTo(3);
    assertThat(outcome.met()).isTrue();
  }

  @Test
  void p90AccuracyAtLeast85NeedsNineOfTen() {
    var g = new SeriesGuarantee.Percentile("accuracy", 90, BigDecimal.valueOf(85), 20, 5);
    var eightOfTen = GuaranteeCheck.evaluate(g, accuracy(80, 86, 90, 88, 85, 84, 95, 91, 87, 89));
    assertThat(eightOfTen.value()).isEqualByComparingTo("80");
    assertThat(eightOfTen.met()).isFalse();
    var nineOfTen = GuaranteeCheck.evaluate(g, accuracy(86, 86, 90, 88, 85, 84, 95, 91, 87, 89));
    assertThat(nineOfTen.met()).isTrue();
    assertThat(nineOfTen.evidence())
        .contains("9 of the last 10 deliveries (90%) scored at least 85 on accuracy");
  }

  @Test
  void passAtKMatchesBruteForceOverRandomSeries() {
    long seed = 20261122L;
    Random random = new Random(seed);
    for (int trial = 0; trial < 500; trial++) {
      int n = 1 + random.nextInt(12);
      int c = random.nextInt(n + 1);
      int k = 1 + random.nextInt(n);
      // brute force: the share of k-subsets of n with at least one of the c passes
      long subsets = 0;
      long withPass = 0;
      for (int mask = 0; mask < (1 << n); mask++) {
        if (Integer.bitCount(mask) == k) {
          subsets++;
          if ((mask & ((1 << c) - 1)) != 0) {
            withPass++;
          }
        }
      }
      BigDecimal expected =
          BigDecimal.valueOf(withPass)
              .divide(BigDecimal.valueOf(subsets), java.math.MathContext.DECIMAL64);
      BigDecimal actual = BigDecimal.ONE.subtract(GuaranteeCheck.noneOfKPass(n, c, k));
      assertThat(actual.subtract(expected).abs())
          .as("seed %d, n=%d c=%d k=%d", seed, n, c, k)
          .isLessThan(new BigDecimal("1e-12"));
    }
  }
}
