package dev.asa.integrity;

/**
 * When an evaluator's record as others see it ({@code GET /evaluators/{key}}) catches up with the
 * record the server keeps and judges by: after every {@link #BATCH} changes, never after one.
 *
 * <p>Why not at once: a record that moved after each answer was an oracle. An evaluator that saw
 * {@code canary_passes} rise, or {@code evaluations} rise without it, learned which task had been a
 * canary and whether its answer had passed; two throwaway keys learned a whole canary set that way
 * (issue 53). Published in batches, a change says only how a batch went, and the draw, which reads
 * the record as it is, loses nothing.
 */
public final class RecordPublication {

  /** Changes (an evaluation counted, a canary graded, calibration added) per publication. */
  public static final int BATCH = 10;

  private RecordPublication() {}

  /** Whether the record, changed this many times since it was last published, is published now. */
  public static boolean due(int changesSinceLastPublished) {
    if (changesSinceLastPublished < 0) {
      throw new IllegalArgumentException("changes are never negative");
    }
    return changesSinceLastPublished >= BATCH;
  }
}
