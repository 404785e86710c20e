package dev.asa.server.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.fail;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.asa.agreement.Role;
import dev.asa.client.AsaClient;
import dev.asa.evaluators.code.SandboxTests;
import dev.asa.evaluators.code.sandbox.Limits;
import dev.asa.evaluators.code.sandbox.Sandbox;
import dev.asa.evaluators.code.sandbox.TestRunner;
import dev.asa.json.Json;
import dev.asa.server.AsaServer;
import dev.asa.server.config.ServerConfig;
import dev.asa.server.verification.engine.VerificationConfig;
import dev.asa.testing.Fixtures;
import java.math.BigDecimal;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 52, item 3, through HTTP with the real code sandbox: the verdict on code follows the
 * client's tests, and a deliverable cannot make undone work pass them.
 *
 * <ul>
 *   <li>a single file is stored under the name the client's tests import (or the request names),
 *       and tests that do not load never lead to PASS;
 *   <li>the client's tests bring the {@code tests_pass} gate to a standalone verification;
 *   <li>a raised {@code unittest.SkipTest}, a value whose {@code __eq__} is always true, and a node
 *       test's {@code skip}/{@code todo} do not count as passes;
 *   <li>the sandbox's {@code /dev/shm} is a small capped tmpfs, not half the host's memory.
 * </ul>
 */
class CodeVerdictEndToEndTest {

  /** Five tests of a sort; a stub that returns [] passes only the empty one. */
  static final String SORT_TESTS =
      """
      import unittest
      from solution import sort_numbers

      class SortTest(unittest.TestCase):
          def test_empty(self):
              self.assertEqual(sort_numbers([]), [])

          def test_sorted(self):
              self.assertEqual(sort_numbers([1, 2, 3]), [1, 2, 3])

          def test_reversed(self):
              self.assertEqual(sort_numbers([3, 2, 1]), [1, 2, 3])

          def test_duplicates(self):
              self.assertEqual(sort_numbers([2, 1, 2]), [1, 2, 2])

          def test_negative(self):
              self.assertEqual(sort_numbers([0, -5, 5]), [-5, 0, 5])
      """;

  static final String SORT_CORRECT =
      """
      \"\"\"Sorting numbers.\"\"\"


      def sort_numbers(numbers):
          \"\"\"Returns the numbers in ascending order.\"\"\"
          return sorted(numbers)
      """;

  static final String SORT_STUB =
      """
      \"\"\"Sorting numbers, with thorough documentation.\"\"\"


      def sort_numbers(numbers):
          \"\"\"Returns the numbers in ascending order.

          The result is a new list; the argument is not changed.
          \"\"\"
          return []
      """;

  static final String SORT_SKIPS =
      """
      \"\"\"Sorting numbers.\"\"\"
      import unittest


      def sort_numbers(numbers):
          \"\"\"Returns the numbers in ascending order.\"\"\"
          raise unittest.SkipTest("not today")
      """;

  static final String SORT_ALWAYS_EQUAL =
      """
      \"\"\"Sorting numbers.\"\"\"


      class Sorted(list):
          \"\"\"A list that equals anything.\"\"\"

          def __eq__(self, other):
              return True

          def __ne__(self, other):
              return False


      def sort_numbers(numbers):
          \"\"\"Returns the numbers in ascending order.\"\"\"
          return Sorted()
      """;

  static final String REQUEST = "Write a module `solution.py` with sort_numbers(numbers).";

  @TempDir Path dataDir;
  private AsaServer server;
  private AsaClient anonymous;

  @BeforeEach
  void start() {
    Sandbox.Availability a = Sandbox.available();
    if (!a.available() && "true".equals(System.getenv("CI"))) {
      fail("CI=true but no code sandbox: " + a.reason());
    }
    assumeTrue(a.available(), () -> "code sandbox unavailable, test skipped: " + a.reason());
    server =
        AsaServer.start(
            ServerConfig.defaults()
                .withPort(0)
                .withDataDir(dataDir)
                .withRateLimit(10_000, 10_000)
                .withVerification(
                    VerificationConfig.standard(null, 2)
                        .withCodeSandbox(
                            new SandboxTests(
                                new TestRunner(Sandbox.create().hiding(List.of(dataDir))),
                                Limits.defaults()),
                            "bubblewrap")));
    anonymous = AsaClient.connect(URI.create(server.url("127.0.0.1")));
  }

  @AfterEach
  void stop() {
    if (server != null) {
      server.close();
    }
  }

  private AsaClient as(String name) {
    return anonymous.withKey(Fixtures.key(name));
  }

  /** A standalone verification of one file with the client's tests, at semantic depth. */
  private JsonNode standalone(
      String content, String format, String request, String testsLanguage, String tests) {
    ObjectNode r = Json.object();
    r.putObject("deliverable").put("content", content).put("format", format).put("type", "code");
    ObjectNode original = r.putObject("original_request").put("description", request);
    original.putObject("tests").put("language", testsLanguage).put("content", tests);
    r.putObject("verification_config").put("depth", "semantic");
    ObjectNode accepted = as("alice").requestVerification(r);
    return as("alice")
        .awaitVerification(
            accepted.path("verification_id").asText(), Duration.ofSeconds(90), p -> {});
  }

  private static JsonNode dimension(JsonNode result, String name) {
    for (JsonNode d : result.path("dimensions")) {
      if (d.path("name").asText().equals(name)) {
        return d;
      }
    }
    throw new AssertionError("no dimension " + name + " in " + result);
  }

  /** The tests_pass gate's outcome; fails the test when the result has no such gate. */
  private static boolean testsPassGate(JsonNode result) {
    for (JsonNode g : result.path("quality_gates")) {
      if (g.path("condition").asText().equals("tests_pass")) {
        return g.path("passed").asBoolean();
      }
    }
    throw new AssertionError("no tests_pass gate in " + result);
  }

  private static String verdict(JsonNode result) {
    return result.path("determination").path("result").asText();
  }

  private static BigDecimal correctness(JsonNode result) {
    return dimension(result, "correctness").path("score").decimalValue();
  }

  @Test
  void aSingleFileIsStoredUnderTheNameTheClientsTestsImport() {
    JsonNode result = standalone(SORT_CORRECT, "python", REQUEST, "python", SORT_TESTS);
    assertThat(correctness(result)).as(result.toString()).isEqualByComparingTo("100");
    assertThat(dimension(result, "correctness").path("evidence").asText())
        .contains("5 of 5 python tests passed");
    assertThat(testsPassGate(result)).isTrue();
    assertThat(verdict(result)).as(result.toString()).isEqualTo("PASS");
  }

  @Test
  void aSingleFileIsNamedAsTheRequestSaysWhenTheTestsDoNotDecide() {
    // The tests import two modules; the request says which one the single file is.
    String tests =
        SORT_TESTS.replace(
            "from solution import sort_numbers",
            "from solution import sort_numbers\ntry:\n    import helpers\nexcept ImportError:\n"
                + "    helpers = None");
    JsonNode result = standalone(SORT_CORRECT, "python", REQUEST, "python", tests);
    assertThat(correctness(result)).as(result.toString()).isEqualByComparingTo("100");
    assertThat(verdict(result)).isEqualTo("PASS");
  }

  @Test
  void testsThatDoNotLoadNeverLeadToPass() {
    // A manifest names the file itself, and not as the tests import it: nothing loads.
    ObjectNode manifest = Json.object();
    manifest.putObject("files").put("sorting.py", SORT_CORRECT);
    JsonNode result =
        standalone(manifest.toString(), "python", "Sort numbers.", "python", SORT_TESTS);
    assertThat(correctness(result)).as(result.toString()).isEqualByComparingTo("0");
    assertThat(dimension(result, "correctness").path("evidence").asText())
        .contains("the test file did not load");
    assertThat(testsPassGate(result)).isFalse();
    assertThat(verdict(result)).isEqualTo("FAIL");
  }

  @Test
  void anUndecidableNameIsSaidInTheEvidenceAndDoesNotPass() {
    String tests =
        SORT_TESTS.replace(
            "from solution import sort_numbers",
            "from solution import sort_numbers\nfrom helpers import check");
    JsonNode result = standalone(SORT_CORRECT, "python", "Sort numbers.", "python", tests);
    assertThat(dimension(result, "correctness").path("evidence").asText())
        .as(result.toString())
        .contains("the client's tests import solution.py, helpers.py");
    assertThat(testsPassGate(result)).isFalse();
    assertThat(verdict(result)).isEqualTo("FAIL");
  }

  @Test
  void aDocumentedStubThatFailsFourOfFiveClientTestsFails() {
    JsonNode result = standalone(SORT_STUB, "python", REQUEST, "python", SORT_TESTS);
    assertThat(dimension(result, "correctness").path("evidence").asText())
        .as(result.toString())
        .contains("1 of 5 python tests passed");
    assertThat(testsPassGate(result)).isFalse();
    assertThat(verdict(result)).isEqualTo("FAIL");
  }

  @Test
  void aRaisedSkipTestIsNotAPass() {
    JsonNode result = standalone(SORT_SKIPS, "python", REQUEST, "python", SORT_TESTS);
    assertThat(correctness(result)).as(result.toString()).isEqualByComparingTo("0");
    assertThat(dimension(result, "correctness").path("evidence").asText())
        .contains("a skip is not a pass");
    assertThat(testsPassGate(result)).isFalse();
    assertThat(verdict(result)).isEqualTo("FAIL");
  }

  @Test
  void aValueThatEqualsAnythingDoesNotPassTheTests() {
    JsonNode result = standalone(SORT_ALWAYS_EQUAL, "python", REQUEST, "python", SORT_TESTS);
    // Compared as the plain (empty) list it is, it passes the one test that expects [].
    assertThat(dimension(result, "correctness").path("evidence").asText())
        .as(result.toString())
        .contains("1 of 5 python tests passed");
    assertThat(testsPassGate(result)).isFalse();
    assertThat(verdict(result)).isEqualTo("FAIL");
    // Plain assert statements and assertTrue(a == b) are compared plainly too.
    String plainAsserts =
        """
        from solution import sort_numbers

        def test_sorted():
            assert sort_numbers([2, 1]) == [1, 2]

        def test_reflected():
            assert [1, 2] == sort_numbers([2, 1])

        def test_inside_a_list():
            assert [sort_numbers([2, 1])] == [[1, 2]]
        """;
    JsonNode asserted = standalone(SORT_ALWAYS_EQUAL, "python", REQUEST, "python", plainAsserts);
    assertThat(dimension(asserted, "correctness").path("evidence").asText())
        .as(asserted.toString())
        .contains("0 of 3 python tests passed");
    assertThat(verdict(asserted)).isEqualTo("FAIL");
  }

  @Test
  void aFailingSubtestFailsItsTest() {
    // unittest records a failing subtest without calling addFailure; the harness counted the
    // test as passed.
    String tests =
        """
        import unittest
        from solution import sort_numbers

        class SortTest(unittest.TestCase):
            def test_each_case(self):
                for given, expected in (([], []), ([2, 1], [1, 2]), ([3, 1, 2], [1, 2, 3])):
                    with self.subTest(given=given):
                        self.assertEqual(sort_numbers(given), expected)
        """;
    JsonNode result = standalone(SORT_STUB, "python", REQUEST, "python", tests);
    assertThat(dimension(result, "correctness").path("evidence").asText())
        .as(result.toString())
        .contains("0 of 1 python tests passed");
    assertThat(verdict(result)).isEqualTo("FAIL");
  }

  @Test
  void aDeclaredSkipOrTodoInNodeTestsCountsNeitherWay() {
    String tests =
        """
        const test = require('node:test');
        const assert = require('node:assert');
        const { sortNumbers } = require('./solution');

        test('sorts', () => { assert.deepStrictEqual(sortNumbers([2, 1]), [1, 2]); });
        test('keeps duplicates', { skip: 'the client has not decided yet' }, () => {});
        test.todo('sorts a million numbers in a second', () => { assert.fail('not yet'); });
        """;
    String correct = "exports.sortNumbers = (xs) => [...xs].sort((a, b) => a - b);\n";
    JsonNode good = standalone(correct, "javascript", "Sort numbers.", "javascript", tests);
    assertThat(dimension(good, "correctness").path("evidence").asText())
        .as(good.toString())
        .contains("1 of 1 javascript tests passed")
        .contains("2 tests skipped");
    assertThat(verdict(good)).isEqualTo("PASS");

    String undone = "exports.sortNumbers = (xs) => xs;\n";
    JsonNode bad = standalone(undone, "javascript", "Sort numbers.", "javascript", tests);
    assertThat(correctness(bad)).as(bad.toString()).isEqualByComparingTo("0");
    assertThat(verdict(bad)).isEqualTo("FAIL");
  }

  @Test
  void aDeliverableCannotReplaceNodesAssertions() {
    String tests =
        """
        const test = require('node:test');
        const assert = require('node:assert');
        const { sortNumbers } = require('./solution');

        test('sorts', () => { assert.deepStrictEqual(sortNumbers([2, 1]), [1, 2]); });
        test('sorts strictly', () => {
          assert.strict.deepStrictEqual(sortNumbers([3, 1, 2]), [1, 2, 3]);
        });
        """;
    String disarming =
        """
        const assert = require('node:assert');
        assert.deepStrictEqual = () => {};
        assert.strict.deepStrictEqual = () => {};
        exports.sortNumbers = (xs) => xs;
        """;
    JsonNode result = standalone(disarming, "javascript", "Sort numbers.", "javascript", tests);
    assertThat(correctness(result)).as(result.toString()).isEqualByComparingTo("0");
    assertThat(verdict(result)).isEqualTo("FAIL");
  }

  @Test
  void theSandboxsDevShmIsASmallCappedTmpfs() {
    String hoarder =
        """
        \"\"\"Sorting numbers, and a quarter of a gigabyte held outside every process.\"\"\"


        def sort_numbers(numbers):
            \"\"\"Returns the numbers in ascending order.\"\"\"
            with open("/dev/shm/hoard", "wb") as f:
                for _ in range(256):
                    f.write(b"x" * (1024 * 1024))
            return sorted(numbers)
        """;
    JsonNode result = standalone(hoarder, "python", REQUEST, "python", SORT_TESTS);
    // Every test's write stops at the cap (ENOSPC), so none passes.
    assertThat(correctness(result)).as(result.toString()).isEqualByComparingTo("0");
    assertThat(verdict(result)).isEqualTo("FAIL");
  }

  /** The code_generation agreement, with the client's sort tests, delivered as one file. */
  private JsonNode agreeDeliverAndVerify(String id, String code) throws InterruptedException {
    ObjectNode doc = CodeAgreementEndToEndTest.codeAgreement(id);
    ((ObjectNode) doc.path("quality_criteria").path("tests")).put("content", SORT_TESTS);
    AsaClient client = as("alice");
    AsaClient provider = as("bob");
    client.createAgreement(doc);
    client.sign(id, Role.CLIENT, Fixtures.key("alice"));
    provider.sign(id, Role.PROVIDER, Fixtures.key("bob"));
    client.fund(id);
    provider.deliver(id, code, "python");
    ObjectNode accepted = client.verify(id);
    JsonNode result =
        client.awaitVerification(
            accepted.path("verification_id").asText(), Duration.ofSeconds(90), p -> {});
    long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
    while (!client.agreement(id).path("state").asText().equals("CLOSED")) {
      assertThat(System.nanoTime()).as("closed within 30 s of verification").isLessThan(deadline);
      Thread.sleep(250);
    }
    return result;
  }

  @Test
  void anAgreementsSingleFileIsNamedAsItsTestsImportAndIsPaid() throws Exception {
    JsonNode result = agreeDeliverAndVerify("asa-code-single-file", SORT_CORRECT);
    assertThat(correctness(result)).as(result.toString()).isEqualByComparingTo("100");
    assertThat(verdict(result)).isEqualTo("PASS");
    assertThat(
            as("alice")
                .status("asa-code-single-file")
                .path("payment")
                .path("released_to_provider")
                .asText())
        .isEqualTo("10.00");
  }

  /**
   * The whitepaper's gate set names the tests {@code all_tests_pass}; when the server runs them,
   * its measurement answers that name as it answers {@code tests_pass} (it failed "not evaluated").
   */
  @Test
  void theWhitepapersAllTestsPassGateIsAnsweredByTheServersOwnRun() {
    ObjectNode r = Json.object();
    r.putObject("deliverable")
        .put("content", SORT_CORRECT)
        .put("format", "python")
        .put("type", "code");
    ObjectNode original = r.putObject("original_request").put("description", REQUEST);
    original.putObject("tests").put("language", "python").put("content", SORT_TESTS);
    r.putObject("verification_config").put("depth", "semantic");
    ObjectNode criteria = r.putObject("quality_criteria");
    ObjectNode correctness = criteria.putArray("dimensions").addObject();
    correctness.put("name", "correctness").put("weight", 1).put("metric", "percentage");
    correctness.putObject("slo").put("operator", "gte").put("value", 80);
    criteria.put("composite_threshold", 75);
    criteria
        .putArray("quality_gates")
        .addObject()
        .put("type", "boolean")
        .put("condition", "all_tests_pass");
    ObjectNode accepted = as("alice").requestVerification(r);
    JsonNode result =
        as("alice")
            .awaitVerification(
                accepted.path("verification_id").asText(), Duration.ofSeconds(90), p -> {});
    JsonNode gate = result.path("quality_gates").get(0);
    assertThat(gate.path("condition").asText()).as(result.toString()).isEqualTo("all_tests_pass");
    assertThat(gate.path("passed").asBoolean()).as(result.toString()).isTrue();
    assertThat(verdict(result)).isEqualTo("PASS");
  }

  @Test
  void anAgreementsSkipTestForgeryIsPaidNothing() throws Exception {
    JsonNode result = agreeDeliverAndVerify("asa-code-skiptest", SORT_SKIPS);
    assertThat(testsPassGate(result)).as(result.toString()).isFalse();
    assertThat(verdict(result)).isEqualTo("FAIL");
    assertThat(
            as("alice")
                .status("asa-code-skiptest")
                .path("payment")
                .path("released_to_provider")
                .asText())
        .isEqualTo("0.00");
  }
}
