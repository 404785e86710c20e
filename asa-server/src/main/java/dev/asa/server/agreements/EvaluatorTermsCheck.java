package dev.asa.server.agreements;

import dev.asa.agreement.CanaryTerms;
import dev.asa.agreement.InvalidDocumentException;
import dev.asa.document.Agreement;
import dev.asa.server.pool.CanarySetInfo;
import dev.asa.server.pool.EvaluatorRegistry;
import dev.asa.server.verification.EvaluatorTasks;
import dev.asa.server.verification.engine.OfferedEvaluators;
import java.util.Optional;

/**
 * Refuses, at creation, evaluator terms this server cannot honour, naming the field: the parties
 * must never believe a safeguard is on when it is not (issue 14). Tests for a code deliverable need
 * the code sandbox. Canary tasks need a canary set with canaries that can pose as the agreement's
 * service type; without one the terms would promise known-answer checks that never happen. With
 * one, the evaluator work queue gives the canaries ({@link EvaluatorTasks}).
 */
final class EvaluatorTermsCheck {
  static final String CANARY_TASKS = "/verification/canary_tasks";

  static final String TESTS = "/quality_criteria/tests";

  private final EvaluatorRegistry registry;
  private final OfferedEvaluators offered;

  /**
   * @param offered the server's semantic evaluators (null: none), which say whether code runs here
   */
  EvaluatorTermsCheck(EvaluatorRegistry registry, OfferedEvaluators offered) {
    this.registry = registry;
    this.offered = offered;
  }

  void check(Agreement a) {
    if (a.terms().qualityCriteria().codeTests().isPresent()) {
      OfferedEvaluators.requireRunsCode(offered, TESTS);
    }
    checkCanaries(a);
  }

  private void checkCanaries(Agreement a) {
    CanaryTerms canaries = a.terms().verification().canaryTasks();
    if (!canaries.enabled()) {
      return;
    }
    boolean namedWithoutKey =
        a.terms().parties().evaluator().map(e -> e.key().isEmpty()).orElse(false);
    if (namedWithoutKey) {
      throw new InvalidDocumentException(
          CANARY_TASKS,
          "canary tasks test an external evaluator through its work queue, and the evaluator this"
              + " agreement names has no verification_key to take tasks with; give it one, or leave"
              + " canary_tasks out");
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
  }
}
