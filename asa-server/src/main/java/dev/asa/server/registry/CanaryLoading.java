package dev.asa.server.registry;

import dev.asa.access.Caller;
import dev.asa.integrity.CanarySet;
import dev.asa.server.agreements.Outcome;
import dev.asa.server.evaluators.EvaluatorRegistry;
import java.time.Clock;

/**
 * {@code PUT /admin/canaries}, the operator's: replaces the canary set in force on every node, as
 * {@code asa serve --canaries FILE} does at start-up. The answer says what is in force (count,
 * service types, digest), never the canaries: a canary an evaluator could read is a canary it would
 * recognise. Putting the same set again changes nothing.
 */
public final class CanaryLoading {
  private final EvaluatorRegistry registry;
  private final Clock clock;

  CanaryLoading(EvaluatorRegistry registry, Clock clock) {
    this.registry = registry;
    this.clock = clock;
  }

  public Outcome load(CanarySet set, Caller caller) {
    return new Outcome(
        200, registry.loadCanaries(set, caller.describe(), clock.instant()).toJson());
  }
}
