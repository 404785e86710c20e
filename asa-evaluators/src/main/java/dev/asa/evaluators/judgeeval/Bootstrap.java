package dev.asa.evaluators.judgeeval;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.asa.json.Json;
import java.util.Arrays;
import java.util.Random;

/**
 * Percentile bootstrap confidence intervals: draw {@code resamples} samples of the records with
 * replacement, compute the statistic on each, and take the 2.5th and 97.5th percentiles (linear
 * interpolation between order statistics, "type 7").
 *
 * <p>Seeded, so the same file gives the same interval on every run and every machine; and every
 * statistic computed with the same settings on the same number of records sees the same resamples,
 * which makes the evaluator's and the baseline's intervals (and their difference) a paired
 * comparison.
 *
 * @param resamples how many resamples (1,000 by default)
 * @param seed the seed of the resampling
 */
public record Bootstrap(int resamples, long seed) {

  /** 1,000 resamples, seed 15 (the issue that asked for this harness). */
  public static final Bootstrap DEFAULT = new Bootstrap(1000, 15);

  /** The coverage of the interval. */
  public static final double CONFIDENCE = 0.95;

  public Bootstrap {
    if (resamples < 1) {
      throw new IllegalArgumentException("resamples must be at least 1");
    }
  }

  /** A statistic of the records at some indices (repeats allowed); NaN when undefined there. */
  @FunctionalInterface
  public interface Statistic {
    double of(int[] indices);
  }

  /** How the intervals were made, for a report. */
  public ObjectNode toJson() {
    ObjectNode b = Json.object();
    b.put("resamples", resamples);
    b.put("seed", seed);
    b.put("confidence", CONFIDENCE);
    b.put("method", "percentile");
    return b;
  }

  /**
   * The 95% interval of {@code statistic} over {@code n} records, or null when it is undefined
   * (NaN) on more than half the resamples: a correlation of a handful of records, most resamples of
   * which are constant, has no interval worth printing. Undefined resamples are left out.
   */
  public Interval interval(int n, Statistic statistic) {
    if (n < 1) {
      return null;
    }
    Random random = new Random(seed);
    double[] values = new double[resamples];
    int defined = 0;
    int[] indices = new int[n];
    for (int b = 0; b < resamples; b++) {
      for (int i = 0; i < n; i++) {
        indices[i] = random.nextInt(n);
      }
      double v = statistic.of(indices);
      if (!Double.isNaN(v)) {
        values[defined++] = v;
      }
    }
    if (defined * 2 < resamples) {
      return null;
    }
    double[] sorted = Arrays.copyOf(values, defined);
    Arrays.sort(sorted);
    double tail = (1 - CONFIDENCE) / 2;
    return new Interval(quantile(sorted, tail), quantile(sorted, 1 - tail));
  }

  /** The p-quantile of sorted values by linear interpolation (R's and NumPy's default). */
  static double quantile(double[] sorted, double p) {
    double h = (sorted.length - 1) * p;
    int below = (int) Math.floor(h);
    int above = Math.min(below + 1, sorted.length - 1);
    return sorted[below] + (h - below) * (sorted[above] - sorted[below]);
  }
}
