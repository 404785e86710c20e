package dev.asa.evaluators;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import com.fasterxml.jackson.databind.JsonNode;
import dev.asa.agreement.CompositeMethod;
import dev.asa.agreement.Dimension;
import dev.asa.agreement.MetricType;
import dev.asa.agreement.QualityCriteria;
import dev.asa.agreement.QualityGate;
import dev.asa.agreement.Service;
import dev.asa.agreement.Slo;
import dev.asa.agreement.SloOperator;
import dev.asa.json.Json;
import dev.asa.scoring.CheckResult;
import dev.asa.scoring.DimensionInput;
import dev.asa.scoring.IncompleteScoresException;
import dev.asa.scoring.Scorecard;
import dev.asa.scoring.Scorer;
import java.math.BigDecimal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class StructuralEvaluatorTest {

  private static final Instant DEADLINE = Instant.parse("2026-03-26T15:00:00Z");
  private static final StructuralEvaluator EVALUATOR = new StructuralEvaluator();

  // ------------------------------------------------------------------ fixtures

  private static Dimension dimension(String name, String weight, MetricType metric) {
    Slo slo =
        metric == MetricType.BOOLEAN
            ? new Slo(SloOperator.EQ, new Slo.Target.Flag(true))
            : new Slo(SloOperator.GTE, new Slo.Target.Number(new BigDecimal("80")));
    return new Dimension(name, new BigDecimal(weight), metric, slo, null, null, null);
  }

  private static QualityCriteria criteria(
      JsonNode schema, List<String> sections, Dimension... dims) {
    return new QualityCriteria(
        Arrays.asList(dims),
        new BigDecimal("75"),
        CompositeMethod.WEIGHTED_AVERAGE,
        QualityCriteria.GuaranteeType.DETERMINISTIC,
        List.of(),
        QualityGate.Logic.ALL_MUST_PASS,
        schema,
        sections);
  }

  private static QualityCriteria structuralOnly() {
    return criteria(
        null,
        List.of(),
        dimension("format_compliance", "0.5", MetricType.PERCENTAGE),
        dimension("timeliness", "0.5", MetricType.BOOLEAN));
  }

  private static Deliverable deliverable(String content, String format) {
    return Deliverable.of(content, format, DEADLINE.minusSeconds(847));
  }

  private static CheckResult formatValid(String content, String format) {
    return EVALUATOR
        .evaluate(deliverable(content, format), structuralOnly(), null, null)
        .checks()
        .get("format_valid");
  }

  private static StructuralReport evaluate(Deliverable d, QualityCriteria c, Long maxTokens) {
    return EVALUATOR.evaluate(d, c, new Service.Constraints(maxTokens, null, null), DEADLINE);
  }

  // ------------------------------------------------------------------ format_valid

  @Nested
  class JsonFormat {
    @Test
    void validJson() {
      CheckResult r = formatValid("{\"title\": \"FL privacy\", \"papers\": [1, 2]}", "json");
      assertThat(r.passed()).isTrue();
      assertThat(r.evidence()).isEqualTo("valid JSON (an object with 2 members)");
    }

    @Test
    void malformedJsonSaysWhereItBreaks() {
      CheckResult r = formatValid("{\n  \"title\": \"x\",\n}", "json");
      assertThat(r.passed()).isFalse();
      assertThat(r.evidence()).startsWith("not valid JSON: ").contains("line 3");
    }

    @Test
    void duplicateKeysAndTrailingGarbageAreRefusedByTheStrictMapper() {
      assertThat(formatValid("{\"a\": 1, \"a\": 2}", "json").passed()).isFalse();
      assertThat(formatValid("{\"a\": 1} {\"b\": 2}", "json").passed()).isFalse();
    }
  }

  @Nested
  class CsvFormat {
    @Test
    void validCsvWithQuotedCommasQuotesAndLineBreaks() {
      String csv =
          "name,notes,score\r\n\"Smith, J.\",\"said \"\"hi\"\"\",88\r\nLee,\"two\nlines\",91\r\n";
      CheckResult r = formatValid(csv, "csv");
      assertThat(r.passed()).as(r.evidence()).isTrue();
      assertThat(r.evidence())
          .isEqualTo("valid CSV: a header of 3 columns and 2 data rows of the same width");
    }

    @Test
    void aRowOfTheWrongWidthIsNamedByLine() {
      CheckResult r = formatValid("a,b,c\n1,2,3\n4,5\n", "csv");
      assertThat(r.passed()).isFalse();
      assertThat(r.evidence())
          .isEqualTo("not valid CSV: the row on line 3 has 2 fields, the header has 3");
    }

    @Test
    void anUnclosedQuoteIsRefused() {
      CheckResult r = formatValid("a,b\n1,\"open\n2,3\n", "csv");
      assertThat(r.passed()).isFalse();
      assertThat(r.evidence())
          .isEqualTo("not valid CSV: the quoted field opened on line 2 is never closed");
    }

    @Test
    void aStrayQuoteIsRefused() {
      assertThat(formatValid("a,b\n1,x\"y\n", "csv").evidence())
          .contains("quote inside an unquoted field");
      assertThat(formatValid("a,b\n\"x\"y,1\n", "csv").evidence())
          .contains("follows a closing quote");
    }

    @Test
    void aHeaderAloneIsNotEnough() {
      CheckResult r = formatValid("a,b,c\n", "csv");
      assertThat(r.passed()).isFalse();
      assertThat(r.evidence()).isEqualTo("not valid CSV: a header of 3 columns but no data rows");
    }

    @Test
    void blankLinesAreSkippedAndEmptyFieldsCount() {
      assertThat(formatValid("a,b\n\n1,\n,2\n\n", "csv").passed()).isTrue();
    }
  }

  @Nested
  class XmlFormat {
    @Test
    void wellFormedXml() {
      CheckResult r =
          formatValid("<?xml version=\"1.0\"?><catalog><book id=\"1\">FL</book></catalog>", "xml");
      assertThat(r.passed()).isTrue();
      assertThat(r.evidence()).isEqualTo("well-formed XML (root element <catalog>)");
    }

    @Test
    void malformedXmlSaysWhere() {
      CheckResult r = formatValid("<catalog>\n<book></catalog>", "xml");
      assertThat(r.passed()).isFalse();
      assertThat(r.evidence()).startsWith("not well-formed XML: line 2");
    }

    @Test
    void anExternalEntityIsRefusedAndNothingIsRead(@TempDir Path dir) throws Exception {
      Path secret = dir.resolve("secret.txt");
      Files.writeString(secret, "TOP-SECRET");
      String xxe =
          "<?xml version=\"1.0\"?>\n<!DOCTYPE r [<!ENTITY x SYSTEM \""
              + secret.toUri()
              + "\">]>\n<r>&x;</r>";
      CheckResult r = formatValid(xxe, "xml");
      assertThat(r.passed()).isFalse();
      assertThat(r.evidence())
          .contains("DOCTYPE")
          .contains("external entities")
          .doesNotContain("TOP-SECRET");
    }

    @Test
    void anEntityExpansionBombIsRefused() {
      String bomb =
          "<?xml version=\"1.0\"?><!DOCTYPE lolz [<!ENTITY lol \"lol\">"
              + "<!ENTITY lol2 \"&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;\">]><lolz>&lol2;</lolz>";
      assertThat(formatValid(bomb, "xml").passed()).isFalse();
    }
  }

  @Nested
  class CodeFormat {
    @Test
    void balancedCodeWithBracketsInsideStringsAndComments() {
      String java =
          """
          class A {
            // a stray ) in a comment, and don't be fooled by the apostrophe
            String s = "unbalanced ( in a string";
            char c = '}';
            /* 1) first
               2) second */
            int[] xs = {1, 2, (3)};
          }
          """;
      CheckResult r = formatValid(java, "code");
      assertThat(r.passed()).as(r.evidence()).isTrue();
      assertThat(r.evidence()).contains("// and /* */ as comments");
    }

    @Test
    void aLanguageFormatIsCheckedAsCode() {
      assertThat(formatValid("def f(:\n    return [1\n", "python").passed()).isFalse();
      CheckResult r = formatValid("def f(x):\n    return [x]\n", "python");
      assertThat(r.passed()).as(r.evidence()).isTrue();
      assertThat(formatValid("{\"files\": {\"a.py\": \"x = (1)\"}}", "python").passed()).isTrue();
    }

    @Test
    void pythonFloorDivisionAndHashCommentsPass() {
      String python =
          """
          def mid(lo, hi):
              # returns the midpoint (rounded down
              return (lo + hi) // 2 if f(hi // 2) else [lo]
          doc = \"\"\"a docstring with a ( that
          spans lines\"\"\"
          """;
      CheckResult r = formatValid(python, "code");
      assertThat(r.passed()).as(r.evidence()).isTrue();
    }

    @Test
    void anUnclosedBraceIsReported() {
      CheckResult r = formatValid("function f() {\n  return [1, 2];\n", "code");
      assertThat(r.passed()).isFalse();
      assertThat(r.evidence())
          .isEqualTo("brackets do not balance: '{' opened on line 1, column 14 is never closed");
    }

    @Test
    void aMismatchedCloserIsReported() {
      CheckResult r = formatValid("f(a[1)];", "code");
      assertThat(r.passed()).isFalse();
      assertThat(r.evidence())
          .isEqualTo(
              "brackets do not balance: ')' on line 1, column 6 closes '[' opened on line 1, column 4");
    }

    @Test
    void rustLifetimesAreNotTakenForLiterals() {
      assertThat(formatValid("fn f<'a>(x: &'a str) -> &'a str { x }", "code").passed()).isTrue();
    }

    @Test
    void adversarialQuotesAreScannedInLinearTime() {
      String quotes =
          "'\\".repeat(300_000) + "\n" + "`\\".repeat(300_000) + "\n" + "(".repeat(10) + "\"\"\"";
      assertTimeoutPreemptively(
          Duration.ofSeconds(5), () -> assertThat(formatValid(quotes, "code").passed()).isFalse());
    }

    @Test
    void aStrayCloserIsReported() {
      assertThat(formatValid("x = 1)\n", "code").evidence())
          .isEqualTo("brackets do not balance: ')' on line 1, column 6 has no matching opener");
    }
  }

  @Nested
  class OtherFormats {
    @Test
    void htmlNeedsATag() {
      assertThat(formatValid("<p>Hello <b>world</b></p>", "html").evidence())
          .isEqualTo("HTML that is not blank and contains markup (first tag <p>)");
      CheckResult plain = formatValid("just words, 3 < 4 > 2", "html");
      assertThat(plain.passed()).isFalse();
      assertThat(plain.evidence()).isEqualTo("declared as html but contains no HTML tag");
    }

    /**
     * Reading the first 64 KiB alone gives the answer the whole text gives, whichever side of the
     * cut the first tag falls, a tag cut in two included (seeded; the seed is printed).
     */
    @Test
    void htmlReadFromItsFirstPartAnswersAsTheWholeText() {
      long seed = Long.getLong("asa.test.seed", System.nanoTime());
      System.out.println("htmlReadFromItsFirstPartAnswersAsTheWholeText seed " + seed);
      java.util.SplittableRandom random = new java.util.SplittableRandom(seed);
      String[] pieces = {
        "<b>",
        "</b>",
        "<div class=\"a>b\">",
        "<!-- ",
        " -->",
        "<script>",
        "</script>",
        "words ",
        "<",
        ">",
        "&amp;",
        "<a",
        "\n",
        "<p/>",
        "<!DOCTYPE html>",
        "<textarea>",
        "</textarea>",
        "<" + "x".repeat(70),
        "<i title=\"" + "y".repeat(300) + "\">"
      };
      for (int run = 0; run < 60; run++) {
        StringBuilder text = new StringBuilder();
        if (random.nextInt(4) == 0) {
          text.append(pieces[random.nextInt(pieces.length)]); // sometimes a comment or script opens
        }
        int plain = Formats.HTML_PREFIX - 400 + random.nextInt(800);
        while (text.length() < plain) {
          text.append("plain words 3 < 4 ");
        }
        while (text.length() < Formats.HTML_PREFIX + 2_000) {
          text.append(pieces[random.nextInt(pieces.length)]);
        }
        String content = text.toString();
        String expected =
            Formats.firstTag(content)
                .map(tag ->
                    "HTML that is not blank and contains markup (first tag "
                        + content.substring(tag.startPos(), tag.endPos())
                        + ")")
                .orElse("declared as html but contains no HTML tag");
        assertThat(formatValid(content, "html").evidence())
            .as("run %d of seed %d", run, seed)
            .isEqualTo(expected);
      }
    }

    @Test
    void htmlIsReadAsABrowserReadsIt() {
      // A comment, a doctype and a tag never finished are no element; the first element written is
      // quoted as written, a '>' inside a quoted value and all.
      for (String none : new String[] {"<!-- <p>a comment</p> -->", "<!DOCTYPE html>", "x <b"}) {
        assertThat(formatValid(none, "html").passed()).as(none).isFalse();
      }
      assertThat(formatValid("Text <a title=\"x > y\">link</a>", "html").evidence())
          .isEqualTo("HTML that is not blank and contains markup (first tag <a title=\"x > y\">)");
    }

    @ParameterizedTest
    @ValueSource(
        strings = {"markdown", "text", "yaml", "other", "json", "csv", "xml", "code", "html"})
    void blankIsInvalidInEveryFormat(String format) {
      CheckResult r = formatValid(" \n\t ", format);
      assertThat(r.passed()).isFalse();
      assertThat(r.evidence()).isEqualTo("the deliverable is blank");
    }

    @Test
    void textFormatsOnlyNeedContent() {
      assertThat(formatValid("# Title\nBody", "markdown").evidence())
          .isEqualTo("markdown that is not blank (12 characters)");
      assertThat(formatValid("key: value", "yaml").evidence())
          .isEqualTo(
              "format yaml: not blank (10 characters); the structural evaluator has no further check for it");
      assertThat(formatValid("anything", null).evidence())
          .startsWith("no format declared: not blank");
      assertThat(formatValid("anything", "pdf").evidence())
          .startsWith("unknown format 'pdf': not blank");
      assertThat(formatValid("{}", "JSON").evidence())
          .isEqualTo("valid JSON (an object with 0 members)");
    }
  }

  // ------------------------------------------------------------------ schema_valid

  @Nested
  class SchemaValid {
    private final JsonNode schema =
        Json.parseTrusted(
            """
            {"type": "object", "required": ["title", "papers"],
             "properties": {"title": {"type": "string", "minLength": 3},
                            "papers": {"type": "array", "items": {"type": "integer"}}}}
            """);

    private CheckResult schemaValid(String content) {
      QualityCriteria c =
          criteria(schema, List.of(), dimension("format_compliance", "1", MetricType.PERCENTAGE));
      return evaluate(deliverable(content, "json"), c, null).checks().get("schema_valid");
    }

    @Test
    void aConformingDeliverablePasses() {
      CheckResult r = schemaValid("{\"title\": \"FL privacy\", \"papers\": [1, 2]}");
      assertThat(r.passed()).isTrue();
      assertThat(r.evidence()).isEqualTo("the deliverable satisfies the deliverable schema");
    }

    @Test
    void violationsAreListedWithTheirPaths() {
      CheckResult r = schemaValid("{\"title\": \"FL\", \"papers\": [1, \"two\"]}");
      assertThat(r.passed()).isFalse();
      assertThat(r.evidence())
          .startsWith("2 schema violations: ")
          .contains("/title: ")
          .contains("/papers/1: ");
    }

    @Test
    void aMissingMemberIsPointedAtWhereItBelongs() {
      assertThat(schemaValid("{\"title\": \"FL privacy\"}").evidence())
          .isEqualTo("1 schema violation: /papers: required property 'papers' not found");
    }

    @Test
    void atMostFiveErrorsAreShown() {
      CheckResult r =
          schemaValid(
              "{\"title\": \"FL privacy\", \"papers\": [\"a\", \"b\", \"c\", \"d\", \"e\", \"f\", \"g\"]}");
      assertThat(r.evidence()).startsWith("7 schema violations: ").endsWith("; and 2 more");
      assertThat(r.evidence().split("/papers/", -1)).hasSize(6);
    }

    @Test
    void aDeliverableThatIsNotJsonFails() {
      assertThat(schemaValid("title: FL").evidence())
          .startsWith("the deliverable is not JSON, so it cannot satisfy the deliverable schema");
    }

    @Test
    void aRemoteReferenceIsNotFollowed() {
      JsonNode remote = Json.parseTrusted("{\"$ref\": \"http://127.0.0.1:9/schema.json\"}");
      QualityCriteria c =
          criteria(remote, List.of(), dimension("format_compliance", "1", MetricType.PERCENTAGE));
      CheckResult r = evaluate(deliverable("{}", "json"), c, null).checks().get("schema_valid");
      assertThat(r.passed()).isFalse();
      assertThat(r.evidence()).startsWith("the agreement's deliverable schema cannot be applied");
    }

    @Test
    void noSchemaNoCheck() {
      assertThat(evaluate(deliverable("{}", "json"), structuralOnly(), null).checks())
          .doesNotContainKey("schema_valid");
    }
  }

  // ------------------------------------------------------------------ within_size_limit

  @Nested
  class SizeLimit {
    @Test
    void withinTheLimit() {
      CheckResult r =
          evaluate(deliverable("x".repeat(400), "text"), structuralOnly(), 100L)
              .checks()
              .get("within_size_limit");
      assertThat(r.passed()).isTrue();
      assertThat(r.evidence())
          .isEqualTo(
              "estimated 100 tokens (400 characters / 4, rounded up), within the limit of 100");
    }

    @Test
    void overTheLimit() {
      CheckResult r =
          evaluate(deliverable("x".repeat(401), "text"), structuralOnly(), 100L)
              .checks()
              .get("within_size_limit");
      assertThat(r.passed()).isFalse();
      assertThat(r.evidence())
          .isEqualTo(
              "estimated 101 tokens (401 characters / 4, rounded up), over the limit of 100 by 1");
    }

    @Test
    void charactersAreCodePoints() {
      assertThat(StructuralEvaluator.estimatedTokens("😀😀😀😀😀")).isEqualTo(2);
    }

    @Test
    void noLimitNoCheck() {
      assertThat(evaluate(deliverable("x", "text"), structuralOnly(), null).checks())
          .doesNotContainKey("within_size_limit");
    }
  }

  // ------------------------------------------------------------------ required_sections_present

  @Nested
  class RequiredSections {
    private CheckResult sections(String content, String format, String... required) {
      QualityCriteria c =
          criteria(
              null, List.of(required), dimension("format_compliance", "1", MetricType.PERCENTAGE));
      return evaluate(deliverable(content, format), c, null)
          .checks()
          .get("required_sections_present");
    }

    private static final String REPORT =
        """
        # Federated Learning Privacy
        ## Summary
        Text.
        ##   Key   Findings ##
        ```bash
        # Methods
        ```
        ### References
        """;

    @Test
    void markdownHeadingsMatchIgnoringCaseAndSpacing() {
      CheckResult r = sections(REPORT, "markdown", "summary", "KEY FINDINGS", "References");
      assertThat(r.passed()).as(r.evidence()).isTrue();
      assertThat(r.evidence())
          .isEqualTo("all 3 required sections present: summary, KEY FINDINGS, References");
    }

    @Test
    void missingSectionsAreNamedAndHeadingsInCodeBlocksDoNotCount() {
      CheckResult r = sections(REPORT, "markdown", "Summary", "Methods", "Limitations");
      assertThat(r.passed()).isFalse();
      assertThat(r.evidence())
          .isEqualTo(
              "missing 2 of 3 required sections: Methods, Limitations; headings found: "
                  + "Federated Learning Privacy, Summary, Key   Findings, References");
    }

    @Test
    void jsonSectionsAreTopLevelFields() {
      assertThat(
              sections(
                      "{\"Summary\": \"...\", \"findings\": [], \"meta\": {\"methods\": 1}}",
                      "json",
                      "summary",
                      "Findings")
                  .passed())
          .isTrue();
      CheckResult r =
          sections(
              "{\"summary\": \"...\", \"meta\": {\"methods\": 1}}", "json", "summary", "methods");
      assertThat(r.passed()).isFalse();
      assertThat(r.evidence())
          .isEqualTo(
              "missing 1 of 2 required sections: methods; top-level fields found: summary, meta");
    }

    @Test
    void headingSyntax() {
      assertThat(dev.asa.text.MarkdownHeadings.atxTitle("## Title ##")).isEqualTo("Title");
      assertThat(dev.asa.text.MarkdownHeadings.atxTitle("   ### C#")).isEqualTo("C#");
      assertThat(dev.asa.text.MarkdownHeadings.atxTitle("#hashtag")).isNull();
      assertThat(dev.asa.text.MarkdownHeadings.atxTitle("####### seven")).isNull();
      assertThat(dev.asa.text.MarkdownHeadings.atxTitle("    # four spaces is code")).isNull();
      assertThat(dev.asa.text.MarkdownHeadings.atxTitle("#")).isEmpty();
    }

    @Test
    void longLinesAreParsedInLinearTime() {
      String line = "# a" + " ".repeat(500_000) + "b";
      assertTimeoutPreemptively(
          Duration.ofSeconds(5), () -> assertThat(Sections.headings(line)).hasSize(1));
    }

    @Test
    void jsonThatIsNotAnObjectHasNoSections() {
      assertThat(sections("[1, 2]", "json", "summary").evidence()).contains("not an object");
    }
  }

  // ------------------------------------------------------------------ dimensions

  @Nested
  class Dimensions {
    @Test
    void formatComplianceIsTheShareOfChecksPassed() {
      QualityCriteria c =
          criteria(
              Json.parseTrusted("{\"type\": \"array\"}"),
              List.of("summary"),
              dimension("format_compliance", "1", MetricType.PERCENTAGE));
      StructuralReport report = evaluate(deliverable("{\"summary\": 1}", "json"), c, 1000L);

      assertThat(report.checks().keySet())
          .containsExactly(
              "format_valid", "schema_valid", "within_size_limit", "required_sections_present");
      DimensionInput fc = report.dimensions().get("format_compliance");
      assertThat(fc.score()).isEqualByComparingTo("75");
      assertThat(fc.evidence()).isEqualTo("3 of 4 structural checks passed; failed: schema_valid");
      assertThat(fc.confidence()).isEqualByComparingTo("1");
      assertThat(fc.source()).isEqualTo("structural");
      assertThat(report.allChecksPassed()).isFalse();
    }

    @Test
    void formatComplianceRoundsToThreeDecimals() {
      QualityCriteria c =
          criteria(
              Json.parseTrusted("{\"type\": \"array\"}"),
              List.of(),
              dimension("format_compliance", "1", MetricType.PERCENTAGE));
      DimensionInput fc =
          evaluate(deliverable("{}", "json"), c, 1000L).dimensions().get("format_compliance");
      assertThat(fc.score()).isEqualTo(new BigDecimal("66.667"));
    }

    @Test
    void aBooleanFormatComplianceIsTrueOnlyWhenEveryCheckPasses() {
      QualityCriteria c =
          criteria(
              Json.parseTrusted("{\"type\": \"array\"}"),
              List.of(),
              dimension("format_compliance", "1", MetricType.BOOLEAN));
      assertThat(
              evaluate(deliverable("{}", "json"), c, null)
                  .dimensions()
                  .get("format_compliance")
                  .score())
          .isEqualByComparingTo("0");
      assertThat(
              evaluate(deliverable("[]", "json"), c, null)
                  .dimensions()
                  .get("format_compliance")
                  .score())
          .isEqualByComparingTo("100");
    }

    @Test
    void onTimeDelivery() {
      DimensionInput t =
          evaluate(deliverable("x", "text"), structuralOnly(), null).dimensions().get("timeliness");
      assertThat(t.score()).isEqualByComparingTo("100");
      assertThat(t.evidence())
          .isEqualTo("delivered 847 seconds before the deadline (2026-03-26T15:00:00Z)");
      assertThat(t.confidence()).isEqualByComparingTo("1");
    }

    @Test
    void deliveryExactlyAtTheDeadlineIsOnTime() {
      Deliverable d = Deliverable.of("x", "text", DEADLINE);
      DimensionInput t = evaluate(d, structuralOnly(), null).dimensions().get("timeliness");
      assertThat(t.score()).isEqualByComparingTo("100");
      assertThat(t.evidence())
          .isEqualTo("delivered exactly at the deadline (2026-03-26T15:00:00Z)");
    }

    @Test
    void lateDelivery() {
      Deliverable d = Deliverable.of("x", "text", DEADLINE.plusSeconds(120).plusMillis(500));
      DimensionInput t = evaluate(d, structuralOnly(), null).dimensions().get("timeliness");
      assertThat(t.score()).isEqualByComparingTo("0");
      assertThat(t.evidence())
          .isEqualTo("delivered 120.5 seconds after the deadline (2026-03-26T15:00:00Z)");
    }

    @Test
    void withoutADeadlineTheDeliveryIsOnTime() {
      DimensionInput t =
          EVALUATOR
              .evaluate(deliverable("x", "text"), structuralOnly(), null, null)
              .dimensions()
              .get("timeliness");
      assertThat(t.score()).isEqualByComparingTo("100");
      assertThat(t.evidence()).isEqualTo("no deadline applies, so the delivery is on time");
    }

    @Test
    void everyOtherDimensionIsHandedBackAsNotEvaluated() {
      QualityCriteria c =
          criteria(
              null,
              List.of(),
              dimension("accuracy", "0.6", MetricType.PERCENTAGE),
              dimension("format_compliance", "0.2", MetricType.PERCENTAGE),
              dimension("timeliness", "0.2", MetricType.BOOLEAN));
      StructuralReport report = evaluate(deliverable("# Report", "markdown"), c, null);
      assertThat(report.dimensions().keySet())
          .containsExactly("accuracy", "format_compliance", "timeliness");
      DimensionInput accuracy = report.dimensions().get("accuracy");
      assertThat(accuracy.isEvaluated()).isFalse();
      assertThat(accuracy.evidence())
          .isEqualTo(
              "the structural evaluator cannot judge accuracy; a semantic evaluator or the assigned evaluator must score it");

      // Scoring refuses to guess the composite without the semantic score...
      assertThatThrownBy(() -> Scorer.score(c, report.dimensions(), report.checks()))
          .isInstanceOfSatisfying(
              IncompleteScoresException.class,
              e -> assertThat(e.missing()).containsOnlyKeys("accuracy"));
    }

    @Test
    void aStructuralOnlyAgreementScoresEndToEnd() {
      StructuralReport report = evaluate(deliverable("{\"a\": 1}", "json"), structuralOnly(), 100L);
      Scorecard card = Scorer.score(structuralOnly(), report.dimensions(), report.checks());
      assertThat(card.composite().score()).isEqualByComparingTo("100");
      assertThat(card.determination().result()).isEqualTo("PASS");
      assertThat(card.determination().confidence()).isEqualByComparingTo("1");
    }

    @Test
    void aDurationTimelinessIsNotGuessed() {
      QualityCriteria c =
          criteria(null, List.of(), dimension("timeliness", "1", MetricType.DURATION_SECONDS));
      assertThat(
              evaluate(deliverable("x", "text"), c, null)
                  .dimensions()
                  .get("timeliness")
                  .isEvaluated())
          .isFalse();
    }
  }

  @Test
  void deliverableHashIsOverTheUtf8Content() {
    Deliverable d = Deliverable.of("héllo", "text", DEADLINE);
    assertThat(d.contentMatchesHash()).isTrue();
    assertThat(new Deliverable("other", "text", d.contentHash(), DEADLINE).contentMatchesHash())
        .isFalse();
  }

  @Test
  void checksMapIsKeyedByTheNamesGatesUse() {
    assertThat(
            Map.of(
                StructuralEvaluator.FORMAT_VALID, "format_valid",
                StructuralEvaluator.SCHEMA_VALID, "schema_valid",
                StructuralEvaluator.WITHIN_SIZE_LIMIT, "within_size_limit",
                StructuralEvaluator.REQUIRED_SECTIONS_PRESENT, "required_sections_present"))
        .allSatisfy((k, v) -> assertThat(k).isEqualTo(v));
  }
}
