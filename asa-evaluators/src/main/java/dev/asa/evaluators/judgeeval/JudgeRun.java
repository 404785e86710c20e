package dev.asa.evaluators.judgeeval;

import dev.asa.evaluators.EvaluationException;
import dev.asa.evaluators.Progress;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Scores every answer of every record, on a few threads, reporting each answer done. Records are
 * independent, so the scores (and every figure computed from them) do not depend on the number of
 * threads or the order in which they finish.
 */
public final class JudgeRun {
  private JudgeRun() {}

  /** An answer that could not be scored: the run stops, naming it. */
  public static final class FailedException extends Exception {
    private final int line;

    FailedException(int line, String answer, Throwable cause) {
      super("line " + line + ", " + answer + ": " + cause.getMessage(), cause);
      this.line = line;
    }

    /** The line of the record whose answer failed. */
    public int line() {
      return line;
    }
  }

  /**
   * The scores of each record's answers, in the order of {@link LabelledRecord#answers()}.
   *
   * @param workers how many answers are scored at once
   * @param progress told "answers scored", done and total, after each answer
   * @throws FailedException when an answer could not be scored; the other answers are abandoned
   */
  public static List<List<Scored>> score(
      List<LabelledRecord> records, AnswerScorer scorer, int workers, Progress progress)
      throws FailedException, InterruptedException {
    int total = records.stream().mapToInt(r -> r.answers().size()).sum();
    AtomicInteger done = new AtomicInteger();
    progress.update("answers scored", 0, Math.max(total, 1));
    List<List<Future<Scored>>> futures = new ArrayList<>();
    try (ExecutorService pool = Executors.newFixedThreadPool(Math.max(1, workers))) {
      try {
        for (LabelledRecord record : records) {
          List<Future<Scored>> answers = new ArrayList<>();
          for (Answer answer : record.answers()) {
            answers.add(
                pool.submit(() -> {
                  Scored s = scorer.score(answer);
                  progress.update("answers scored", done.incrementAndGet(), total);
                  return s;
                }));
          }
          futures.add(answers);
        }
        List<List<Scored>> scores = new ArrayList<>();
        for (int r = 0; r < records.size(); r++) {
          List<Future<Scored>> answers = futures.get(r);
          List<Scored> s = new ArrayList<>();
          for (int a = 0; a < answers.size(); a++) {
            try {
              s.add(answers.get(a).get());
            } catch (ExecutionException e) {
              throw new FailedException(
                  records.get(r).line(), answerName(records.get(r), a), cause(e));
            }
          }
          scores.add(List.copyOf(s));
        }
        return scores;
      } finally {
        pool.shutdownNow(); // after a failure, do not keep a paid judge busy for nothing
      }
    }
  }

  private static Throwable cause(ExecutionException e) {
    Throwable c = e.getCause();
    if (c instanceof EvaluationException || c instanceof RuntimeException) {
      return c;
    }
    return e;
  }

  private static String answerName(LabelledRecord record, int index) {
    return switch (record) {
      case LabelledRecord.Pairwise p -> index == 0 ? "answer_a" : "answer_b";
      case LabelledRecord.Pointwise p -> "answer";
    };
  }
}
