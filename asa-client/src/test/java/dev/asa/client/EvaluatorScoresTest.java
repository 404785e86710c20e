package dev.asa.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.asa.json.Json;
import org.junit.jupiter.api.Test;

class EvaluatorScoresTest {

  @Test
  void writesTheEvaluatorResultTheServerReads() {
    EvaluatorScores scores =
        EvaluatorScores.builder()
            .score("accuracy", 80, "3 of 3 claims hold")
            .score("completeness", 72.5, "most of it")
            .confidence(0.85)
            .model("judge-x")
            .build();

    // Numbers as JCS writes them (80, not 80.0): the server refuses any other spelling.
    assertThat(Json.write(scores.toJson()))
        .isEqualTo(
            "{\"dimensions\":[{\"name\":\"accuracy\",\"score\":80,\"evidence\":\"3 of 3 claims"
                + " hold\"},{\"name\":\"completeness\",\"score\":72.5,\"evidence\":\"most of"
                + " it\"}],\"confidence\":0.85,\"model\":\"judge-x\"}");
  }

  @Test
  void reportsTheChecksTheGatesName() {
    EvaluatorScores scores =
        EvaluatorScores.builder()
            .score("correctness", 98, "all tests pass")
            .check("all_tests_pass", true)
            .check("no_critical_security_vulnerabilities", false)
            .build();
    assertThat(Json.write(scores.toJson()))
        .contains(
            "\"checks\":{\"all_tests_pass\":true,\"no_critical_security_vulnerabilities\":false}");
    assertThatThrownBy(() ->
            EvaluatorScores.builder().check("all_tests_pass", true).check("all_tests_pass", false))
        .hasMessageContaining("'all_tests_pass' is reported twice");
  }

  @Test
  void refusesWhatTheServerWouldRefuseAtTheLineThatWroteIt() {
    assertThatThrownBy(() -> EvaluatorScores.builder().score("accuracy", 101, "x"))
        .hasMessage("the score of 'accuracy' must be between 0 and 100; got 101.0");
    assertThatThrownBy(() -> EvaluatorScores.builder().score("accuracy", Double.NaN, "x"))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(
            () -> EvaluatorScores.builder().score("accuracy", 1, "x").score("accuracy", 2, "y"))
        .hasMessageContaining("'accuracy' is scored twice");
    assertThatThrownBy(() -> EvaluatorScores.builder().confidence(85))
        .hasMessageContaining("(0.85, not 85)");
    assertThatThrownBy(() -> EvaluatorScores.builder().build())
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("no dimension is scored");
  }
}
