package dev.asa.evaluators.judgeeval;

import dev.asa.evaluators.EvaluationException;

/** The judge under evaluation: one number per answer, higher meaning better. */
@FunctionalInterface
public interface AnswerScorer {

  /**
   * Scores one answer; must be safe to call from several threads at once.
   *
   * @throws EvaluationException when the answer could not be judged honestly
   */
  double score(Answer answer) throws EvaluationException;
}
