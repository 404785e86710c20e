package dev.asa.shadow;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import dev.asa.json.Json;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

class ShadowValidatorTest {

  private static CriterionResult decide(Check check, String content) {
    return decide(check, content, null, Judge.NONE);
  }

  private static CriterionResult decide(Check check, String content, String format, Judge judge) {
    SealedCriterion c =
        new SealedCriterion("c", Category.EDGE_CASE, "assertion", "expected", check);
    return ShadowValidator.decide(c, DeliveredWork.of(content, format), judge);
  }

  private static void passes(CriterionResult r, String actual) {
    assertThat(r.status()).as(r.actual()).isEqualTo(Status.PASSED);
    assertThat(r.actual()).isEqualTo(actual);
  }

  private static void fails(CriterionResult r, String actual) {
    assertThat(r.status()).as(r.actual()).isEqualTo(Status.FAILED);
    assertThat(r.actual()).isEqualTo(actual);
  }

  @Test
  void contains() {
    String text = "Intro\nThe API is here";
    passes(decide(new Check.Contains("API", true), text), "found 'API' at line 2");
    fails(decide(new Check.Contains("api", true), text), "'api' does not occur");
    passes(decide(new Check.Contains("api", false), text), "found 'api' (ignoring case) at line 2");
    fails(
        decide(new Check.Contains("graphql", false), text),
        "'graphql' does not occur (ignoring case)");
  }

  @Test
  void regex() {
    passes(
        decide(new Check.Regex("status\\s+code"), "a\nb\nthe status  code"),
        "regex matched at line 3: 'status  code'");
    fails(
        decide(new Check.Regex("(?i)http \\d{3}"), "no codes"),
        "regex found no match in 8 characters");
  }

  @Test
  void aCatastrophicRegexEndsAsAnErrorOnItsStepBudget() {
    // (a+)+$ is memoized by modern java.util.regex; nested unbounded repeats over a near miss are
    // not
    CriterionResult r = decide(new Check.Regex("(.*a){20}"), "a".repeat(19) + "b".repeat(60));

    assertThat(r.status()).isEqualTo(Status.ERROR);
    assertThat(r.actual())
        .isEqualTo("regex gave up after 50000000 steps (catastrophic backtracking?): no verdict");
    assertThat(r.toTestResult().isFailure()).isTrue();
    CriterionResult tooLong =
        decide(new Check.Regex("a"), "a".repeat(ShadowValidator.MAX_REGEX_INPUT + 1));
    assertThat(tooLong.status()).isEqualTo(Status.ERROR);
    assertThat(tooLong.actual()).contains("more than the 1000000 a regex check reads");
  }

  @Test
  void jsonSchema() throws Exception {
    Check schema =
        new Check.JsonSchema(Json.parse("{\"type\":\"object\",\"required\":[\"status\"]}"));

    passes(decide(schema, "{\"status\":\"ok\"}"), "the deliverable satisfies the JSON Schema");
    CriterionResult missing = decide(schema, "{}");
    assertThat(missing.status()).isEqualTo(Status.FAILED);
    assertThat(missing.actual()).startsWith("1 schema violation: /status: ").contains("status");
    CriterionResult notJson = decide(schema, "# Report", "json", Judge.NONE);
    assertThat(notJson.status()).isEqualTo(Status.FAILED);
    assertThat(notJson.actual()).startsWith("the deliverable declared JSON but is not JSON: ");
    // a remote reference is never fetched, and such a schema is refused when sealing
    JsonNode remote = Json.parse("{\"$ref\":\"https://example.invalid/s.json\"}");
    assertThatThrownBy(() -> new Check.JsonSchema(remote))
        .hasMessageStartingWith("the JSON Schema cannot be used");
  }

  @Test
  void jsonPathEquals() throws Exception {
    String doc = "{\"status\":\"ok\",\"items\":[{\"id\":1,\"tags\":{\"b\":2,\"a\":1}}]}";

    fails(
        decide(new Check.JsonPathEquals("/status", Json.parse("\"done\"")), doc),
        "/status is \"ok\", expected \"done\"");
    passes(
        decide(new Check.JsonPathEquals("/items/0/id", Json.parse("1.0")), doc),
        "/items/0/id is 1");
    passes(
        decide(new Check.JsonPathEquals("/items/0/tags", Json.parse("{\"a\":1,\"b\":2.00}")), doc),
        "/items/0/tags is {\"b\":2,\"a\":1}");
    fails(
        decide(new Check.JsonPathEquals("/missing", Json.parse("\"x\"")), doc),
        "/missing is missing, expected \"x\"");
    fails(
        decide(new Check.JsonPathEquals("", Json.parse("null")), "[]"),
        "the document is [], expected null");
  }

  @Test
  void wordCounts() {
    String text = "one two  three\nfour\u00a0five";
    fails(decide(new Check.MinWords(6), text), "found 5 words; at least 6 required");
    passes(decide(new Check.MinWords(5), text), "found 5 words; at least 5 required");
    passes(decide(new Check.MaxWords(5), text), "found 5 words; at most 5 allowed");
    fails(decide(new Check.MaxWords(4), text), "found 5 words; at most 4 allowed");
    passes(decide(new Check.MaxWords(0), " \n "), "found 0 words; at most 0 allowed");
  }

  @Test
  void hasSection() {
    String doc = "# Intro\n```\n# Limitations\n```\n## Results ##\n#hashtag";
    fails(
        decide(new Check.HasSection("limitations"), doc),
        "no heading 'limitations'; headings found: 'Intro', 'Results'");
    passes(
        decide(new Check.HasSection("known limitations"), "text\n## Known  LIMITATIONS"),
        "found heading 'Known  LIMITATIONS' at line 2");
    fails(
        decide(new Check.HasSection("Limitations"), "plain text"),
        "no heading 'Limitations': the deliverable has no Markdown headings");
  }

  @Test
  void judgedCriteriaGoToTheJudgeAndAFailingJudgeIsAnError() {
    List<String> asked = new ArrayList<>();
    Judge yes =
        (assertion, work) -> {
          asked.add(assertion + " / " + work.format());
          return new Judge.Verdict(true, "totals add up on every table");
        };
    passes(
        decide(new Check.Judged("the arithmetic is consistent"), "x", "markdown", yes),
        "totals add up on every table");
    assertThat(asked).containsExactly("the arithmetic is consistent / markdown");
    fails(
        decide(new Check.Judged("a"), "x", null, (a, w) -> new Judge.Verdict(false, null)),
        "the judge found the assertion does not hold");

    CriterionResult broken =
        decide(
            new Check.Judged("a"),
            "x",
            null,
            (a, w) -> {
              throw new java.util.concurrent.TimeoutException("judge timed out after 30s");
            });
    assertThat(broken.status()).isEqualTo(Status.ERROR);
    assertThat(broken.actual()).isEqualTo("the judge failed: judge timed out after 30s");
    assertThat(decide(new Check.Judged("a"), "x", null, Judge.NONE).actual())
        .isEqualTo(
            "the judge failed: no judge is configured, so a judged criterion cannot be decided");
  }

  /** {@code n} criteria, each asking for its own token {@code k<i>} in the deliverable. */
  static SealedEnvelope tokens(int n) {
    List<SealedCriterion> list =
        IntStream.range(0, n)
            .mapToObj(i ->
                new SealedCriterion(
                    "sc-" + i,
                    Category.values()[i % 5],
                    "mentions k" + i,
                    "the token k" + i,
                    "Token k" + i + " not addressed",
                    new Check.Contains("<k" + i + ">", true)))
            .toList();
    return SealedEnvelope.seal(
        SealStatement.Subject.agreement("agr_1"),
        new SealedCriteria(list),
        "did:key:z6MkClient",
        SealTest.NOW,
        new SecureRandom(),
        SealTest.SERVER_KEY);
  }

  /** A deliverable with every token except the first {@code failing}. */
  static DeliveredWork failing(int failing, int n) {
    return DeliveredWork.of(
        IntStream.range(failing, n).mapToObj(i -> "<k" + i + ">").collect(Collectors.joining(" ")),
        "text");
  }

  @Test
  void aValidationProducesTheSpecReportWithTheCommitmentAsSealedHash() {
    SealedEnvelope env = tokens(10);

    ShadowValidation v = ShadowValidator.validate(env, failing(3, 10), Judge.NONE);
    JsonNode json = v.report().toJson();

    assertThat(v.sealBroken()).isFalse();
    assertThat(v.score().percentage()).isEqualByComparingTo("30.0");
    assertThat(v.gate()).isEqualTo(Gate.PROCEED_WITH_WARNING);
    assertThat(json.path("report").path("sealed_hash").asText())
        .isEqualTo(env.commitment().toString());
    assertThat(json.path("report").path("level").asText()).isEqualTo("moderate");
    assertThat(json.path("report").has("advisory")).isFalse();
    assertThat(json.path("report").has("seal_broken")).isFalse();
    assertThat(Json.write(json.path("sealed_tests")))
        .isEqualTo("{\"total\":10,\"passed\":7,\"failed\":3}");
    assertThat(Json.write(json.path("failures").get(0)))
        .isEqualTo(
            "{\"test_name\":\"sc-0\",\"category\":\"happy_path\","
                + "\"expected\":\"the token k0\",\"actual\":\"'<k0>' does not occur\",\"message\":\"Token k0 not addressed\"}");
    // completeness is reported as unknown, as the spec's schema knows no such category
    assertThat(json.path("failures")).hasSize(3);
    assertThat(ReportSchema.violations(json)).isEmpty();
  }

  @Test
  void aCriterionTamperedWithAfterSealingBreaksTheSealAtValidation() {
    SealedEnvelope env = tokens(10);
    List<SealedCriterion> altered = new ArrayList<>(env.criteria().criteria());
    SealedCriterion first = altered.get(0);
    // the store's copy is edited so that the provider's work passes it
    altered.set(
        0,
        new SealedCriterion(
            first.id(),
            first.category(),
            first.assertion(),
            first.expected(),
            first.message(),
            new Check.MinWords(0)));
    SealedEnvelope tampered =
        new SealedEnvelope(env.seal(), env.nonce(), new SealedCriteria(altered));

    ShadowValidation v = ShadowValidator.validate(tampered, failing(3, 10), Judge.NONE);
    JsonNode json = v.report().toJson();

    assertThat(v.sealBroken()).isTrue();
    assertThat(v.gate()).isEqualTo(Gate.BLOCKED);
    assertThat(json.path("report").path("seal_broken").booleanValue()).isTrue();
    assertThat(json.path("report").path("advisory").booleanValue()).isTrue();
    assertThat(json.path("report").path("advisory_reason").asText())
        .startsWith("the seal is broken")
        .contains("criteria or nonce changed after sealing");
    assertThat(json.path("report").path("sealed_hash").asText())
        .isEqualTo(env.commitment().toString());
    assertThat(v.report().summary()).contains("Seal: BROKEN");
    assertThat(ReportSchema.violations(json)).isEmpty();
  }
}
