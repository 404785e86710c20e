package dev.asa.server.pool;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.asa.access.Caller;
import dev.asa.integrity.CanarySet;
import dev.asa.server.work.Outcome;
import java.time.Clock;
import java.util.List;

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

  /**
   * The answer carries {@code warnings} when the set is too small for anyone to qualify by canaries
   * alone ({@link EvaluatorRegistry#canaryShortfalls}).
   */
  public Outcome load(CanarySet set, Caller caller) {
    ObjectNode body = registry.loadCanaries(set, caller.describe(), clock.instant()).toJson();
    List<String> shortfalls = registry.canaryShortfalls();
    if (!shortfalls.isEmpty()) {
      ArrayNode warnings = body.putArray("warnings");
      shortfalls.forEach(warnings::add);
    }
    return new Outcome(200, body);
  }
}
