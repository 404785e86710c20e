package dev.asa.evaluators;

import dev.asa.agreement.CompositeMethod;
import dev.asa.agreement.Dimension;
import dev.asa.agreement.MetricType;
import dev.asa.agreement.QualityCriteria;
import dev.asa.agreement.QualityGate;
import dev.asa.agreement.Slo;
import dev.asa.agreement.SloOperator;
import dev.asa.scoring.DimensionInput;
import dev.asa.shadow.DeliveredWork;
import dev.asa.shadow.Judge;
import java.math.BigDecimal;
import java.time.Instant;
import java.util.List;
import java.util.function.Supplier;

/**
 * Decides a sealed {@code judged} criterion with a semantic evaluator (the LLM judge): the
 * assertion becomes one pass/fail dimension whose rubric is the assertion itself, judged pointwise
 * like any other. The evaluator's failure (unusable output, refusal, unavailable) is the
 * criterion's error, never a guessed verdict.
 */
public final class AssertionJudge implements Judge {

  /** The dimension's name in the judge's prompt. */
  static final String DIMENSION = "sealed_assertion";

  private final Supplier<Evaluator> evaluator;

  /**
   * @param evaluator the judge, created on first use
   */
  public AssertionJudge(Supplier<Evaluator> evaluator) {
    this.evaluator = evaluator;
  }

  @Override
  public Verdict judge(String assertion, DeliveredWork work) throws EvaluationException {
    Dimension dimension =
        new Dimension(
            DIMENSION,
            BigDecimal.ONE,
            MetricType.BOOLEAN,
            new Slo(SloOperator.EQ, new Slo.Target.Flag(true)),
            null,
            null,
            "Whether this assertion about the deliverable holds: \""
                + assertion
                + "\". 100 if it holds, 0 if it does not.");
    QualityCriteria criteria =
        new QualityCriteria(
            List.of(dimension),
            BigDecimal.valueOf(100),
            CompositeMethod.WEIGHTED_AVERAGE,
            QualityCriteria.GuaranteeType.DETERMINISTIC,
            List.of(),
            QualityGate.Logic.ALL_MUST_PASS,
            null,
            List.of());
    EvaluationTask task =
        EvaluationTask.of(
            Deliverable.of(work.content(), work.format(), Instant.EPOCH),
            "Check one sealed acceptance criterion: " + assertion,
            "general",
            criteria);
    DimensionInput input = evaluator.get().evaluate(task).dimensions().get(DIMENSION);
    if (input == null || !input.isEvaluated()) {
      throw new EvaluationException(
          EvaluationException.Reason.UNUSABLE_OUTPUT,
          "the judge did not decide the assertion"
              + (input == null ? "" : ": " + input.evidence()));
    }
    return new Verdict(input.score().compareTo(BigDecimal.valueOf(100)) == 0, input.evidence());
  }
}
