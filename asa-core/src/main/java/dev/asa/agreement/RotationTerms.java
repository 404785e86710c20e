package dev.asa.agreement;

/**
 * Evaluator rotation (whitepaper 6.3), from {@code verification.rotation}: no evaluator assesses
 * more than {@code maxConsecutive} consecutive deliveries of the same provider, so that a provider
 * and a friendly evaluator cannot pair forever.
 */
public record RotationTerms(int maxConsecutive) {

  /** A provider with a thousand deliveries in a row to one evaluator is not rotating at all. */
  public static final int MAX = 1000;

  public RotationTerms {
    if (maxConsecutive < 1 || maxConsecutive > MAX) {
      throw new IllegalArgumentException(
          "max_consecutive must be from 1 to " + MAX + ", got " + maxConsecutive);
    }
  }
}
