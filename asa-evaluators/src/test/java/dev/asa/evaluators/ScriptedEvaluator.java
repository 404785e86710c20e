package dev.asa.evaluators;

import dev.asa.agreement.Dimension;
import dev.asa.scoring.DimensionInput;
import java.math.BigDecimal;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A semantic evaluator for tests: fixed scores (and confidence) for named dimensions, or a failure.
 */
public final class ScriptedEvaluator implements Evaluator {
  private final String id;
  private final Map<String, Double> scores;
  private final Double confidence;
  private final EvaluationException failure;
  public final AtomicInteger calls = new AtomicInteger();

  private ScriptedEvaluator(
      String id, Map<String, Double> scores, Double confidence, EvaluationException failure) {
    this.id = id;
    this.scores = scores;
    this.confidence = confidence;
    this.failure = failure;
  }

  public static ScriptedEvaluator scoring(
      String id, Double confidence, Map<String, Double> scores) {
    return new ScriptedEvaluator(id, scores, confidence, null);
  }

  public static ScriptedEvaluator failing(String id, String message) {
    return new ScriptedEvaluator(
        id,
        Map.of(),
        null,
        new EvaluationException(EvaluationException.Reason.UNAVAILABLE, message));
  }

  @Override
  public String id() {
    return id;
  }

  @Override
  public String type() {
    return "agent_as_judge";
  }

  /** {@link #evaluate} for an evaluator scripted not to fail. */
  public Evaluation evaluateUnchecked(EvaluationTask task) {
    try {
      return evaluate(task);
    } catch (EvaluationException e) {
      throw new IllegalStateException(e);
    }
  }

  @Override
  public Evaluation evaluate(EvaluationTask task) throws EvaluationException {
    calls.incrementAndGet();
    if (failure != null) {
      throw failure;
    }
    Map<String, DimensionInput> out = new LinkedHashMap<>();
    for (Dimension d : task.criteria().dimensions()) {
      Double s = scores.get(d.name());
      out.put(
          d.name(),
          s == null
              ? DimensionInput.notEvaluated(d.name(), id + " cannot judge " + d.name())
              : DimensionInput.scored(
                  d.name(),
                  BigDecimal.valueOf(s),
                  id + " says " + s,
                  confidence == null ? null : BigDecimal.valueOf(confidence),
                  "evaluator"));
    }
    return new Evaluation(
        id,
        type(),
        id + "-model",
        out,
        Map.of(),
        new Evaluation.Usage(100, 10, new BigDecimal("0.01")));
  }
}
