package dev.asa.evaluators.embedding;

/**
 * How cosine similarities from all-MiniLM-L6-v2 become scores. The numbers were measured on the
 * labelled corpus in {@code src/test/resources/corpus} (OfflineCorpusTest prints them again): see
 * the constants for what was measured.
 */
public final class Calibration {
  private Calibration() {}

  // Measured on the corpus (42 pairs, 11 requests), cosine similarity of all-MiniLM-L6-v2
  // (quantized):
  //
  //   mean of the 5 best passages vs the whole request   min / median / max
  //     good answers                                     0.31 / 0.57 / 0.74
  //     poor answers (on topic, thin)                    0.26 / 0.48 / 0.78
  //     off-topic answers                               -0.12 / 0.08 / 0.17
  //   each passage vs the whole request
  //     in good answers                                  0.01 / 0.54 / 0.89  (the low ones:
  // imports, headings)
  //     in off-topic answers                            -0.18 / 0.08 / 0.23
  //   best passage for each part of the request
  //     good answers                                    -0.01 / 0.39 / 0.91  (the low ones: "cite
  // your sources")
  //     off-topic answers                               -0.11 / 0.08 / 0.30
  //
  // The two lowest good answers are translations (0.31, 0.45): the English-only model barely
  // matches a French or Spanish source to its translation. Off-topic text never went above 0.17
  // as a mean and 0.23 as a passage; on-topic text rarely fell below 0.30.

  /** Mean similarity at which relevance is 0: just above the highest off-topic mean (0.17). */
  public static final double RELEVANCE_ZERO = 0.15;

  /**
   * Relevance 50: the line between off and on topic, between 0.17 (off) and 0.26 (lowest on-topic).
   */
  public static final double ON_TOPIC = 0.25;

  /**
   * Relevance 100. It was 0.50, typical of a good answer (median 0.57), but that saturated: on the
   * development corpus (LLMBar) the two answers of a pair were both above it in a third of the
   * pairs, a tie, while the raw similarity alone ranked the pairs 62% right. From 0.50 up the scale
   * now keeps climbing, so a closer answer still scores higher.
   */
  public static final double RELEVANCE_FULL = 0.80;

  /** A passage at or above this counts as on topic: above every off-topic passage seen (0.23). */
  public static final double PASSAGE_ON_TOPIC = 0.25;

  /**
   * A request part whose best passage is at or below this gets no credit (off-topic median 0.08).
   */
  public static final double PART_ZERO = 0.15;

  /** Full credit for a request part: half the good answers' parts reach it. */
  public static final double PART_FULL = 0.45;

  /** Piecewise linear: {@code x0 -> 0}, {@code x1 -> 50}, {@code x2 -> 100}, clamped outside. */
  static double piecewise(double x, double x0, double x1, double x2) {
    if (x <= x0) {
      return 0;
    }
    if (x >= x2) {
      return 100;
    }
    return x < x1 ? 50 * (x - x0) / (x1 - x0) : 50 + 50 * (x - x1) / (x2 - x1);
  }

  /** Linear from {@code lo -> 0} to {@code hi -> 1}, clamped. */
  public static double ramp(double x, double lo, double hi) {
    return Math.max(0, Math.min(1, (x - lo) / (hi - lo)));
  }

  /** 0 to 100 from the mean similarity of the best passages. */
  public static double relevance(double topMean) {
    return piecewise(topMean, RELEVANCE_ZERO, ON_TOPIC, RELEVANCE_FULL);
  }

  /** 0 to 1: how far one request part is covered by its best passage. */
  public static double partCredit(double best) {
    return ramp(best, PART_ZERO, PART_FULL);
  }

  /** Midway on the ramp: a part at or above it counts as covered in the evidence. */
  public static double partCovered() {
    return (PART_ZERO + PART_FULL) / 2;
  }

  /**
   * How sure a similarity-based score is: 0.5 on the boundary it is judged against, rising to 0.95
   * once the similarity is {@code span} away from it either way. A score resting on a similarity
   * near the line between on and off topic deserves little trust; one far from it, more.
   */
  public static double marginConfidence(double similarity, double boundary, double span) {
    return 0.5 + 0.45 * Math.min(1, Math.abs(similarity - boundary) / span);
  }
}
