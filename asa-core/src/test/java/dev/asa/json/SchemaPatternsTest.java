package dev.asa.json;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import com.fasterxml.jackson.databind.JsonNode;
import java.time.Duration;
import org.junit.jupiter.api.Test;

class SchemaPatternsTest {

  @Test
  void aPatternThatBacktracksRunsInLinearTime() {
    // java.util.regex: 40 characters 10 s, each more multiplying it, so 100,000 would never end;
    // RE2 reads them once (milliseconds). The bound only tells "ends" from "never ends", so a
    // loaded machine cannot fail it: this is not a timing test.
    var pattern = SchemaPatterns.compile("^(.*a){8}$");
    assertTimeoutPreemptively(
        Duration.ofSeconds(60),
        () -> {
          assertThat(pattern.matches("a".repeat(100_000) + "b")).isFalse();
          assertThat(pattern.matches("a".repeat(100_000))).isTrue();
        });
  }

  @Test
  void patternsAreFoundAnywhereInTheTextAsEcmaScriptDoes() {
    assertThat(SchemaPatterns.compile("b+").matches("abba")).isTrue();
    assertThat(SchemaPatterns.compile("^b").matches("abba")).isFalse();
    assertThat(SchemaPatterns.compile("^\\p{Letter}+$").matches("Grüße")).isTrue();
  }

  @Test
  void aPatternRe2CannotRunIsNamedByItsPointer() throws Exception {
    JsonNode schema =
        Json.parse(
            """
            {"type": "object",
             "properties": {
               "ok": {"type": "string", "pattern": "^[a-z]+$"},
               "data": {"const": {"pattern": "(a)\\\\1"}},
               "items": {"type": "array", "items": [{"pattern": "(?=a)a"}]}}}
            """);
    assertThat(SchemaPatterns.firstUnrunnable(schema))
        .hasValueSatisfying(u -> {
          assertThat(u.pointer()).isEqualTo("/properties/items/items/0/pattern");
          assertThat(u.reason()).contains("linear time");
        });
    JsonNode keys = Json.parse("{\"patternProperties\": {\"^(x)\\\\1/y$\": {}}}");
    assertThat(SchemaPatterns.firstUnrunnable(keys))
        .hasValueSatisfying(
            u -> assertThat(u.pointer()).isEqualTo("/patternProperties/^(x)\\1~1y$"));
    assertThat(SchemaPatterns.firstUnrunnable(Json.parse("{\"pattern\": \"^a{2,5}$\"}"))).isEmpty();
  }
}
