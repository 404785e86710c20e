package dev.asa.evaluators.code;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.fail;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.asa.agreement.CodeTests;
import dev.asa.agreement.QualityCriteria;
import dev.asa.crypto.Digest;
import dev.asa.document.StandaloneCriteria;
import dev.asa.evaluators.Deliverable;
import dev.asa.evaluators.Evaluation;
import dev.asa.evaluators.EvaluationTask;
import dev.asa.evaluators.code.sandbox.Limits;
import dev.asa.evaluators.code.sandbox.Sandbox;
import dev.asa.json.Json;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** The code evaluator with the sandbox: whose tests run, and which of them pass the gate. */
class SandboxTestsTest {
  static final String CODE =
      "\"\"\"Adds.\"\"\"\n\n\ndef add(a, b):\n    \"\"\"Returns a + b.\"\"\"\n    return a + b\n";
  static final String TESTS =
      "import unittest\nfrom calc import add\n\n\nclass AddTest(unittest.TestCase):\n"
          + "    def test_add(self):\n        self.assertEqual(add(2, 3), 5)\n";
  static final String TRIVIAL =
      "import unittest\n\n\nclass Nothing(unittest.TestCase):\n"
          + "    def test_nothing(self):\n        self.assertTrue(True)\n";

  static CodeEvaluator evaluator;

  @BeforeAll
  static void sandbox() {
    Sandbox.Availability a = Sandbox.available();
    if (!a.available() && "true".equals(System.getenv("CI"))) {
      fail("CI=true but no code sandbox: " + a.reason());
    }
    assumeTrue(a.available(), () -> "code sandbox unavailable, test skipped: " + a.reason());
    evaluator =
        new CodeEvaluator(
            new SandboxTests(
                new dev.asa.evaluators.code.sandbox.TestRunner(Sandbox.create()),
                Limits.defaults()));
  }

  static Evaluation evaluate(Map<String, String> files, CodeTests tests) throws Exception {
    ObjectNode manifest = Json.object();
    ObjectNode f = manifest.putObject("files");
    files.forEach(f::put);
    String content = manifest.toString();
    QualityCriteria criteria = StandaloneCriteria.forType("code").withCodeTests(tests);
    return evaluator.evaluate(
        EvaluationTask.of(
            new Deliverable(
                content,
                "python",
                Digest.sha256(content.getBytes(StandardCharsets.UTF_8)),
                Instant.parse("2026-11-24T10:00:00Z")),
            "an add function",
            "code/python",
            criteria));
  }

  @Test
  void theClientsTestsScoreCorrectnessAndDecideTheGate() throws Exception {
    Evaluation e = evaluate(Map.of("calc.py", CODE), new CodeTests("python", TESTS));
    assertThat(e.dimensions().get("correctness").score()).isEqualByComparingTo("100");
    assertThat(e.checks().get(CodeEvaluator.TESTS_PASS).passed()).isTrue();
  }

  @Test
  void aDeliverableThatDisarmsTheAssertionsFailsTheGateAsTampered() throws Exception {
    String forged =
        "import unittest\n"
            + "unittest.TestCase.assertEqual = lambda self, a, b, msg=None: None\n\n\n"
            + "def add(a, b):\n    return a - b\n";
    Evaluation e = evaluate(Map.of("calc.py", forged), new CodeTests("python", TESTS));
    assertThat(e.dimensions().get("correctness").score()).isEqualByComparingTo("0");
    assertThat(e.dimensions().get("correctness").evidence()).contains("TAMPERED");
    assertThat(e.checks().get(CodeEvaluator.TESTS_PASS).passed()).isFalse();
  }

  @Test
  void aProvidersOwnTestsInformTheScoresButNeverPassTheGate() throws Exception {
    Evaluation e = evaluate(Map.of("calc.py", CODE, "test_calc.py", TRIVIAL), null);
    assertThat(e.dimensions().get("correctness").evidence()).contains("the provider's own tests");
    assertThat(e.checks()).doesNotContainKey(CodeEvaluator.TESTS_PASS);
  }

  @Test
  void withNoTestsAtAllWhatOnlyTestsMeasureStaysUnscored() throws Exception {
    Evaluation e = evaluate(Map.of("calc.py", CODE), null);
    assertThat(e.dimensions().get("correctness").isEvaluated()).isFalse();
    assertThat(e.dimensions().get("correctness").evidence()).contains("ships none");
    assertThat(e.checks()).doesNotContainKey(CodeEvaluator.TESTS_PASS);
  }
}
