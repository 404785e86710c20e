package dev.asa.evaluators.judgeeval;

/** A confidence interval, both ends included. */
public record Interval(double lower, double upper) {

  public Interval {
    if (!(lower <= upper)) {
      throw new IllegalArgumentException(
          "an interval needs lower <= upper: " + lower + ", " + upper);
    }
  }
}
