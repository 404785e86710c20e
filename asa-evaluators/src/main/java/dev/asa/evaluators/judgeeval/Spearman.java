package dev.asa.evaluators.judgeeval;

/**
 * Spearman's rank correlation: Pearson's correlation of the averaged ranks ({@link Ranks}), so that
 * ties are handled exactly rather than by the 1 - 6 sum d^2 / n(n^2 - 1) shortcut, which holds only
 * without ties.
 */
public final class Spearman {
  private Spearman() {}

  /** The coefficient of two series of equal length; NaN when either has no variation. */
  public static double of(double[] x, double[] y) {
    if (x.length != y.length) {
      throw new IllegalArgumentException("series of unequal length: " + x.length + ", " + y.length);
    }
    return pearson(Ranks.averaged(x), Ranks.averaged(y));
  }

  /** The coefficient over the pairs at {@code indices} (a bootstrap resample). */
  public static double of(double[] x, double[] y, int[] indices) {
    return of(pick(x, indices), pick(y, indices));
  }

  static double pearson(double[] x, double[] y) {
    int n = x.length;
    if (n < 2) {
      return Double.NaN;
    }
    double mx = 0;
    double my = 0;
    for (int i = 0; i < n; i++) {
      mx += x[i];
      my += y[i];
    }
    mx /= n;
    my /= n;
    double sxy = 0;
    double sxx = 0;
    double syy = 0;
    for (int i = 0; i < n; i++) {
      double dx = x[i] - mx;
      double dy = y[i] - my;
      sxy += dx * dy;
      sxx += dx * dx;
      syy += dy * dy;
    }
    return sxx == 0 || syy == 0 ? Double.NaN : sxy / Math.sqrt(sxx * syy);
  }

  static double[] pick(double[] values, int[] indices) {
    double[] picked = new double[indices.length];
    for (int i = 0; i < indices.length; i++) {
      picked[i] = values[indices[i]];
    }
    return picked;
  }
}
