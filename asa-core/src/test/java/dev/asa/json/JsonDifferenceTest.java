package dev.asa.json;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class JsonDifferenceTest {
  @Test
  void equalValuesHaveNoDifferenceWhateverTheNumberFormOrMemberOrder() {
    assertThat(
            JsonDifference.first(
                Json.parseTrusted("{\"a\": 0.25, \"b\": [1, {\"c\": true}]}"),
                Json.parseTrusted("{\"b\": [1.0, {\"c\": true}], \"a\": 0.250}")))
        .isEmpty();
  }

  @Test
  void theFirstDifferenceIsNamedByItsPointer() {
    assertThat(
            JsonDifference.first(
                Json.parseTrusted("{\"d\": [{\"w\": 0.5}, {\"w\": 0.5}]}"),
                Json.parseTrusted("{\"d\": [{\"w\": 0.5}, {\"w\": 0.4}]}")))
        .contains("/d/1/w");
    assertThat(
            JsonDifference.first(
                Json.parseTrusted("{\"a\": 1}"), Json.parseTrusted("{\"a\": 1, \"x/y\": 2}")))
        .contains("/x~1y");
    assertThat(JsonDifference.first(Json.parseTrusted("[1, 2]"), Json.parseTrusted("[1]")))
        .contains("/1");
    assertThat(
            JsonDifference.first(
                Json.parseTrusted("{\"a\": \"1\"}"), Json.parseTrusted("{\"a\": 1}")))
        .contains("/a");
  }
}
