package dev.asa.server.agreements;

import dev.asa.agreement.Agreement;
import dev.asa.agreement.CanaryTerms;
import dev.asa.agreement.InvalidDocumentException;
import dev.asa.server.evaluators.CanarySetInfo;
import dev.asa.server.evaluators.EvaluatorRegistry;
import java.util.Optional;

/**
 * Refuses, at creation, evaluator-integrity terms this server cannot honour, naming the field: the
 * parties must never believe a safeguard is on when it is not (issue 14). Canary tasks need a
 * canary set with canaries that can pose as the agreement's service type; without one the terms
 * would promise known-answer checks that never happen. And until the evaluator work queue sends
 * canaries, no canary set is enough: enabled canary tasks are refused whatever the set.
 */
final class EvaluatorTermsCheck {
  static final String CANARY_TASKS = "/verification/canary_tasks";

  private final EvaluatorRegistry registry;

  EvaluatorTermsCheck(EvaluatorRegistry registry) {
    this.registry = registry;
  }

  void check(Agreement a) {
    CanaryTerms canaries = a.terms().verification().canaryTasks();
    if (!canaries.enabled()) {
      return;
    }
    Optional<CanarySetInfo> set = registry.canarySet();
    if (set.isEmpty()) {
      throw new InvalidDocumentException(
          CANARY_TASKS,
          "this server has no canary set, so no canary task would ever reach the evaluator; leave"
              + " canary_tasks out (or set \"enabled\": false), or ask the operator to load a"
              + " canary set (asa serve --canaries FILE, or PUT /admin/canaries)");
    }
    String type = a.terms().service().type();
    if (set.get().countFor(type) == 0) {
      throw new InvalidDocumentException(
          CANARY_TASKS,
          "this server's canary set has no canary that can pose as service type '"
              + type
              + "', so no canary task would ever reach the evaluator; leave canary_tasks out (or"
              + " set \"enabled\": false), or ask the operator to add canaries of that type");
    }
    // Until the evaluator work queue carries canaries to the evaluator, a canary set alone checks
    // nothing: accepting the terms would be a safeguard on paper.
    throw new InvalidDocumentException(
        CANARY_TASKS,
        "this server does not send canary tasks to evaluators yet (they travel with the evaluator"
            + " work queue, not built yet), so none would reach the evaluator; leave canary_tasks"
            + " out (or set \"enabled\": false)");
  }
}
