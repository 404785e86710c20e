package dev.asa.access;

import dev.asa.crypto.Ed25519PublicKey;
import java.util.Objects;

/**
 * Who reads an evaluator's entry in the registry ({@code GET /evaluators}, {@code GET
 * /evaluators/{key}}), and so how much of it (issue 53, item 4).
 *
 * <p>The evaluator itself and the operator see everything the registry keeps (the evaluator its
 * record as last published, as everyone else does; the operator as it is). Anyone else who signs, a
 * party choosing or checking an evaluator as much as a stranger, sees what the evaluator said about
 * itself, its standing, whether it qualifies and why not, and its record as aggregates
 * (evaluations, canary figures, mean calibration deviation). Never what names a party or times its
 * work: the providers whose deliveries it judged (rotation streaks), the dimensions of the work it
 * was calibrated on (agreements name them), when its record last changed and its record over time,
 * and the parties it declared a conflict of interest with. A stranger who gets 404 for an agreement
 * must not learn from the registry who does business with whom, and when.
 */
public enum RegistryReader {
  /** The operator's key (or the server itself). */
  OPERATOR,
  /** The evaluator's own key. */
  SELF,
  /** Any other signed caller. */
  ANYONE_ELSE;

  public static RegistryReader of(Caller caller, Ed25519PublicKey evaluator) {
    Objects.requireNonNull(evaluator, "evaluator");
    return switch (caller) {
      case Caller.Key k when k.operator() -> OPERATOR;
      case Caller.Key k when k.key().equals(evaluator) -> SELF;
      case Caller.Key k -> ANYONE_ELSE;
      case Caller.Server s -> OPERATOR; // the server reads its own registry
    };
  }

  /** Whether this reader sees what names a party or times the evaluator's work. */
  public boolean seesParties() {
    return this != ANYONE_ELSE;
  }

  /**
   * Whether this reader sees the record as it is, not as last published: the operator only. The
   * evaluator itself reads the published record like everyone else, or each answer's outcome (and
   * so which task was a canary) could be read off it ({@code RecordPublication}).
   */
  public boolean seesLiveRecord() {
    return this == OPERATOR;
  }
}
