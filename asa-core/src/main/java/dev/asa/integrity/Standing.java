package dev.asa.integrity;

import java.util.Objects;

/**
 * Whether the operator lets an evaluator work. Suspension is the operator's judgement and is never
 * lifted by a good record alone; a record that falls below a bound, by contrast, takes the
 * evaluator out of the pool only until it recovers ({@link QualificationPolicy}).
 */
public sealed interface Standing {

  Active ACTIVE = new Active();

  static Suspended suspended(String note) {
    return new Suspended(note);
  }

  /** May be assigned, if qualified. */
  record Active() implements Standing {}

  /**
   * Suspended by the operator; {@code note} says why, for the evaluator and the parties to read.
   */
  record Suspended(String note) implements Standing {
    public Suspended {
      Objects.requireNonNull(note, "note (say why the evaluator is suspended)");
    }
  }
}
