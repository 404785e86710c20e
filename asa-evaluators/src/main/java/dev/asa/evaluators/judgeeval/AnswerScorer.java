package dev.asa.evaluators.judgeeval;

import dev.asa.evaluators.EvaluationException;

/**
 * The judge under evaluation: a composite per answer, higher meaning better, and its dimensions.
 */
@FunctionalInterface
public interface AnswerScorer {

  /**
   * Scores one answer; must be safe to call from several threads at once.
   *
   * @throws EvaluationException when the answer could not be judged honestly
   */
  Scored score(Answer answer) throws EvaluationException;
}
