package dev.asa.evaluators.judgeeval;

import java.util.Arrays;
import java.util.Comparator;

/**
 * Kendall's tau-b: (concordant - discordant) / sqrt((n0 - n1)(n0 - n2)), where n0 = n(n-1)/2 pairs,
 * n1 the pairs tied in x and n2 those tied in y. Unlike tau-a it reaches 1 when both series order
 * the records the same way even with ties, which judges' scores and human ratings (1 to 10) have
 * many of.
 *
 * <p>Computed in O(n log n) by Knight's method (sort by x then y, count the swaps a merge sort by y
 * makes), so a bootstrap of thousands of resamples over an operator's whole file stays quick.
 */
public final class KendallTauB {
  private KendallTauB() {}

  /** The coefficient of two series of equal length; NaN when either is constant. */
  public static double of(double[] x, double[] y) {
    if (x.length != y.length) {
      throw new IllegalArgumentException("series of unequal length: " + x.length + ", " + y.length);
    }
    int n = x.length;
    if (n < 2) {
      return Double.NaN;
    }
    Integer[] order = new Integer[n];
    for (int i = 0; i < n; i++) {
      order[i] = i;
    }
    Arrays.sort(
        order, Comparator.<Integer>comparingDouble(i -> x[i]).thenComparingDouble(i -> y[i]));
    long tiedX = 0;
    long tiedXy = 0;
    int runX = 1;
    int runXy = 1;
    for (int k = 1; k < n; k++) {
      boolean sameX = Double.compare(x[order[k]], x[order[k - 1]]) == 0;
      boolean sameY = Double.compare(y[order[k]], y[order[k - 1]]) == 0;
      if (sameX) {
        runX++;
      } else {
        tiedX += pairs(runX);
        runX = 1;
      }
      if (sameX && sameY) {
        runXy++;
      } else {
        tiedXy += pairs(runXy);
        runXy = 1;
      }
    }
    tiedX += pairs(runX);
    tiedXy += pairs(runXy);

    double[] ys = new double[n];
    for (int k = 0; k < n; k++) {
      ys[k] = y[order[k]];
    }
    long swaps = mergeSortCountingSwaps(ys, new double[n], 0, n);
    long tiedY = 0;
    int runY = 1;
    for (int k = 1; k < n; k++) {
      if (Double.compare(ys[k], ys[k - 1]) == 0) {
        runY++;
      } else {
        tiedY += pairs(runY);
        runY = 1;
      }
    }
    tiedY += pairs(runY);

    long all = pairs(n);
    // concordant - discordant = all - tiedX - tiedY + tiedXy - 2 * discordant, swaps = discordant
    double numerator = (double) (all - tiedX - tiedY + tiedXy) - 2.0 * swaps;
    double denominator = Math.sqrt((double) (all - tiedX) * (double) (all - tiedY));
    return denominator == 0 ? Double.NaN : numerator / denominator;
  }

  /** The coefficient over the pairs at {@code indices} (a bootstrap resample). */
  public static double of(double[] x, double[] y, int[] indices) {
    return of(Spearman.pick(x, indices), Spearman.pick(y, indices));
  }

  private static long pairs(long run) {
    return run * (run - 1) / 2;
  }

  /** Sorts {@code a[from, to)} ascending and returns how many inversions it removed. */
  private static long mergeSortCountingSwaps(double[] a, double[] scratch, int from, int to) {
    if (to - from < 2) {
      return 0;
    }
    int mid = (from + to) >>> 1;
    long swaps =
        mergeSortCountingSwaps(a, scratch, from, mid) + mergeSortCountingSwaps(a, scratch, mid, to);
    int i = from;
    int j = mid;
    int k = from;
    while (i < mid && j < to) {
      if (Double.compare(a[j], a[i]) < 0) {
        swaps += mid - i; // a[j] jumps ahead of every element left in the first half
        scratch[k++] = a[j++];
      } else {
        scratch[k++] = a[i++];
      }
    }
    while (i < mid) {
      scratch[k++] = a[i++];
    }
    while (j < to) {
      scratch[k++] = a[j++];
    }
    System.arraycopy(scratch, from, a, from, to - from);
    return swaps;
  }
}
