package dev.asa.evaluators.code;

import dev.asa.agreement.CodeTests;
import dev.asa.agreement.Dimension;
import dev.asa.agreement.MetricType;
import dev.asa.agreement.QualityCriteria;
import dev.asa.evaluators.Evaluation;
import dev.asa.evaluators.EvaluationException;
import dev.asa.evaluators.EvaluationTask;
import dev.asa.evaluators.Evaluator;
import dev.asa.evaluators.Language;
import dev.asa.scoring.CheckResult;
import dev.asa.scoring.DimensionInput;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * The code evaluator: reads a code deliverable ({@link CodeDeliverables}), parses every source file
 * with a real parser and runs the static checks ({@link CodeReport}), and scores what they measure
 * ({@link CodeScores}): {@code maintainability}, {@code documentation} and {@code security}, each
 * with file:line findings; {@code correctness} is 0 when the code does not parse. What only running
 * the code can show ({@code correctness} otherwise, {@code performance}, {@code test_coverage})
 * comes from the {@link TestRunner}, and stays not evaluated, with its reason, until one runs.
 *
 * <p>Deterministic and offline; thread-safe (every evaluation parses with parsers of its own).
 */
public final class CodeEvaluator implements Evaluator {

  public static final String ID = "code/static-analysis";
  public static final String TYPE = "code";

  /** The check gates can name: every source file parses. */
  public static final String CODE_PARSES = "code_parses";

  /** The check gates can name: the tests ran and all passed (whitepaper 4.4). */
  public static final String TESTS_PASS = QualityCriteria.TESTS_PASS;

  /** The whitepaper's name for the same check (section 6.4's gate set), measured the same way. */
  public static final String ALL_TESTS_PASS = QualityCriteria.ALL_TESTS_PASS;

  static final Set<String> MAINTAINABILITY =
      Set.of("maintainability", "code_quality", "readability", "style");
  static final Set<String> DOCUMENTATION =
      Set.of("documentation", "docs", "documentation_coverage", "comments");
  static final Set<String> SECURITY = Set.of("security");
  static final Set<String> CORRECTNESS = Set.of("correctness");
  static final Set<String> PERFORMANCE = Set.of("performance", "efficiency");
  static final Set<String> TEST_COVERAGE = Set.of("test_coverage");

  private final TestRunner tests;

  /** Static checks only: the dimensions tests measure are not evaluated. */
  public CodeEvaluator() {
    this(TestRunner.NONE);
  }

  public CodeEvaluator(TestRunner tests) {
    this.tests = Objects.requireNonNull(tests, "tests");
  }

  @Override
  public String id() {
    return ID;
  }

  @Override
  public String type() {
    return TYPE;
  }

  @Override
  public Evaluation evaluate(EvaluationTask task) throws EvaluationException {
    task.progress().update("reading the code", 0, 3);
    // A single file is named as the client's tests import it, or as the request names it.
    String testFile = task.criteria().codeTests().map(CodeTests::content).orElse(null);
    CodeDeliverables.Read.Tree read =
        switch (CodeDeliverables.read(
            task.deliverable(), task.deliverableType(), testFile, task.request())) {
          case CodeDeliverables.Read.Tree t -> t;
          case CodeDeliverables.Read.Refused r ->
              throw new EvaluationException(
                  EvaluationException.Reason.INVALID_TASK,
                  "the code evaluator cannot read the deliverable: " + r.reason());
        };
    CodeTree tree = read.tree();
    task.progress().update("parsing and checking " + tree.files().size() + " files", 1, 3);
    CodeReport report = CodeReport.of(tree);
    if (report.files().isEmpty()) {
      throw new EvaluationException(
          EvaluationException.Reason.INVALID_TASK,
          "the code evaluator found no source file it reads ("
              + Language.choices()
              + ") among "
              + String.join(", ", tree.files().keySet()));
    }
    task.progress().update("running the tests", 2, 3);
    TestRunner.Outcome outcome = tests.run(tree, task);

    boolean documentationScoredApart =
        task.criteria().dimensions().stream().anyMatch(d -> DOCUMENTATION.contains(d.name()));
    CodeScores scores = new CodeScores(report, outcome, read.named() ? "" : read.packing());
    Map<String, DimensionInput> inputs = new LinkedHashMap<>();
    for (Dimension d : task.criteria().dimensions()) {
      inputs.put(d.name(), input(d, scores, documentationScoredApart));
    }
    Map<String, CheckResult> checks = new LinkedHashMap<>();
    checks.put(CODE_PARSES, scores.parsesCheck());
    // Only the client's tests can pass the gate: a provider's own tests prove what it chose to.
    if (outcome instanceof TestRunner.Outcome.Ran ran && ran.results().agreed()) {
      CheckResult passed = CodeScores.testsPass(ran.results());
      checks.put(TESTS_PASS, passed);
      checks.put(ALL_TESTS_PASS, passed);
    }
    task.progress().update("done", 3, 3);
    return new Evaluation(ID, TYPE, null, inputs, checks, Evaluation.Usage.FREE);
  }

  private static DimensionInput input(Dimension d, CodeScores s, boolean documentationApart) {
    String name = d.name();
    boolean known =
        MAINTAINABILITY.contains(name)
            || DOCUMENTATION.contains(name)
            || SECURITY.contains(name)
            || CORRECTNESS.contains(name)
            || PERFORMANCE.contains(name)
            || TEST_COVERAGE.contains(name);
    if (!known) {
      return DimensionInput.notEvaluated(
          name,
          "the code evaluator cannot judge "
              + name
              + ": it measures maintainability, documentation and security statically, and"
              + " correctness, performance and test coverage by running tests");
    }
    if (d.metric() != MetricType.PERCENTAGE && d.metric() != MetricType.SCORE) {
      return DimensionInput.notEvaluated(
          name,
          "the code evaluator scores "
              + name
              + " only as a percentage or score, not as a "
              + d.metric().wireName());
    }
    if (MAINTAINABILITY.contains(name)) {
      return s.maintainability(name, !documentationApart);
    }
    if (DOCUMENTATION.contains(name)) {
      return s.documentation(name);
    }
    if (SECURITY.contains(name)) {
      return s.security(name);
    }
    if (CORRECTNESS.contains(name)) {
      return s.correctness(name);
    }
    if (PERFORMANCE.contains(name)) {
      return s.performance(name);
    }
    return s.testCoverage(name);
  }
}
