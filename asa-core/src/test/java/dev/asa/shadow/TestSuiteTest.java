package dev.asa.shadow;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class TestSuiteTest {

  private static TestSuite parse(String json) throws UnusableTestResultsException {
    return TestSuite.parse(json.getBytes(StandardCharsets.UTF_8));
  }

  @Test
  void readsEveryMemberAndDefaultsTheOptionalOnes() throws Exception {
    TestSuite suite =
        parse(
            """
            {"tests": [
              {"name": "t1", "status": "passed", "category": "happy_path", "duration_ms": 4},
              {"name": "t2", "status": "failed", "category": "completeness", "expected": "e", "actual": "a", "message": "m"},
              {"name": "t3", "status": "failed", "expected": null}
            ]}\
            """);

    assertThat(suite.tests())
        .containsExactly(
            TestResult.passed("t1", Category.HAPPY_PATH),
            TestResult.failed("t2", Category.COMPLETENESS, "e", "a", "m"),
            TestResult.failed("t3", Category.UNKNOWN, "", "", ""));
    assertThat(suite.total()).isEqualTo(3);
    assertThat(suite.failed()).isEqualTo(2);
  }

  @Test
  void errorsAndSkipsCountAgainstTheImplementation() throws Exception {
    TestSuite suite =
        parse(
            """
            {"tests": [{"name": "a", "status": "error"}, {"name": "b", "status": "skipped"}, {"name": "c", "status": "passed"}]}\
            """);

    assertThat(suite.failed()).isEqualTo(2);
    assertThat(suite.passed()).isEqualTo(1);
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource(
      delimiter = '|',
      textBlock =
          """
          not JSON                    | {"tests": [                                                  | not valid JSON
          trailing garbage            | {"tests": []} x                                              | not valid JSON
          duplicate member            | {"tests": [], "tests": []}                                   | not valid JSON
          an array at the top         | []                                                           | expected an object {"tests": [...]}, found an array
          no tests member             | {"results": []}                                              | missing "tests"
          tests not an array          | {"tests": {}}                                                | "tests" must be an array, found an object
          a test that is a string     | {"tests": ["t1"]}                                            | tests[0] must be an object, found a string
          no name                     | {"tests": [{"status": "passed"}]}                            | tests[0].name is missing or empty
          blank name                  | {"tests": [{"name": " ", "status": "passed"}]}               | tests[0].name is missing or empty
          numeric name                | {"tests": [{"name": 1, "status": "passed"}]}                 | tests[0].name must be a string, found a number
          no status                   | {"tests": [{"name": "a"}]}                                   | tests[0].status is missing
          unknown status              | {"tests": [{"name": "a", "status": "PASS"}]}                 | is not one of passed, failed, error, skipped
          unknown category            | {"tests": [{"name": "a", "status": "passed", "category": "perf"}]} | is not one of happy_path, edge_case
          message not text            | {"tests": [{"name": "a", "status": "failed", "message": ["x"]}]}  | tests[0].message must be a string, found an array
          duplicate names             | {"tests": [{"name": "a", "status": "passed"}, {"name": "a", "status": "failed"}]} | appears more than once
          """)
  void refusesUnusableInputNamingWhatIsWrong(String why, String json, String message) {
    assertThatThrownBy(() -> parse(json))
        .as(why)
        .isInstanceOf(UnusableTestResultsException.class)
        .hasMessageContaining(message);
  }

  @Test
  void refusesBytesThatAreNotUtf8() {
    byte[] latin1 =
        "{\"tests\": [{\"name\": \"caf\u00e9\", \"status\": \"passed\"}]}"
            .getBytes(StandardCharsets.ISO_8859_1);

    assertThatThrownBy(() -> TestSuite.parse(latin1))
        .isInstanceOf(UnusableTestResultsException.class)
        .hasMessageStartingWith("not valid JSON");
  }
}
