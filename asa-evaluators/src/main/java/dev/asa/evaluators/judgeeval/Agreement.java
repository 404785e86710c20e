package dev.asa.evaluators.judgeeval;

/**
 * The share of pairwise records where a judge picked the answer the humans preferred. A tie (the
 * judge could not tell the answers apart) is a miss: a judge that cannot decide does not earn half
 * a point, or a constant judge would score 50% for nothing.
 */
public final class Agreement {
  private Agreement() {}

  /** The share of {@code true} among {@code hits}; NaN when there are none. */
  public static double of(boolean[] hits) {
    return of(hits, identity(hits.length));
  }

  /** The share of {@code true} among {@code hits} at {@code indices} (a bootstrap resample). */
  public static double of(boolean[] hits, int[] indices) {
    if (indices.length == 0) {
      return Double.NaN;
    }
    int count = 0;
    for (int i : indices) {
      if (hits[i]) {
        count++;
      }
    }
    return (double) count / indices.length;
  }

  static int[] identity(int n) {
    int[] indices = new int[n];
    for (int i = 0; i < n; i++) {
      indices[i] = i;
    }
    return indices;
  }
}
