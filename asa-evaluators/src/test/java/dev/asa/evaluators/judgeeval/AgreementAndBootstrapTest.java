package dev.asa.evaluators.judgeeval;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.Random;
import org.junit.jupiter.api.Test;

/** Agreement rates and the percentile bootstrap, against values worked out by hand. */
class AgreementAndBootstrapTest {

  @Test
  void agreementIsTheShareOfHits() {
    boolean[] hits = {true, false, true, true};
    assertThat(Agreement.of(hits)).isEqualTo(0.75);
    assertThat(Agreement.of(hits, new int[] {0, 0, 1})).isCloseTo(2.0 / 3, within(1e-12));
    assertThat(Agreement.of(new boolean[0])).isNaN();
  }

  @Test
  void quantilesInterpolateBetweenOrderStatistics() {
    double[] sorted = {1, 2, 3, 4, 5};
    // h = 4 * 0.025 = 0.1 and 4 * 0.975 = 3.9
    assertThat(Bootstrap.quantile(sorted, 0.025)).isCloseTo(1.1, within(1e-12));
    assertThat(Bootstrap.quantile(sorted, 0.975)).isCloseTo(4.9, within(1e-12));
    assertThat(Bootstrap.quantile(sorted, 0.5)).isEqualTo(3);
    assertThat(Bootstrap.quantile(new double[] {7}, 0.975)).isEqualTo(7);
  }

  @Test
  void aStatisticThatNeverChangesHasAPointInterval() {
    Interval i = Bootstrap.DEFAULT.interval(37, idx -> 0.5);
    assertThat(i).isEqualTo(new Interval(0.5, 0.5));
    boolean[] all = new boolean[20];
    java.util.Arrays.fill(all, true);
    assertThat(Bootstrap.DEFAULT.interval(20, idx -> Agreement.of(all, idx)))
        .isEqualTo(new Interval(1, 1));
  }

  @Test
  void theSameSeedGivesTheSameInterval() {
    boolean[] hits = randomHits(new Random(7), 60, 0.7);
    Bootstrap b = new Bootstrap(500, 99);
    Interval first = b.interval(hits.length, idx -> Agreement.of(hits, idx));
    Interval again = b.interval(hits.length, idx -> Agreement.of(hits, idx));
    assertThat(again).isEqualTo(first);
  }

  @Test
  void intervalsHoldTheEstimateAndNarrowWithMoreRecords() {
    Random random = new Random(42);
    for (int trial = 0; trial < 20; trial++) {
      boolean[] small = randomHits(random, 40, 0.65);
      boolean[] large = randomHits(random, 1000, 0.65);
      Interval s = Bootstrap.DEFAULT.interval(small.length, idx -> Agreement.of(small, idx));
      Interval l = Bootstrap.DEFAULT.interval(large.length, idx -> Agreement.of(large, idx));
      assertThat(Agreement.of(small)).isBetween(s.lower(), s.upper());
      assertThat(Agreement.of(large)).isBetween(l.lower(), l.upper());
      assertThat(l.upper() - l.lower()).isLessThan(s.upper() - s.lower());
      // The binomial standard error of 0.65 over 1000 is 0.015: the 95% interval spans ~0.06.
      assertThat(l.upper() - l.lower()).isBetween(0.04, 0.08);
    }
  }

  @Test
  void aStatisticUndefinedOnMostResamplesHasNoInterval() {
    assertThat(Bootstrap.DEFAULT.interval(10, idx -> Double.NaN)).isNull();
    assertThat(Bootstrap.DEFAULT.interval(0, idx -> 1)).isNull();
    // Undefined on about a quarter of the resamples: those are left out, the rest kept.
    Interval some = Bootstrap.DEFAULT.interval(10, idx -> idx[0] < 3 ? Double.NaN : 0.25);
    assertThat(some).isEqualTo(new Interval(0.25, 0.25));
  }

  private static boolean[] randomHits(Random random, int n, double p) {
    boolean[] hits = new boolean[n];
    for (int i = 0; i < n; i++) {
      hits[i] = random.nextDouble() < p;
    }
    return hits;
  }
}
