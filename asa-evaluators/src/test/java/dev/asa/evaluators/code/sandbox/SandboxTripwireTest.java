package dev.asa.evaluators.code.sandbox;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Forged results (the code under test runs in the harness's process): each deliverable here fakes a
 * pass, and each test checks that a tripwire fired, that the run counts nothing as passed, and that
 * the reason says why. Honest runs staying untouched is the rest of the sandbox suite.
 */
class SandboxTripwireTest {
  private static final String PY_TESTS =
      "import unittest\n"
          + "from sol import add\n\n"
          + "class AddTest(unittest.TestCase):\n"
          + "    def test_add(self):\n"
          + "        self.assertEqual(add(2, 2), 4)\n";

  private static TestRun python(String sol, String tests) {
    TestRunner runner = SandboxRequired.runner();
    SandboxRequired.runtime(Language.PYTHON);
    return runner.run(
        Language.PYTHON,
        Map.of("sol.py", sol),
        TestFile.of(Language.PYTHON, tests),
        Limits.defaults());
  }

  private static void assertTampered(TestRun run, String reasonPart) {
    assertTrue(run.tampered().isPresent(), () -> "not detected: " + run);
    assertTrue(run.tampered().get().contains(reasonPart), () -> "reason: " + run.tampered().get());
    assertFalse(run.allPassed());
    assertEquals(0, run.passed());
    assertEquals(0.0, run.passRate());
  }

  @Test
  void honestPythonRunIsUntouchedAndControlsAreHidden() {
    TestRun run = python("def add(a, b):\n    return a + b\n", PY_TESTS);
    assertTrue(run.allPassed(), run::toString);
    assertEquals(List.of("AddTest.test_add"), run.tests().stream().map(t -> t.name()).toList());
    assertTrue(run.tampered().isEmpty());
  }

  @Test
  void pythonPatchingAssertEqualIsTampering() {
    TestRun run =
        python(
            "import unittest\n"
                + "unittest.TestCase.assertEqual = lambda self, a, b, msg=None: None\n"
                + "def add(a, b):\n    return a - b\n",
            PY_TESTS);
    assertTampered(run, "must fail");
    assertTrue(run.tampered().get().contains("assertEqual replaced"), run.tampered().get());
  }

  @Test
  void pythonPatchingTheHarnessIsTampering() {
    TestRun run =
        python(
            "import __main__\n"
                + "__main__.run_case = lambda case: ('PASS', '')\n"
                + "def add(a, b):\n    return a - b\n",
            PY_TESTS);
    assertTampered(run, "must fail");
  }

  @Test
  void pythonFakeLinesThenExitIsTampering() {
    TestRun run =
        python(
            "import os\n"
                + "def add(a, b):\n"
                + "    with open('__asa__/results.txt', 'a') as f:\n"
                + "        f.write('START\\tAddTest.test_add\\nPASS\\tAddTest.test_add\\t1\\t\\n')\n"
                + "    os._exit(0)\n",
            PY_TESTS);
    assertTampered(run, "not written by the harness");
    assertTrue(run.tampered().get().contains("status 0"), run.tampered().get());
  }

  @Test
  void pythonTruncatingTheResultsAndExitingIsTampering() {
    TestRun run =
        python(
            "import os\n"
                + "def add(a, b):\n"
                + "    open('__asa__/results.txt', 'w').close()\n"
                + "    os._exit(0)\n",
            PY_TESTS);
    assertTampered(run, "status 0");
  }

  /**
   * The limit, shown: code that digs the harness's signing function out of memory writes lines that
   * verify. Here the forged pass sits beside the real failure, and the name check catches the test
   * reported twice; a forger who also suppressed the real line would need more digging.
   */
  @Test
  void pythonUsingTheHarnessesOwnSignerIsCaughtByTheNameCheck() {
    TestRun run =
        python(
            "import gc\n"
                + "def add(a, b):\n"
                + "    for o in gc.get_objects():\n"
                + "        code = getattr(o, '__code__', None)\n"
                + "        if code and o.__name__ == 'line' and 'sha256' in code.co_freevars:\n"
                + "            o('START', 'AddTest.test_add')\n"
                + "            o('PASS', 'AddTest.test_add', 1, '')\n"
                + "    return a - b\n",
            PY_TESTS);
    assertTampered(run, "reported twice");
  }

  @Test
  void pythonReadsNoKey() {
    TestRun run =
        python(
            "import os\n"
                + "KEY = open('__asa__/key').read()\n"
                + "def add(a, b):\n    return len(KEY)\n",
            "from sol import add\n\ndef test_key_is_gone():\n    assert add(0, 0) == 0\n");
    assertTrue(run.allPassed(), run::toString);
  }

  @Test
  void javascriptPatchingAssertChangesNothing() {
    TestRunner runner = SandboxRequired.runner();
    SandboxRequired.runtime(Language.JAVASCRIPT);
    String tests =
        "const test = require('node:test');\n"
            + "const assert = require('node:assert');\n"
            + "const { add } = require('./sol.js');\n"
            + "test('adds', () => { assert.strictEqual(add(2, 2), 4); });\n";
    TestRun honest =
        runner.run(
            Language.JAVASCRIPT,
            Map.of("sol.js", "module.exports = { add: (a, b) => a + b };\n"),
            TestFile.of(Language.JAVASCRIPT, tests),
            Limits.defaults());
    assertTrue(honest.allPassed(), honest::toString);
    assertEquals(List.of("adds"), honest.tests().stream().map(t -> t.name()).toList());
    TestRun run =
        runner.run(
            Language.JAVASCRIPT,
            Map.of(
                "sol.js",
                "const assert = require('node:assert');\n"
                    + "assert.strictEqual = () => {};\n"
                    + "assert.strict.ok = () => {};\n"
                    + "assert.strict.equal = () => {};\n"
                    + "module.exports = { add: (a, b) => a - b };\n"),
            TestFile.of(Language.JAVASCRIPT, tests),
            Limits.defaults());
    // node:assert is frozen before the deliverable loads: the assignments are ignored, the
    // assertions stay node's own, and the wrong sum fails as it should.
    assertEquals(0, run.passed(), run::toString);
    assertEquals(1, run.failed(), run::toString);
    assertTrue(run.tampered().isEmpty(), run::toString);
  }

  @Test
  void aJavascriptDeliverableThatThrowsOnImportFailsWithoutBeingCalledTampered() {
    TestRunner runner = SandboxRequired.runner();
    SandboxRequired.runtime(Language.JAVASCRIPT);
    TestRun run =
        runner.run(
            Language.JAVASCRIPT,
            Map.of("sol.js", "throw new Error('broken at import');\n"),
            TestFile.of(
                Language.JAVASCRIPT,
                "const test = require('node:test');\n"
                    + "const { add } = require('./sol.js');\n"
                    + "test('adds', () => {});\n"),
            Limits.defaults());
    assertFalse(run.allPassed());
    assertTrue(run.tampered().isEmpty(), () -> run.tampered().orElse(""));
  }

  @Test
  void javaFakeLinesThenExitIsTampering() {
    TestRunner runner = SandboxRequired.runner();
    SandboxRequired.runtime(Language.JAVA);
    String tests =
        "public class DeliverableTest {\n"
            + "  public void testAdd() {\n"
            + "    if (Sol.add(2, 2) != 4) throw new AssertionError(\"2+2\");\n"
            + "  }\n"
            + "}\n";
    TestRun run =
        runner.run(
            Language.JAVA,
            Map.of(
                "Sol.java",
                "public class Sol {\n"
                    + "  public static int add(int a, int b) {\n"
                    + "    try (var w = new java.io.FileWriter(\"__asa__/results.txt\", true)) {\n"
                    + "      w.write(\"PASS\\tDeliverableTest.testAdd\\t1\\t\\n\");\n"
                    + "    } catch (java.io.IOException e) {\n"
                    + "      throw new java.io.UncheckedIOException(e);\n"
                    + "    }\n"
                    + "    System.exit(0);\n"
                    + "    return 0;\n"
                    + "  }\n"
                    + "}\n"),
            TestFile.of(Language.JAVA, tests),
            Limits.defaults());
    assertTampered(run, "not written by the harness");
  }

  @Test
  void unsignedOrReplayedLinesAreTampering() {
    Tripwire t = Tripwire.of(new byte[32], List.of("f1", "f2"), "p1");
    String good =
        String.join(
            "\n", t.sign(0, "START\tx"), t.sign(1, "PASS\tx\t1\t"), t.sign(2, "END\t1"), "");
    Tripwire.Verified ok = t.verify(good, false);
    assertTrue(ok.ended());
    assertTrue(ok.tampering().isEmpty(), ok.tampering()::toString);
    assertEquals("START\tx\nPASS\tx\t1\t\n", ok.text());

    Tripwire.Verified forged = t.verify(good + "PASS\ty\t1\t\n", false);
    assertFalse(forged.text().contains("y"));
    assertTrue(forged.tampering().get(0).contains("not written by the harness"));

    Tripwire.Verified replayed = t.verify(t.sign(0, "PASS\tx\t1\t") + "\n" + good, false);
    assertTrue(replayed.tampering().stream().anyMatch(s -> s.contains("out of sequence")));

    Tripwire.Verified miscounted =
        t.verify(t.sign(0, "PASS\tx\t1\t") + "\n" + t.sign(1, "END\t2") + "\n", false);
    assertTrue(miscounted.tampering().stream().anyMatch(s -> s.contains("counted 2")));

    Tripwire other = Tripwire.of(new byte[] {1}, List.of("f1", "f2"), "p1");
    assertFalse(other.verify(good, false).tampering().isEmpty());
    // A write cut short by a kill is not tampering.
    assertTrue(t.verify(good + "abc", true).tampering().isEmpty());
  }

  @Test
  void reportedNamesAreHeldToTheTestFile() {
    TestFile py =
        new TestFile(
            "test_x.py",
            "def test_a():\n    pass\n\nclass T:\n    def test_b(self):\n        pass\n"
                + "\ndef test_helper(x):\n    pass\n\n@odd\ndef test_odd():\n    pass\n");
    assertTrue(TestNames.check(Language.PYTHON, py, List.of("test_a", "T.test_b")).isEmpty());
    assertTrue(TestNames.check(Language.PYTHON, py, List.of("test_a", "test_zzz")).isPresent());
    assertTrue(TestNames.check(Language.PYTHON, py, List.of("T.test_b")).isPresent());
    assertTrue(TestNames.check(Language.PYTHON, py, List.of("test_a", "test_a")).isPresent());

    TestFile js = new TestFile("a.test.js", "test('one', () => {});\nit(\"two\", () => {});\n");
    assertTrue(TestNames.check(Language.JAVASCRIPT, js, List.of("one", "two")).isEmpty());
    assertTrue(TestNames.check(Language.JAVASCRIPT, js, List.of("one", "three")).isPresent());
    TestFile dynamic =
        new TestFile("a.test.js", "for (const n of [1, 2]) test(`case ${n}`, () => {});\n");
    assertTrue(TestNames.check(Language.JAVASCRIPT, dynamic, List.of("case 1")).isEmpty());

    TestFile java =
        new TestFile(
            "XTest.java",
            "public class XTest {\n  public void testA() {}\n  public static void testB() {}\n"
                + "  // public void testOld() {}\n  /* public void testOlder() {} */\n}\n");
    assertTrue(
        TestNames.check(Language.JAVA, java, List.of("XTest.testA", "XTest.testB")).isEmpty());
    assertTrue(TestNames.check(Language.JAVA, java, List.of("XTest.testA")).isPresent());
    assertTrue(
        TestNames.check(Language.JAVA, java, List.of("XTest.testA", "XTest.testB", "XTest.testC"))
            .isPresent());
  }
}
