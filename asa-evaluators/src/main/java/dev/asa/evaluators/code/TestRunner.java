package dev.asa.evaluators.code;

import dev.asa.evaluators.EvaluationException;
import dev.asa.evaluators.EvaluationTask;

/**
 * Runs a code deliverable's tests: the sandbox plugs in here. The code evaluator calls it once per
 * evaluation with the unpacked tree; {@link #NONE} runs nothing, so the dimensions only tests can
 * measure stay not evaluated with the outcome's reason.
 */
@FunctionalInterface
public interface TestRunner {

  /** The reason given while no sandbox is wired in. */
  String NO_SANDBOX = "needs the code sandbox (tests)";

  TestRunner NONE = (tree, task) -> new Outcome.NotRun(NO_SANDBOX);

  /**
   * Runs the tests of the tree, or says why it does not.
   *
   * @throws EvaluationException when the sandbox itself failed (not when the tests failed: that is
   *     a result)
   */
  Outcome run(CodeTree tree, EvaluationTask task) throws EvaluationException;

  /** Whether tests ran, and what they found or why not. */
  sealed interface Outcome permits Outcome.Ran, Outcome.NotRun {
    record Ran(TestResults results) implements Outcome {}

    /**
     * Tests did not run.
     *
     * @param reason why not: no sandbox, sandbox off, no tests given...; the evidence of every
     *     dimension that needed them
     */
    record NotRun(String reason) implements Outcome {}
  }
}
