package dev.asa.evaluators.judgeeval;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.Random;
import org.junit.jupiter.api.Test;

/** Ranks, Spearman and Kendall's tau-b against values worked out by hand, then by definition. */
class RankCorrelationTest {

  @Test
  void tiedValuesShareTheMeanOfTheirRanks() {
    assertThat(Ranks.averaged(new double[] {10, 20, 20, 30})).containsExactly(1, 2.5, 2.5, 4);
    assertThat(Ranks.averaged(new double[] {3, 1, 2})).containsExactly(3, 1, 2);
    assertThat(Ranks.averaged(new double[] {5, 5, 5})).containsExactly(2, 2, 2);
    assertThat(Ranks.averaged(new double[] {7, 1, 7, 1, 7})).containsExactly(4, 1.5, 4, 1.5, 4);
  }

  @Test
  void spearmanWithoutTiesIsTheTextbookFormula() {
    // d = -1, 1, -1, 1, 0: 1 - 6 * 4 / (5 * 24) = 0.8
    assertThat(Spearman.of(new double[] {1, 2, 3, 4, 5}, new double[] {2, 1, 4, 3, 5}))
        .isCloseTo(0.8, within(1e-12));
    assertThat(Spearman.of(new double[] {1, 2, 3}, new double[] {30, 20, 10}))
        .isCloseTo(-1, within(1e-12));
  }

  @Test
  void spearmanWithTiesIsPearsonOfAveragedRanks() {
    // y ranks 1, 2, 3.5, 5, 3.5; centred x -2..2, y -2, -1, .5, 2, .5: 8 / sqrt(10 * 9.5)
    assertThat(Spearman.of(new double[] {1, 2, 3, 4, 5}, new double[] {5, 6, 7, 8, 7}))
        .isCloseTo(8 / Math.sqrt(95), within(1e-12));
  }

  @Test
  void aConstantSeriesHasNoCorrelation() {
    assertThat(Spearman.of(new double[] {1, 2, 3}, new double[] {4, 4, 4})).isNaN();
    assertThat(KendallTauB.of(new double[] {1, 2, 3}, new double[] {4, 4, 4})).isNaN();
    assertThat(Spearman.of(new double[] {1}, new double[] {2})).isNaN();
    assertThat(KendallTauB.of(new double[] {1}, new double[] {2})).isNaN();
  }

  @Test
  void kendallTauBByHand() {
    // 10 pairs, 2 discordant ((1,2) and (3,4)): (8 - 2) / 10
    assertThat(KendallTauB.of(new double[] {1, 2, 3, 4, 5}, new double[] {2, 1, 4, 3, 5}))
        .isCloseTo(0.6, within(1e-12));
    // 4 concordant, 1 pair tied in x, 1 tied in y: 4 / sqrt(5 * 5)
    assertThat(KendallTauB.of(new double[] {1, 2, 2, 3}, new double[] {1, 2, 3, 3}))
        .isCloseTo(0.8, within(1e-12));
    // 1 concordant, 1 discordant, 2 tied in x, 2 in y: 0 / 4
    assertThat(KendallTauB.of(new double[] {1, 1, 2, 2}, new double[] {1, 2, 1, 2}))
        .isCloseTo(0, within(1e-12));
    // a pair tied in both counts in both n1 and n2: 2 / sqrt(2 * 2), perfect agreement
    assertThat(KendallTauB.of(new double[] {1, 1, 2}, new double[] {1, 1, 2}))
        .isCloseTo(1, within(1e-12));
    assertThat(KendallTauB.of(new double[] {1, 2, 3}, new double[] {3, 2, 1}))
        .isCloseTo(-1, within(1e-12));
  }

  @Test
  void kendallTauBMatchesTheDefinitionOnRandomSeriesWithManyTies() {
    Random random = new Random(1515);
    for (int trial = 0; trial < 300; trial++) {
      int n = 2 + random.nextInt(40);
      double[] x = new double[n];
      double[] y = new double[n];
      int levels = 1 + random.nextInt(6);
      for (int i = 0; i < n; i++) {
        x[i] = random.nextInt(levels);
        y[i] = random.nextBoolean() ? x[i] : random.nextInt(levels);
      }
      double expected = byDefinition(x, y);
      double actual = KendallTauB.of(x, y);
      if (Double.isNaN(expected)) {
        assertThat(actual).as("trial %d", trial).isNaN();
      } else {
        assertThat(actual).as("trial %d", trial).isCloseTo(expected, within(1e-12));
      }
    }
  }

  @Test
  void spearmanWithoutTiesMatchesTheTextbookFormulaOnRandomPermutations() {
    Random random = new Random(2015);
    for (int trial = 0; trial < 200; trial++) {
      int n = 2 + random.nextInt(50);
      double[] x = new double[n];
      double[] y = new double[n];
      for (int i = 0; i < n; i++) {
        x[i] = i;
        y[i] = i;
      }
      for (int i = n - 1; i > 0; i--) {
        int j = random.nextInt(i + 1);
        double t = y[i];
        y[i] = y[j];
        y[j] = t;
      }
      double d2 = 0;
      for (int i = 0; i < n; i++) {
        d2 += (x[i] - y[i]) * (x[i] - y[i]);
      }
      double expected = 1 - 6 * d2 / ((double) n * ((double) n * n - 1));
      assertThat(Spearman.of(x, y)).isCloseTo(expected, within(1e-9));
      assertThat(Spearman.of(y, x)).isCloseTo(expected, within(1e-9));
    }
  }

  /** Every pair looked at once: (nc - nd) / sqrt((n0 - n1)(n0 - n2)). */
  private static double byDefinition(double[] x, double[] y) {
    long concordant = 0;
    long discordant = 0;
    long tiedX = 0;
    long tiedY = 0;
    int n = x.length;
    for (int i = 0; i < n; i++) {
      for (int j = i + 1; j < n; j++) {
        int sx = Double.compare(x[i], x[j]);
        int sy = Double.compare(y[i], y[j]);
        if (sx == 0) {
          tiedX++;
        }
        if (sy == 0) {
          tiedY++;
        }
        if (sx * sy > 0) {
          concordant++;
        } else if (sx * sy < 0) {
          discordant++;
        }
      }
    }
    long all = (long) n * (n - 1) / 2;
    double denominator = Math.sqrt((double) (all - tiedX) * (all - tiedY));
    return denominator == 0 ? Double.NaN : (concordant - discordant) / denominator;
  }
}
