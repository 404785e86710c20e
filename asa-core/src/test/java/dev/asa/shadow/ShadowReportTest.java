package dev.asa.shadow;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.networknt.schema.Error;
import com.networknt.schema.Schema;
import com.networknt.schema.SchemaLocation;
import com.networknt.schema.SchemaRegistry;
import com.networknt.schema.SpecificationVersion;
import dev.asa.json.Json;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

class ShadowReportTest {

  private static final Schema SCHEMA = schema();

  static String resource(String name) {
    try (InputStream in = ShadowReportTest.class.getResourceAsStream(name)) {
      if (in == null) {
        throw new IllegalStateException("missing test resource " + name);
      }
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new IllegalStateException(e);
    }
  }

  private static Schema schema() {
    JsonNode raw = Json.parseTrusted(resource("shadow-report.schema.json"));
    SchemaRegistry registry =
        SchemaRegistry.withDefaultDialect(
            SpecificationVersion.DRAFT_2020_12,
            b -> b.schemaLoader(l -> l.fetchRemoteResources(false)));
    return registry.getSchema(SchemaLocation.of(raw.path("$id").asText()), raw);
  }

  private static List<String> violations(JsonNode report) {
    List<String> out = new ArrayList<>();
    for (Error e : SCHEMA.validate(report)) {
      out.add(e.toString());
    }
    return out;
  }

  @Test
  void writesTheSpecFormatWithEveryFailure() {
    TestSuite sealed =
        TestSuite.of(
            TestResult.passed("sc-01", Category.HAPPY_PATH),
            TestResult.failed(
                "sc-07",
                Category.EDGE_CASE,
                "handles empty input",
                "no handling",
                "Edge case for empty input not addressed"),
            TestResult.passed("sc-08", Category.ERROR_HANDLING),
            TestResult.failed(
                "sc-09",
                Category.COMPLETENESS,
                "status codes",
                "strings only",
                "Error format missing status codes"),
            TestResult.passed("sc-10", Category.SECURITY));

    ObjectNode json = ShadowReport.of(sealed).withSealedHash("sha256:abc").toJson();

    assertThat(Json.write(json))
        .isEqualTo(
            """
            {"shadow_score_spec_version":"2.0.0",\
            "report":{"shadow_score":40.0,"level":"significant","sealed_hash":"sha256:abc"},\
            "sealed_tests":{"total":5,"passed":3,"failed":2},\
            "failures":[\
            {"test_name":"sc-07","category":"edge_case","expected":"handles empty input","actual":"no handling","message":"Edge case for empty input not addressed"},\
            {"test_name":"sc-09","category":"unknown","expected":"status codes","actual":"strings only","message":"Error format missing status codes"}]}\
            """);
    assertThat(violations(json)).isEmpty();
  }

  @Test
  void anOpenSuiteAddsItsCountsAndTheCoverageComparison() {
    TestSuite sealed =
        TestSuite.of(
            TestResult.passed("s1", Category.HAPPY_PATH),
            TestResult.failed("s2", Category.EDGE_CASE, "", "", "m"),
            TestResult.passed("s3", Category.SECURITY),
            TestResult.passed("s4", Category.COMPLETENESS));
    TestSuite open =
        TestSuite.of(
            TestResult.passed("o1", Category.HAPPY_PATH),
            TestResult.passed("o2", Category.HAPPY_PATH),
            new TestResult("o3", Status.FAILED, Category.ERROR_HANDLING, null, null, null));

    ObjectNode json = ShadowReport.of(sealed).withOpen(open).toJson();

    assertThat(Json.write(json.get("open_tests")))
        .isEqualTo("{\"total\":3,\"passed\":2,\"failed\":1}");
    assertThat(Json.write(json.get("coverage_comparison")))
        .isEqualTo(
            """
            {"happy_path":{"sealed":1,"open":2,"delta":-1},\
            "edge_case":{"sealed":1,"open":0,"delta":1},\
            "error_handling":{"sealed":0,"open":1,"delta":-1},\
            "security":{"sealed":1,"open":0,"delta":1}}\
            """);
    assertThat(json.path("report").path("shadow_score").decimalValue())
        .isEqualByComparingTo("25.0");
    assertThat(violations(json)).isEmpty();
  }

  @Test
  void anEmptySuiteIsReportedAsAdvisory() {
    ObjectNode json = ShadowReport.of(TestSuite.of()).toJson();

    assertThat(json.path("report").path("advisory").booleanValue()).isTrue();
    assertThat(json.path("report").path("advisory_reason").asText())
        .startsWith("nothing was sealed");
    assertThat(json.path("report").path("shadow_score").toString()).isEqualTo("0.0");
    assertThat(json.path("report").path("level").asText()).isEqualTo("perfect");
    assertThat(violations(json)).isEmpty();
  }

  @Test
  void anyReasonMakesTheScoreAdvisoryAndAnAuthoritativeReportSaysNothingAboutIt() {
    TestSuite sealed = TestSuite.of(TestResult.passed("a", Category.HAPPY_PATH));

    assertThat(ShadowReport.of(sealed).toJson().path("report").has("advisory")).isFalse();
    JsonNode advisory =
        ShadowReport.of(sealed)
            .advisory("seal author and implementer share a model family")
            .toJson();
    assertThat(advisory.path("report").path("advisory_reason").asText())
        .isEqualTo("seal author and implementer share a model family");
    assertThat(violations(advisory)).isEmpty();
  }

  @Test
  void theSchemaCatchesWhatItShould() {
    ObjectNode json =
        ShadowReport.of(TestSuite.of(TestResult.failed("a", Category.COMPLETENESS, "", "", "m")))
            .toJson();
    ((ObjectNode) json.path("failures").get(0)).put("category", "completeness");
    ((ObjectNode) json.path("report")).put("advisory", true);

    assertThat(violations(json)).hasSize(2);
  }

  @Test
  void theSummaryNamesScoreCountsAndFailureMessagesOnly() {
    TestSuite sealed =
        TestSuite.of(
            TestResult.passed("t1", Category.HAPPY_PATH),
            TestResult.failed(
                "t2",
                Category.EDGE_CASE,
                "secret expectation",
                "x",
                "empty input\u001b[2J not handled"),
            new TestResult("t3", Status.ERROR, Category.SECURITY, null, null, null));

    String summary =
        ShadowReport.of(sealed)
            .withOpen(TestSuite.of(TestResult.passed("o", Category.HAPPY_PATH)))
            .summary();

    assertThat(summary)
        .isEqualTo(
            """
            Shadow Score: 66.7% (critical)
            Sealed: 1/3 passed
            Open:   1/1 passed

            Failures (2):
              t2 [edge_case]: empty input?[2J not handled
              t3 [security] (error): (no message)
            """);
  }

  /**
   * Every public conformance fixture, straight through the core (the CLI test does it end to end).
   */
  @TestFactory
  Stream<DynamicTest> conformanceFixtures() {
    JsonNode file = Json.parseTrusted(resource("shadow-score-fixtures.json"));
    assertThat(file.path("fixtures").size()).isGreaterThan(0);
    List<DynamicTest> tests = new ArrayList<>();
    for (JsonNode fixture : file.path("fixtures")) {
      tests.add(
          DynamicTest.dynamicTest(
              fixture.path("id").asText(),
              () -> {
                TestSuite sealed = TestSuite.parse(fixture.path("input").path("sealed_inline"));
                ShadowReport report = ShadowReport.of(sealed);
                JsonNode open = fixture.path("input").path("open_inline");
                if (!open.isMissingNode()) {
                  report = report.withOpen(TestSuite.parse(open));
                }
                ObjectNode json = report.toJson();
                assertThat(ExpectedJson.differences(fixture.path("expected_output"), json))
                    .isEmpty();
                assertThat(violations(json)).isEmpty();
              }));
    }
    return tests.stream();
  }
}
