package dev.asa.evaluators.judgeeval;

import java.util.Arrays;
import java.util.Comparator;

/** Ranks of a series, 1 for the smallest, tied values sharing the mean of the ranks they span. */
public final class Ranks {
  private Ranks() {}

  /**
   * Averaged ranks: {@code [10, 20, 20, 30]} ranks {@code [1, 2.5, 2.5, 4]}. Averaging keeps the
   * sum of ranks n(n+1)/2 whatever the ties, which Spearman's coefficient relies on.
   */
  public static double[] averaged(double[] values) {
    int n = values.length;
    Integer[] order = new Integer[n];
    for (int i = 0; i < n; i++) {
      order[i] = i;
    }
    Arrays.sort(order, Comparator.comparingDouble(i -> values[i]));
    double[] ranks = new double[n];
    int start = 0;
    while (start < n) {
      int end = start + 1;
      while (end < n && Double.compare(values[order[end]], values[order[start]]) == 0) {
        end++;
      }
      double rank = (start + 1 + end) / 2.0; // the mean of ranks start+1 .. end
      for (int k = start; k < end; k++) {
        ranks[order[k]] = rank;
      }
      start = end;
    }
    return ranks;
  }
}
