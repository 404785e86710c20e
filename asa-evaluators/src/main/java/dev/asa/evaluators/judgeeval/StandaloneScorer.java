package dev.asa.evaluators.judgeeval;

import dev.asa.agreement.Identity;
import dev.asa.agreement.InvalidDocumentException;
import dev.asa.agreement.Service;
import dev.asa.document.StandaloneCriteria;
import dev.asa.evaluators.Deliverable;
import dev.asa.evaluators.EvaluationException;
import dev.asa.evaluators.EvaluationTask;
import dev.asa.evaluators.Progress;
import dev.asa.evaluators.StandaloneVerifier;
import dev.asa.evaluators.VerificationEngine;
import dev.asa.scoring.DimensionResult;
import dev.asa.scoring.VerificationResult;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Scores an answer exactly as a standalone {@code POST /verifications} of it would: the default
 * criteria of its type, the structural checks, then the plan's semantic evaluators, through the
 * same {@link StandaloneVerifier}; the score is the result's composite, with each dimension that
 * has a score. A calibration figure is only worth having if it measures the judge that will decide
 * payments, not a look-alike.
 */
public final class StandaloneScorer implements AnswerScorer {

  private static final Identity LOCAL = new Identity("local", "judge-eval", null);

  private final StandaloneVerifier verifier;
  private final VerificationEngine.Plan plan;
  private final Instant now;

  /**
   * @param verifier the verifier over the server's engine
   * @param plan the depth and semantic evaluators, as the server plans a request's {@code
   *     verification_config}
   */
  public StandaloneScorer(StandaloneVerifier verifier, VerificationEngine.Plan plan) {
    this.verifier = verifier;
    this.plan = plan;
    this.now = Instant.now().truncatedTo(ChronoUnit.MILLIS);
  }

  @Override
  public Scored score(Answer answer) throws EvaluationException {
    Deliverable deliverable = Deliverable.of(answer.content(), answer.format(), now);
    EvaluationTask task =
        new EvaluationTask(
            deliverable,
            answer.request(),
            answer.type(),
            StandaloneCriteria.forType(answer.type()),
            Service.Constraints.NONE,
            null,
            null,
            EvaluationTask.Options.DEFAULTS,
            Progress.NONE);
    try {
      VerificationResult result = verifier.verify(task, plan, true, "judge-eval", now, LOCAL);
      Map<String, Double> dimensions = new LinkedHashMap<>();
      for (DimensionResult d : result.dimensions()) {
        if (d.score() != null) {
          dimensions.put(d.name(), d.score().doubleValue());
        }
      }
      return new Scored(result.composite().score().doubleValue(), dimensions);
    } catch (InvalidDocumentException e) {
      // Nothing of the type's defaults could be judged: the server answers 422 the same way.
      throw new EvaluationException(EvaluationException.Reason.INVALID_TASK, e.getMessage(), e);
    }
  }
}
