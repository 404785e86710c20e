package dev.asa.evaluators.judgeeval;

import java.util.List;

/**
 * One line of a labelled file: a request, the answers to it, and what people thought of them.
 * Pairwise records say which of two answers people preferred; pointwise records give one answer a
 * score on any scale.
 */
public sealed interface LabelledRecord permits LabelledRecord.Pairwise, LabelledRecord.Pointwise {

  /** The line of the file it was read from (1 for the first). */
  int line();

  /** The record's own {@code id}, or null. */
  String id();

  /** The category it is reported under, or null. */
  String category();

  /** The answers to verify, in the order their scores come back. */
  List<Answer> answers();

  /**
   * {@code {"request", "answer_a", "answer_b", "human": "a"|"b", "category"?}}.
   *
   * @param human the answer people preferred
   */
  record Pairwise(
      int line, String id, String category, Answer answerA, Answer answerB, Preference human)
      implements LabelledRecord {

    @Override
    public List<Answer> answers() {
      return List.of(answerA, answerB);
    }
  }

  /**
   * {@code {"request", "answer", "human_score", "category"?}}.
   *
   * @param humanScore the people's score, on whatever scale the file uses
   */
  record Pointwise(int line, String id, String category, Answer answer, double humanScore)
      implements LabelledRecord {

    @Override
    public List<Answer> answers() {
      return List.of(answer);
    }
  }
}
