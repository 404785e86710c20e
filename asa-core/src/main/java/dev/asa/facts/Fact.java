package dev.asa.facts;

/**
 * The facts a server keeps about an agreement, beside the document the parties wrote and signed.
 * Each is rendered into responses as {@code agreement.metadata.<wireName>} and is never read from a
 * request: a document that carries {@code metadata} is refused.
 */
public enum Fact {
  /** The template a proposal started from. */
  TEMPLATE("template"),
  /** When the second signature made the agreement ACTIVE. */
  ACTIVATED_AT("activated_at"),
  /** The negotiation's id, round, turn, accepted hash and price flag. */
  NEGOTIATION("negotiation"),
  /** Where the money stands: status, binding, amount, funded_at. */
  ESCROW("escrow"),
  /** The threshold-noise commitment made at activation. */
  THRESHOLD_NOISE("threshold_noise"),
  /** The latest delivery: digest, size, format, time. */
  DELIVERABLE("deliverable"),
  /** The recorded verification: id, composite, release, challenge window. */
  VERIFICATION("verification"),
  /** Shadow Scoring state: the hardening cycle. */
  SHADOW("shadow"),
  /** A dispute filed by a challenge, a quarantine or an evaluator timeout. */
  DISPUTE("dispute"),
  /** The ruling that settled a dispute. */
  RULING("ruling"),
  /** How the money was finally split. */
  SETTLEMENT("settlement"),
  /** The provider's staked collateral: held, then slashed or returned ({@link CollateralFact}). */
  COLLATERAL("collateral"),
  /**
   * Which backup evaluator took over after the evaluator's deadline (not the pool assignment at
   * activation: that is {@link #ASSIGNED_EVALUATORS}).
   */
  EVALUATOR_ASSIGNMENT("evaluator_assignment"),
  /**
   * The pool evaluators assigned at activation to an agreement that names none: mode, evaluators,
   * seed and candidate digest ({@link EvaluatorAssignmentFact}).
   */
  ASSIGNED_EVALUATORS("assigned_evaluators"),
  /**
   * Mutual selection: the registry evaluators each party proposed while negotiating, the latest
   * list of each ({@link EvaluatorProposalsFact}).
   */
  EVALUATOR_PROPOSALS("evaluator_proposals"),
  /**
   * The CoC chains verified for parties with a chain-backed {@code coc} identity: length,
   * operational age, genesis and head per role ({@link ProvenanceFact}).
   */
  PROVENANCE("provenance");

  private final String wireName;

  Fact(String wireName) {
    this.wireName = wireName;
  }

  public String wireName() {
    return wireName;
  }
}
