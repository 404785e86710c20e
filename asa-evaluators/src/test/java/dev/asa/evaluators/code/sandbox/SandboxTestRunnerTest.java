package dev.asa.evaluators.code.sandbox;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.asa.evaluators.code.sandbox.TestCaseResult.Outcome;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

class SandboxTestRunnerTest {
  private static TestRunner runner;

  @BeforeAll
  static void runner() {
    runner = SandboxRequired.runner();
  }

  private static Map<String, Outcome> outcomes(TestRun run) {
    return run.tests().stream()
        .collect(Collectors.toMap(TestCaseResult::name, TestCaseResult::outcome));
  }

  @Test
  void pythonUnittestAndPytestStyleTestsWithCoverage() {
    SandboxRequired.runtime(Language.PYTHON);
    String code = "def add(a, b):\n    return a + b\n\ndef unused(x):\n    return x * 2\n";
    String tests =
        """
        import unittest
        from calc import add

        class AddTest(unittest.TestCase):
            def test_adds(self):
                self.assertEqual(add(1, 2), 3)
            def test_wrong(self):
                self.assertEqual(add(1, 2), 4)

        def test_plain():
            assert add(2, 2) == 4

        def test_raises():
            raise KeyError("boom")

        class TestGrouped:
            def test_in_class(self):
                assert add(0, 0) == 0
        """;
    TestRun run =
        runner.run(
            Language.PYTHON,
            Map.of("calc.py", code),
            TestFile.of(Language.PYTHON, tests),
            Limits.defaults());
    assertEquals(
        Map.of(
            "AddTest.test_adds",
            Outcome.PASSED,
            "AddTest.test_wrong",
            Outcome.FAILED,
            "test_plain",
            Outcome.PASSED,
            "test_raises",
            Outcome.ERRORED,
            "TestGrouped.test_in_class",
            Outcome.PASSED),
        outcomes(run),
        run.output());
    assertEquals(3, run.passed());
    assertEquals(1, run.failed());
    assertEquals(1, run.errored());
    assertFalse(run.killed());
    assertTrue(run.problem().isEmpty(), run.problem().toString());
    // def add, return, def unused run (3 of 4 lines); unused's body does not.
    assertEquals(75.0, run.coverage().orElseThrow(), 0.01);
  }

  @Test
  void aPythonTestFileThatDoesNotLoadIsAProblemNotAPass() {
    SandboxRequired.runtime(Language.PYTHON);
    TestRun run =
        runner.run(
            Language.PYTHON,
            Map.of(),
            TestFile.of(Language.PYTHON, "import nowhere\n"),
            Limits.defaults());
    assertEquals(0, run.run());
    assertTrue(run.problem().orElseThrow().contains("ModuleNotFoundError"), run.problem().get());
    assertFalse(run.allPassed());
  }

  @Test
  void javascriptNodeTestWithCoverage() {
    SandboxRequired.runtime(Language.JAVASCRIPT);
    String code = "exports.add = (a, b) => a + b;\nexports.neg = (a) => {\n  return -a;\n};\n";
    String tests =
        """
        const test = require('node:test');
        const assert = require('node:assert');
        const { add } = require('./calc.js');
        test('adds', () => assert.strictEqual(add(1, 2), 3));
        test('wrong', () => assert.strictEqual(add(1, 2), 4));
        test('throws', () => { throw new TypeError('boom'); });
        test.describe('group', () => { test.it('inner', () => assert.ok(true)); });
        """;
    TestRun run =
        runner.run(
            Language.JAVASCRIPT,
            Map.of("calc.js", code),
            TestFile.of(Language.JAVASCRIPT, tests),
            Limits.defaults());
    assertEquals(
        Map.of(
            "adds",
            Outcome.PASSED,
            "wrong",
            Outcome.FAILED,
            "throws",
            Outcome.ERRORED,
            "inner",
            Outcome.PASSED),
        outcomes(run),
        run.output());
    assertTrue(run.coverage().isPresent(), run.output());
    assertTrue(run.coverage().getAsDouble() < 100.0);
  }

  @Test
  void javaPlainTestMethodsStaticOrNot() {
    SandboxRequired.runtime(Language.JAVA);
    String code =
        """
        package shop;

        public final class Cart {
          public static int total(int... prices) {
            int sum = 0;
            for (int p : prices) {
              sum += p;
            }
            return sum;
          }
        }
        """;
    String tests =
        """
        package shop;

        public class CartTest {
          public static void testSums() {
            if (Cart.total(1, 2) != 3) throw new AssertionError("1 + 2");
          }
          public void testWrong() {
            assert Cart.total(1, 2) == 4 : "expected 4";
          }
          public void testThrows() {
            throw new IllegalStateException("boom");
          }
          public void helper() {}
        }
        """;
    TestRun run =
        runner.run(
            Language.JAVA,
            Map.of("shop/Cart.java", code),
            new TestFile("shop/CartTest.java", tests),
            Limits.defaults());
    assertEquals(
        Map.of(
            "CartTest.testSums",
            Outcome.PASSED,
            "CartTest.testWrong",
            Outcome.FAILED,
            "CartTest.testThrows",
            Outcome.ERRORED),
        outcomes(run),
        run.output());
    assertTrue(run.coverage().isEmpty());
  }

  @Test
  void javaThatDoesNotCompileSaysSo() {
    SandboxRequired.runtime(Language.JAVA);
    TestRun run =
        runner.run(
            Language.JAVA,
            Map.of("A.java", "public class A { int x = ; }"),
            TestFile.of(Language.JAVA, "public class DeliverableTest { public void testA() {} }"),
            Limits.defaults());
    assertEquals(0, run.run());
    assertTrue(run.problem().orElseThrow().startsWith("compilation failed"), run.problem().get());
    assertTrue(run.problem().get().contains("A.java:1"), run.problem().get());
  }

  @Test
  void theHarnessDirectoryAndTheTestFileNameAreReserved() {
    assertThrows(
        RejectedFilesException.class,
        () ->
            runner.run(
                Language.PYTHON,
                Map.of("__asa__/runner.py", "print(1)"),
                TestFile.of(Language.PYTHON, ""),
                Limits.defaults()));
    assertThrows(
        RejectedFilesException.class,
        () ->
            runner.run(
                Language.PYTHON,
                Map.of(),
                new TestFile("__asa__/results.txt", ""),
                Limits.defaults()));
    assertThrows(
        RejectedFilesException.class,
        () ->
            runner.run(
                Language.PYTHON,
                Map.of("test_deliverable.py", ""),
                TestFile.of(Language.PYTHON, ""),
                Limits.defaults()));
  }
}
