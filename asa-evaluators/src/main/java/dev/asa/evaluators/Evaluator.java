package dev.asa.evaluators;

/**
 * One evaluator backend: the structural checks, the offline embedding model, an LLM judge.
 *
 * <p>Given a task it returns an input for every dimension of the task's criteria: a score with the
 * evidence it rests on where the backend can judge honestly, otherwise {@link
 * dev.asa.scoring.DimensionInput#notEvaluated} with the reason. It never makes a number up. A
 * backend that cannot finish (the judge's output could not be parsed twice, the judge's server kept
 * refusing, the cost cap would be exceeded) throws {@link EvaluationException}.
 *
 * <p>Implementations are thread-safe: the server runs one instance for many verifications.
 */
public interface Evaluator {

  /**
   * A stable name for the evidence trail, e.g. {@code structural}, {@code
   * embedding/all-minilm-l6-v2-q}.
   */
  String id();

  /**
   * The section 5.2 {@code evaluator.type}: {@code structural}, {@code embedding} or {@code
   * agent_as_judge}.
   */
  String type();

  Evaluation evaluate(EvaluationTask task) throws EvaluationException;

  /**
   * Whether this evaluator runs {@code providerModel}, the model the provider declared: such an
   * evaluator must not judge that provider's work (whitepaper 5.6, self-enhancement bias), and
   * refuses to. False for evaluators that run no generative model.
   */
  default boolean runsModel(String providerModel) {
    return false;
  }
}
