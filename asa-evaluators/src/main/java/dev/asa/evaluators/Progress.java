package dev.asa.evaluators;

/**
 * Where a slow evaluation has got to, reported as it goes so that an API caller or the CLI can show
 * it ("judging accuracy, 2 of 5").
 */
@FunctionalInterface
public interface Progress {

  /** Reports nothing. */
  Progress NONE = (stage, done, total) -> {};

  /**
   * @param stage what is happening now, for a person to read
   * @param done how many steps of this evaluator are finished
   * @param total how many steps it has in all (at least 1)
   */
  void update(String stage, int done, int total);
}
