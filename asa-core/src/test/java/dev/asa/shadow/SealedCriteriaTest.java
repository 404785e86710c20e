package dev.asa.shadow;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import dev.asa.agreement.InvalidDocumentException;
import dev.asa.agreement.Violation;
import dev.asa.json.Json;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class SealedCriteriaTest {

  private static JsonNode json(String text) throws Exception {
    return Json.parse(text);
  }

  private static List<String> violations(String body) throws Exception {
    try {
      SealRequest.parse(json(body));
    } catch (InvalidDocumentException e) {
      return e.violations().stream().map(Violation::toString).toList();
    }
    throw new AssertionError("expected violations");
  }

  private static String criterion(String id, String check) {
    return "{\"id\":\""
        + id
        + "\",\"category\":\"edge_case\",\"assertion\":\"a\",\"expected\":\"e\",\"check\":"
        + check
        + "}";
  }

  @Test
  void everyCheckTypeReadsAndWritesBackInItsFullForm() throws Exception {
    String body =
        """
        {"scale": "SS-250", "sealer": "did:key:z6MkSealer", "criteria": [
          {"id": "c1", "category": "happy_path", "assertion": "mentions the API", "expected": "the word API", "check": {"type": "contains", "value": "API"}},
          {"id": "c2", "category": "edge_case", "assertion": "a", "expected": "e", "message": "m", "check": {"type": "contains", "value": "api", "case_sensitive": false}},
          {"id": "c3", "category": "error_handling", "assertion": "a", "expected": "e", "check": {"type": "regex", "pattern": "(?i)status\\\\s+code"}},
          {"id": "c4", "category": "security", "assertion": "a", "expected": "e", "check": {"type": "json_schema", "schema": {"type": "object", "required": ["status"]}}},
          {"id": "c5", "category": "completeness", "assertion": "a", "expected": "e", "check": {"type": "json_path_equals", "path": "/items/0/id", "value": 1.0}},
          {"id": "c6", "category": "completeness", "assertion": "a", "expected": "e", "check": {"type": "min_words", "value": 500}},
          {"id": "c7", "category": "completeness", "assertion": "a", "expected": "e", "check": {"type": "max_words", "value": 2000}},
          {"id": "c8", "category": "completeness", "assertion": "a", "expected": "e", "check": {"type": "has_section", "title": "Limitations"}},
          {"id": "c9", "category": "happy_path", "assertion": "a", "expected": "e", "check": {"type": "judged", "assertion": "the arithmetic is consistent"}}
        ]}\
        """;

    SealRequest request = SealRequest.parse(json(body));

    assertThat(request.scale()).contains(Scale.SS_250);
    assertThat(request.sealer()).contains("did:key:z6MkSealer");
    List<SealedCriterion> c = request.criteria().criteria();
    assertThat(c).hasSize(9);
    assertThat(c.get(0).check()).isEqualTo(new Check.Contains("API", true));
    assertThat(c.get(0).message()).as("message defaults to expected").isEqualTo("the word API");
    assertThat(c.get(1).check()).isEqualTo(new Check.Contains("api", false));
    assertThat(c.get(8).check()).isEqualTo(new Check.Judged("the arithmetic is consistent"));
    assertThat(request.criteria().hasJudged()).isTrue();
    // the written form names every member, defaults included: it is what the commitment covers
    assertThat(Json.write(c.get(0).toJson()))
        .isEqualTo(
            "{\"id\":\"c1\",\"category\":\"happy_path\",\"assertion\":\"mentions the API\",\"expected\":\"the word API\","
                + "\"message\":\"the word API\",\"check\":{\"type\":\"contains\",\"value\":\"API\",\"case_sensitive\":true}}");
    // and reads back to the same criteria
    assertThat(SealedCriteria.parse(request.criteria().toJson())).isEqualTo(request.criteria());
  }

  @Test
  void everyViolationIsReportedAtOnceWithItsPointer() throws Exception {
    String body =
        "{\"scale\":\"SS-100\",\"extra\":1,\"criteria\":["
            + criterion("ok", "{\"type\":\"regex\",\"pattern\":\"(unclosed\"}")
            + ","
            + criterion("ok", "{\"type\":\"contains\",\"value\":\"x\",\"case_sensitve\":false}")
            + ","
            + "{\"id\":\"bad id!\",\"category\":\"speed\",\"assertion\":\"\",\"expected\":\"e\",\"check\":{\"type\":\"wordcount\"}},"
            + criterion("p", "{\"type\":\"json_path_equals\",\"path\":\"$.a[0]\",\"value\":1}")
            + ","
            + criterion("w", "{\"type\":\"min_words\",\"value\":-3}")
            + ","
            + criterion("s", "{\"type\":\"json_schema\",\"schema\":\"object\"}")
            + "]}";

    List<String> v = violations(body);

    assertThat(v).anyMatch(s -> s.startsWith("/extra: unknown member"));
    assertThat(v)
        .anyMatch(s -> s.startsWith("/criteria/0/check/pattern: not a valid regular expression"));
    assertThat(v).anyMatch(s -> s.startsWith("/criteria/1/check/case_sensitve: unknown member"));
    assertThat(v).anyMatch(s -> s.startsWith("/criteria/2/id: 'bad id!' must be 1 to 64"));
    assertThat(v)
        .anyMatch(s -> s.startsWith("/criteria/2/category: 'speed' is not one of happy_path"));
    assertThat(v).anyMatch(s -> s.startsWith("/criteria/2/assertion: must not be empty"));
    assertThat(v)
        .anyMatch(s -> s.startsWith("/criteria/2/check/type: 'wordcount' is not a check type"));
    assertThat(v).anyMatch(s -> s.startsWith("/criteria/3/check/path: must be a JSON Pointer"));
    assertThat(v).anyMatch(s -> s.startsWith("/criteria/4/check/value: must be from 0"));
    assertThat(v)
        .anyMatch(s ->
            s.startsWith(
                "/criteria/5/check/schema: a JSON Schema is an object (or true/false), not a string"));
  }

  @Test
  void idsMustBeUniqueAndTheScaleBoundsTheCount() throws Exception {
    String dup =
        "{\"criteria\":["
            + criterion("a", "{\"type\":\"min_words\",\"value\":1}")
            + ","
            + criterion("a", "{\"type\":\"min_words\",\"value\":2}")
            + "]}";
    assertThat(violations(dup))
        .containsExactly(
            "/criteria/1/id: 'a' appears more than once; every criterion needs its own id");

    StringBuilder seven = new StringBuilder("{\"scale\":\"SS-50\",\"criteria\":[");
    for (int i = 0; i < 7; i++) {
      seven
          .append(i == 0 ? "" : ",")
          .append(criterion("c" + i, "{\"type\":\"min_words\",\"value\":1}"));
    }
    String tooMany = seven.append("]}").toString();
    assertThat(violations(tooMany))
        .containsExactly(
            "/criteria: holds 7 criteria; expected 1 to 6 (the most scale SS-50 allows)");
    // the preset is a maximum: seven fit SS-100 (8), and fewer than six fit SS-50
    assertThat(SealRequest.parse(json(tooMany.replace("SS-50", "SS-100"))).criteria().size())
        .isEqualTo(7);

    assertThat(violations("{\"criteria\":[]}"))
        .containsExactly("/criteria: holds 0 criteria; expected 1 to 50");
    assertThat(violations("{\"scale\":\"SS-75\",\"criteria\":[]}"))
        .contains("/scale: 'SS-75' is not a scale; expected one of SS-50, SS-100, SS-250");
    assertThat(violations("[]"))
        .containsExactly("(document): the request body must be an object, found an array");
  }

  @Test
  void scalePresetsFollowTheSeed() {
    assertThat(Scale.SS_50.criteriaCount()).isEqualTo(6);
    assertThat(Scale.SS_50.hardeningEnabled()).isFalse();
    assertThat(Scale.SS_100.criteriaCount()).isEqualTo(8);
    assertThat(Scale.SS_100.maxCycles()).isEqualTo(1);
    assertThat(Scale.SS_250.criteriaCount()).isEqualTo(10);
    assertThat(Scale.SS_250.hardening())
        .isEqualTo(new HardeningPolicy(1, Scale.HARDENING_THRESHOLD));
    assertThat(Scale.fromWire("SS-100")).isEqualTo(Scale.SS_100);
  }

  @Test
  void constructorsRefuseWhatParsingRefuses() {
    Check ok = new Check.MinWords(1);
    assertThatThrownBy(() -> new SealedCriterion("", Category.EDGE_CASE, "a", "e", ok))
        .hasMessageContaining("criterion id");
    assertThatThrownBy(() -> new SealedCriterion("x", Category.UNKNOWN, "a", "e", ok))
        .hasMessageContaining("needs a category");
    assertThatThrownBy(() -> new Check.Regex("("))
        .hasMessageContaining("not a valid regular expression");
    assertThatThrownBy(() -> SealedCriteria.of()).hasMessageContaining("1 to 50");
    SealedCriterion c = new SealedCriterion("x", Category.EDGE_CASE, "a", "e", ok);
    assertThatThrownBy(() -> SealedCriteria.of(c, c)).hasMessageContaining("more than once");
    SealedCriteria seven =
        new SealedCriteria(
            java.util.stream.IntStream.range(0, 7)
                .mapToObj(i -> new SealedCriterion("c" + i, Category.EDGE_CASE, "a", "e", ok))
                .toList());
    assertThatThrownBy(() -> new SealRequest(seven, Optional.of(Scale.SS_50), Optional.empty()))
        .hasMessageContaining("more than scale SS-50 allows (6)");
  }
}
