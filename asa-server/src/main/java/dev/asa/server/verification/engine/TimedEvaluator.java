package dev.asa.server.verification.engine;

import dev.asa.evaluators.Evaluation;
import dev.asa.evaluators.EvaluationException;
import dev.asa.evaluators.EvaluationTask;
import dev.asa.evaluators.Evaluator;
import dev.asa.server.metrics.Metrics;

/** An evaluator whose every evaluation's latency is recorded under its type, failures included. */
final class TimedEvaluator implements Evaluator {
  private final Evaluator inner;
  private final Metrics metrics;

  TimedEvaluator(Evaluator inner, Metrics metrics) {
    this.inner = inner;
    this.metrics = metrics;
  }

  @Override
  public String id() {
    return inner.id();
  }

  @Override
  public String type() {
    return inner.type();
  }

  @Override
  public Evaluation evaluate(EvaluationTask task) throws EvaluationException {
    long started = System.nanoTime();
    try {
      return inner.evaluate(task);
    } finally {
      metrics.evaluation(inner.type(), System.nanoTime() - started);
    }
  }

  @Override
  public boolean runsModel(String providerModel) {
    return inner.runsModel(providerModel);
  }
}
