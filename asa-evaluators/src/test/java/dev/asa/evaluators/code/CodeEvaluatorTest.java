package dev.asa.evaluators.code;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.asa.agreement.QualityCriteria;
import dev.asa.document.StandaloneCriteria;
import dev.asa.evaluators.Deliverable;
import dev.asa.evaluators.Evaluation;
import dev.asa.evaluators.EvaluationException;
import dev.asa.evaluators.EvaluationTask;
import dev.asa.scoring.DimensionInput;
import dev.asa.template.Templates;
import java.math.BigDecimal;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;

class CodeEvaluatorTest {

  /**
   * The code_generation template's criteria: correctness, performance, security, maintainability,
   * test_coverage.
   */
  private static final QualityCriteria TEMPLATE =
      StandaloneCriteria.parse(
          Templates.get("code_generation").orElseThrow().defaults().get("quality_criteria"));

  /** The section 5.4 defaults for code, which score documentation on its own. */
  private static final QualityCriteria DEFAULTS = StandaloneCriteria.forType("code");

  static final String GOOD_PYTHON =
      """
      \"\"\"Order totals.\"\"\"
      import os


      def total(prices, discount=0.0):
          \"\"\"The sum of the prices, less the discount.\"\"\"
          return sum(prices) * (1 - discount)


      def connect(db, name):
          \"\"\"Find a user by name with a bound parameter.\"\"\"
          key = os.environ["API_KEY"]
          return db.execute("SELECT * FROM users WHERE name = ?", (name, key))


      class Cart:
          \"\"\"Items a customer is buying.\"\"\"

          def add(self, item):
              \"\"\"Put an item in the cart.\"\"\"
              self.items.append(item)
      """;

  static final String SMELLY_PYTHON =
      """
      import os
      PASSWORD = "hunter2hunter2"
      def Total(p, d):
          if p:
              for x in p:
                  if x:
                      while x:
                          if d:
                              if d > 1:
                                  x = eval(d)
          return 0
      def connect(db, name):
          os.system("rm " + name)
          return db.execute("SELECT * FROM users WHERE name = '%s'" % name)
      class cart:
          def Add(self, item):
              self.items.append(item)
      """;

  private static Evaluation evaluate(String content, String format, QualityCriteria criteria)
      throws EvaluationException {
    return evaluate(new CodeEvaluator(), content, format, criteria);
  }

  private static Evaluation evaluate(
      CodeEvaluator evaluator, String content, String format, QualityCriteria criteria)
      throws EvaluationException {
    return evaluator.evaluate(
        EvaluationTask.of(
            Deliverable.of(content, format, Instant.EPOCH),
            "Write an order module",
            "code",
            criteria));
  }

  private static BigDecimal score(Evaluation e, String dimension) {
    return e.dimensions().get(dimension).score();
  }

  @Test
  void goodCodeScoresBetterThanSmellyCodeOnEveryStaticDimension() throws Exception {
    Evaluation good = evaluate(GOOD_PYTHON, "python", DEFAULTS);
    Evaluation smelly = evaluate(SMELLY_PYTHON, "python", DEFAULTS);
    for (String d : new String[] {"security", "maintainability", "documentation"}) {
      assertThat(score(good, d)).as(d).isGreaterThan(score(smelly, d));
    }
    assertThat(score(good, "security")).isEqualByComparingTo("100");
    assertThat(score(good, "documentation")).isEqualByComparingTo("100");
    assertThat(score(smelly, "security")).isEqualByComparingTo("0");
    String evidence = smelly.dimensions().get("security").evidence();
    assertThat(evidence)
        .contains("main.py:2 hard-coded secret")
        .contains("main.py:10 dynamic code evaluation")
        .contains("main.py:13 shell command built from strings")
        .contains("main.py:14 SQL built by concatenation")
        .contains("tree-sitter-python");
    assertThat(smelly.dimensions().get("maintainability").evidence())
        .contains("main.py:3 deep nesting")
        .contains("main.py:3 name against the language's convention (Total");
    assertThat(smelly.dimensions().get("documentation").evidence()).contains("main.py:3 ");
  }

  @Test
  void whatNeedsTestsIsNotEvaluatedWithTheSandboxReason() throws Exception {
    Evaluation e = evaluate(GOOD_PYTHON, "python", TEMPLATE);
    for (String d : new String[] {"correctness", "performance", "test_coverage"}) {
      DimensionInput input = e.dimensions().get(d);
      assertThat(input.isEvaluated()).as(d).isFalse();
      assertThat(input.evidence()).contains(TestRunner.NO_SANDBOX);
    }
    assertThat(e.dimensions().get("security").isEvaluated()).isTrue();
    // No documentation dimension in the template: documentation counts within maintainability.
    assertThat(e.dimensions().get("maintainability").evidence())
        .contains("documented public items");
    assertThat(e.checks().get(CodeEvaluator.CODE_PARSES).passed()).isTrue();
  }

  @Test
  void codeThatDoesNotParseCannotBeCorrect() throws Exception {
    Evaluation e = evaluate("def f(:\n    return 1\n", "python", TEMPLATE);
    assertThat(score(e, "correctness")).isEqualByComparingTo("0");
    assertThat(e.dimensions().get("correctness").evidence()).contains("main.py:1");
    assertThat(e.checks().get(CodeEvaluator.CODE_PARSES).passed()).isFalse();
  }

  @Test
  void testResultsScoreWhatTheStaticChecksCannot() throws Exception {
    TestRunner runner =
        (tree, task) ->
            new TestRunner.Outcome.Ran(
                new TestResults(
                    9,
                    1,
                    82.5,
                    Duration.ofMillis(1500),
                    Duration.ofSeconds(3),
                    "test_edge failed"));
    Evaluation e = evaluate(new CodeEvaluator(runner), GOOD_PYTHON, "python", TEMPLATE);
    assertThat(score(e, "correctness")).isEqualByComparingTo("90");
    assertThat(score(e, "test_coverage")).isEqualByComparingTo("82.5");
    assertThat(score(e, "performance")).isEqualByComparingTo("100");
    assertThat(e.checks().get(CodeEvaluator.TESTS_PASS).passed()).isFalse();
  }

  @Test
  void javaIsScoredWithJavaParser() throws Exception {
    String java =
        """
        /** Greets. */
        public final class Greeter {
          /** A greeting for a name. */
          public String greet(String name) {
            return "Hello, " + name;
          }
        }
        """;
    Evaluation e = evaluate(java, "java", DEFAULTS);
    assertThat(score(e, "documentation")).isEqualByComparingTo("100");
    assertThat(score(e, "security")).isEqualByComparingTo("100");
    assertThat(e.dimensions().get("maintainability").evidence()).contains("JavaParser on 1 file");
  }

  @Test
  void anUnreadableDeliverableIsRefusedWithTheReason() {
    assertThatThrownBy(() -> evaluate("{\"files\": {\"../x.py\": \"\"}}", "python", DEFAULTS))
        .isInstanceOf(EvaluationException.class)
        .hasMessageContaining("climbs out");
    assertThatThrownBy(() -> evaluate("{\"files\": {\"notes.txt\": \"hi\"}}", "python", DEFAULTS))
        .hasMessageContaining("no source file");
  }
}
