package dev.asa.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.asa.json.Json;
import dev.asa.shadow.ExpectedJson;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** {@code asa shadow score} against the public conformance fixtures and the spec's CLI contract. */
class ShadowCommandTest {

  /**
   * The shared conformance file, copied into asa-core's test resources (on this classpath via its
   * test-jar).
   */
  private static final String FIXTURES = "/dev/asa/shadow/shadow-score-fixtures.json";

  @TempDir Path dir;

  record Result(int status, String out, String err) {
    JsonNode json() throws IOException {
      return Json.parse(out);
    }
  }

  private static Result run(String... args) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    int status =
        new Main(Map.of())
            .run(
                args,
                new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8));
    return new Result(
        status, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
  }

  private Path write(String name, String text) throws IOException {
    return Files.writeString(dir.resolve(name), text);
  }

  private Path write(String name, JsonNode json) throws IOException {
    return write(name, Json.write(json));
  }

  /** A suite of {@code total} tests of which the first {@code failed} fail. */
  private Path suite(String name, int failed, int total) throws IOException {
    ObjectNode root = Json.object();
    ArrayNode tests = root.putArray("tests");
    for (int i = 0; i < total; i++) {
      ObjectNode t =
          tests
              .addObject()
              .put("name", "test_" + i)
              .put("status", i < failed ? "failed" : "passed")
              .put("category", "edge_case");
      if (i < failed) {
        t.put("expected", "x").put("actual", "y").put("message", "failure " + i);
      }
    }
    return write(name, root);
  }

  private static JsonNode fixtures() throws IOException {
    try (InputStream in = ShadowCommandTest.class.getResourceAsStream(FIXTURES)) {
      assertThat(in).as(FIXTURES + " on the test classpath").isNotNull();
      return Json.parse(in.readAllBytes());
    }
  }

  @TestFactory
  Stream<DynamicTest> everyConformanceFixturePassesThroughTheCli() throws IOException {
    JsonNode fixtures = fixtures().path("fixtures");
    assertThat(fixtures.size()).isGreaterThan(0);
    List<DynamicTest> tests = new ArrayList<>();
    for (JsonNode fixture : fixtures) {
      String id = fixture.path("id").asText();
      tests.add(
          DynamicTest.dynamicTest(
              id,
              () -> {
                List<String> args =
                    new ArrayList<>(
                        List.of(
                            "shadow",
                            "score",
                            "--sealed",
                            write(id + "-sealed.json", fixture.path("input").path("sealed_inline"))
                                .toString()));
                JsonNode open = fixture.path("input").path("open_inline");
                if (!open.isMissingNode()) {
                  args.addAll(List.of("--open", write(id + "-open.json", open).toString()));
                }
                JsonNode threshold = fixture.path("input").path("threshold");
                if (!threshold.isMissingNode()) {
                  args.addAll(List.of("--threshold", threshold.asText()));
                }

                Result r = run(args.toArray(String[]::new));

                assertThat(r.status())
                    .as(r.err())
                    .isEqualTo(fixture.path("expected_exit_code").asInt());
                assertThat(r.err()).isEmpty();
                assertThat(ExpectedJson.differences(fixture.path("expected_output"), r.json()))
                    .isEmpty();
                args.addAll(List.of("--format", "summary"));
                assertThat(run(args.toArray(String[]::new)).status())
                    .isEqualTo(fixture.path("expected_exit_code").asInt());
              }));
    }
    return tests.stream();
  }

  /** The header's threshold_cases: the reported score must be strictly above the threshold. */
  @ParameterizedTest(name = "{0} of {1} with --threshold {2} -> {3}")
  @CsvSource({
    "1, 9, 15, 0",
    "1, 9, 10, 1",
    "1, 9, 11.1, 0",
    "3, 5, 0, 1",
    "0, 5, 0, 0",
    "0, 0, 0, 0",
    // the reported (rounded) score is compared: 17/113 is shown as 15.0, which does not exceed 15
    "17, 113, 15, 0",
  })
  void exitsOneOnlyWhenTheReportedScoreIsAboveTheThreshold(
      int failed, int total, String threshold, int exit) throws IOException {
    String sealed = suite("sealed.json", failed, total).toString();

    assertThat(run("shadow", "score", "--sealed", sealed, "--threshold", threshold).status())
        .isEqualTo(exit);
    assertThat(
            run(
                    "shadow",
                    "score",
                    "--sealed",
                    sealed,
                    "--threshold",
                    threshold,
                    "--format",
                    "summary")
                .status())
        .isEqualTo(exit);
  }

  @Test
  void theThresholdCasesAreTheOnesTheFixtureFileStates() throws IOException {
    assertThat(fixtures().path("threshold_cases").asText())
        .contains(
            "--threshold 15 -> exit 0",
            "--threshold 10 -> exit 1",
            "--threshold 11.1 -> exit 0",
            "a 60.0 suite with --threshold 0 -> exit 1",
            "a 0.0 suite with --threshold 0 -> exit 0");
    assertThat(
            run("shadow", "score", "--sealed", suite("s.json", 1, 9).toString())
                .json()
                .path("report")
                .path("shadow_score")
                .toString())
        .isEqualTo("11.1");
  }

  @Test
  void anOpenSuiteAddsOpenTestsAndTheCoverageComparison() throws IOException {
    Path sealed = suite("sealed.json", 1, 4);
    Path open =
        write(
            "open.json",
            """
            {"tests": [{"name": "o1", "status": "passed", "category": "happy_path"}, {"name": "o2", "status": "failed", "category": "edge_case"}]}\
            """);

    Result r = run("shadow", "score", "--sealed", sealed.toString(), "--open", open.toString());

    assertThat(r.status()).isZero();
    assertThat(Json.write(r.json().path("open_tests")))
        .isEqualTo("{\"total\":2,\"passed\":1,\"failed\":1}");
    assertThat(Json.write(r.json().path("coverage_comparison").path("edge_case")))
        .isEqualTo("{\"sealed\":4,\"open\":1,\"delta\":3}");
  }

  @Test
  void theSummaryIsAFewLinesForAPerson() throws IOException {
    Result r =
        run(
            "shadow",
            "score",
            "--sealed",
            suite("sealed.json", 1, 8).toString(),
            "--format",
            "summary");

    assertThat(r.status()).isZero();
    assertThat(r.out())
        .isEqualTo(
            """
            Shadow Score: 12.5% (minor)
            Sealed: 7/8 passed

            Failures (1):
              test_0 [edge_case]: failure 0
            """);
  }

  @Test
  void anEmptySuiteIsReportedAsAdvisory() throws IOException {
    Result r =
        run("shadow", "score", "--sealed", write("empty.json", "{\"tests\": []}").toString());

    assertThat(r.status()).isZero();
    assertThat(r.json().path("report").path("advisory").booleanValue()).isTrue();
    assertThat(r.json().path("report").path("advisory_reason").asText())
        .startsWith("nothing was sealed");
    assertThat(
            run(
                    "shadow",
                    "score",
                    "--sealed",
                    dir.resolve("empty.json").toString(),
                    "--format",
                    "summary")
                .out())
        .contains("Advisory: nothing was sealed");
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource(
      delimiter = '|',
      textBlock =
          """
          not JSON              | {"tests": [                                   | not valid JSON
          not the input format  | {"results": []}                               | missing "tests"
          a test without status | {"tests": [{"name": "a"}]}                    | tests[0].status is missing
          an unknown status     | {"tests": [{"name": "a", "status": "ok"}]}    | is not one of passed, failed, error, skipped
          """)
  void unusableInputExitsTwoWithTheReasonOnStderr(String why, String content, String message)
      throws IOException {
    Path sealed = write("sealed.json", content);

    Result r = run("shadow", "score", "--sealed", sealed.toString(), "--threshold", "50");

    assertThat(r.status()).as(why).isEqualTo(2);
    assertThat(r.out()).isEmpty();
    assertThat(r.err()).startsWith("asa shadow score: --sealed " + sealed + ": ").contains(message);
  }

  @Test
  void aMissingOrUnreadableFileExitsTwoToo() throws IOException {
    Result missing = run("shadow", "score", "--sealed", dir.resolve("nope.json").toString());
    Result directory = run("shadow", "score", "--sealed", dir.toString());
    Result badOpen =
        run(
            "shadow",
            "score",
            "--sealed",
            suite("s.json", 0, 1).toString(),
            "--open",
            write("o.json", "[]").toString());

    assertThat(missing.status()).isEqualTo(2);
    assertThat(missing.err())
        .isEqualTo("asa shadow score: --sealed: no such file: " + dir.resolve("nope.json") + "\n");
    assertThat(directory.status()).isEqualTo(2);
    assertThat(directory.err()).startsWith("asa shadow score: --sealed");
    assertThat(badOpen.status()).isEqualTo(2);
    assertThat(badOpen.err()).contains("--open").contains("expected an object");
    assertThat(badOpen.out()).isEmpty();
  }

  @Test
  void commandLineMistakesAreUsageErrors() throws IOException {
    String sealed = suite("s.json", 0, 1).toString();

    Result noSealed = run("shadow", "score");
    Result badThreshold = run("shadow", "score", "--sealed", sealed, "--threshold", "lots");
    Result negative = run("shadow", "score", "--sealed", sealed, "--threshold", "-1");
    Result badFormat = run("shadow", "score", "--sealed", sealed, "--format", "xml");

    assertThat(noSealed.status()).isEqualTo(2);
    assertThat(noSealed.err()).startsWith("asa shadow score: missing --sealed FILE\n");
    assertThat(badThreshold.status()).isEqualTo(2);
    assertThat(badThreshold.err())
        .startsWith("asa shadow score: --threshold must be a number from 0 to 100, not 'lots'");
    assertThat(negative.status()).isEqualTo(2);
    assertThat(badFormat.status()).isEqualTo(2);
    assertThat(badFormat.err())
        .startsWith("asa shadow score: --format must be json or summary, not 'xml'");
  }

  @Test
  void theCommandIsListedAndExplained() {
    assertThat(run("--help").out()).contains("shadow score");
    Result help = run("shadow", "score", "--help");
    assertThat(help.status()).isZero();
    assertThat(help.out())
        .startsWith(
            "usage: asa shadow score --sealed FILE [--open FILE] [--threshold N] [--format json|summary]");
    assertThat(run("shadow").err()).contains("shadow score");
  }
}
