package dev.asa.evaluators;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.asa.agreement.Identity;
import dev.asa.agreement.InvalidDocumentException;
import dev.asa.agreement.QualityCriteria;
import dev.asa.document.StandaloneCriteria;
import dev.asa.json.Json;
import dev.asa.scoring.IncompleteScoresException;
import dev.asa.scoring.Scorecard;
import dev.asa.scoring.Scorer;
import dev.asa.scoring.VerificationResult;
import java.time.Duration;
import java.time.Instant;

/**
 * A verification without an agreement (whitepaper 5.4), from task to sealed result; the server's
 * {@code POST /verifications} and the CLI's {@code asa verify} both use it.
 *
 * <p>With the default criteria of the deliverable type, a dimension no evaluator of the plan can
 * judge stays in the result as not evaluated (with the reason) and weighs nothing in the composite;
 * the notes list it. Criteria the caller wrote are binding: a dimension nobody could score stops
 * the verification with the list of what is missing.
 */
public final class StandaloneVerifier {

  private final VerificationEngine engine;

  public StandaloneVerifier(VerificationEngine engine) {
    this.engine = engine;
  }

  /**
   * @param task the task; its criteria are the caller's, or null-equivalent when {@code defaults}
   * @param defaults whether {@code task.criteria()} are the type's defaults (and so may be reduced
   *     to what was judged)
   * @param evaluator who signs for the result (the server's key, or the local CLI user)
   * @throws EvaluationException when the evaluators could not evaluate
   * @throws InvalidDocumentException when nothing could be judged, or the caller's criteria have a
   *     dimension nobody scored
   */
  public VerificationResult verify(
      EvaluationTask task,
      VerificationEngine.Plan plan,
      boolean defaults,
      String verificationId,
      Instant now,
      Identity evaluator)
      throws EvaluationException {
    EvaluationTask effective =
        defaults && plan.depth() == VerificationEngine.Depth.STRUCTURAL
            ? new EvaluationTask(
                task.deliverable(),
                task.request(),
                task.deliverableType(),
                StandaloneCriteria.structuralOnly(task.criteria()),
                task.constraints(),
                task.deadline(),
                task.providerModel(),
                task.options(),
                task.progress())
            : task;
    long started = System.nanoTime();
    VerificationEngine.Assessment assessment = engine.assess(effective, plan);
    QualityCriteria criteria =
        defaults
            ? StandaloneCriteria.judgedOnly(effective.criteria(), assessment.inputs())
            : effective.criteria();
    Scorecard card;
    try {
      card = Scorer.score(criteria, assessment.inputs(), assessment.checks());
    } catch (IncompleteScoresException e) {
      throw new InvalidDocumentException("/quality_criteria", e.getMessage());
    }
    ObjectNode extensions = Json.object();
    extensions.set("verification", assessment.details());
    long duration = Duration.ofNanos(System.nanoTime() - started).toMillis();
    return VerificationResult.of(
        verificationId,
        null,
        now,
        new VerificationResult.Evaluator(
            evaluator, assessment.evaluatorType(), assessment.models()),
        card,
        task.deliverable().contentHash(),
        duration,
        assessment.usage().costUsd(),
        extensions);
  }
}
