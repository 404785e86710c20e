package dev.asa.evaluators;

/**
 * An evaluator could not produce an honest evaluation: its judge answered with output that could
 * not be parsed (twice), refused, timed out or kept failing; or the estimated cost is above the
 * request's cap. The message says what happened and what to do; no partial score is ever kept.
 */
public final class EvaluationException extends Exception {

  /**
   * Why the evaluation failed, for callers that react differently (retry later, refuse up front).
   */
  public enum Reason {
    /** The estimated cost is above {@code max_cost_usd}; nothing was sent. */
    COST_CAP,
    /** The judge model is the provider's own model (self-enhancement bias). */
    SELF_JUDGING,
    /** The backend answered, but not with a usable evaluation. */
    UNUSABLE_OUTPUT,
    /** The backend could not be reached, timed out, or kept answering with errors. */
    UNAVAILABLE,
    /**
     * The request cannot be evaluated by this backend as given (e.g. empty request text where
     * needed).
     */
    INVALID_TASK
  }

  private final Reason reason;

  public EvaluationException(Reason reason, String message) {
    super(message);
    this.reason = reason;
  }

  public EvaluationException(Reason reason, String message, Throwable cause) {
    super(message, cause);
    this.reason = reason;
  }

  public Reason reason() {
    return reason;
  }
}
