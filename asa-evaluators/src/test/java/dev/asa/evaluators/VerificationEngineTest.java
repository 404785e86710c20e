package dev.asa.evaluators;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.asa.document.StandaloneCriteria;
import dev.asa.evaluators.VerificationEngine.Depth;
import dev.asa.evaluators.VerificationEngine.Plan;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class VerificationEngineTest {

  private final VerificationEngine engine = new VerificationEngine(new StructuralEvaluator());
  private static final Instant NOW = Instant.parse("2026-01-01T00:00:00Z");

  private static EvaluationTask task(String content, String format) {
    return EvaluationTask.of(
        Deliverable.of(content, format, NOW),
        "summarise",
        "general",
        StandaloneCriteria.forType("general"));
  }

  @Test
  void structuralMeasurementsWinOverSemanticOpinions() throws Exception {
    ScriptedEvaluator judge =
        ScriptedEvaluator.scoring(
            "judge",
            0.9,
            Map.of(
                "accuracy",
                90.0,
                "completeness",
                80.0,
                "relevance",
                70.0,
                "clarity",
                60.0,
                "timeliness",
                5.0));
    var a =
        engine.assess(
            task("# Title\n\nSome text.", "markdown"),
            new Plan(Depth.SEMANTIC, List.of(judge), false));
    assertThat(a.inputs().get("timeliness").score())
        .isEqualByComparingTo("100"); // no deadline: on time, measured
    assertThat(a.inputs().get("accuracy").score()).isEqualByComparingTo("90");
    assertThat(a.evaluatorType()).isEqualTo("agent_as_judge");
    assertThat(a.models()).isEqualTo("judge-model");
    assertThat(a.usage().costUsd()).isEqualByComparingTo("0.01");
  }

  @Test
  void progressiveCompositeSkipsSemanticWhenAStructuralCheckFails() throws Exception {
    ScriptedEvaluator judge = ScriptedEvaluator.scoring("judge", 0.9, Map.of("accuracy", 90.0));
    var a =
        engine.assess(task("{not json", "json"), new Plan(Depth.COMPOSITE, List.of(judge), true));
    assertThat(judge.calls.get()).isZero();
    assertThat(a.inputs().get("accuracy").score()).isEqualByComparingTo("0");
    assertThat(a.inputs().get("accuracy").evidence())
        .contains("format_valid failed")
        .contains("progressive");
    assertThat(a.details().path("semantic_skipped").asText()).contains("format_valid");

    ScriptedEvaluator second = ScriptedEvaluator.scoring("judge", 0.9, Map.of("accuracy", 90.0));
    var notProgressive =
        engine.assess(task("{not json", "json"), new Plan(Depth.COMPOSITE, List.of(second), false));
    assertThat(second.calls.get()).isOne();
    assertThat(notProgressive.inputs().get("accuracy").score()).isEqualByComparingTo("90");
  }

  @Test
  void aMinorityOfFailedRunsIsReportedAMajorityFailsTheAssessment() throws Exception {
    var ok = ScriptedEvaluator.scoring("a", 0.9, Map.of("accuracy", 90.0));
    var a =
        engine.assess(
            task("text", "text"),
            new Plan(
                Depth.SEMANTIC,
                List.of(
                    ok,
                    ScriptedEvaluator.failing("b", "429 forever"),
                    ScriptedEvaluator.scoring("c", 0.9, Map.of("accuracy", 80.0))),
                false));
    assertThat(a.failures()).containsExactly("b: 429 forever");
    assertThat(a.inputs().get("accuracy").score()).isEqualByComparingTo("85");

    assertThatThrownBy(() ->
            engine.assess(
                task("text", "text"),
                new Plan(
                    Depth.SEMANTIC,
                    List.of(
                        ok,
                        ScriptedEvaluator.failing("b", "down"),
                        ScriptedEvaluator.failing("c", "down too")),
                    false)))
        .isInstanceOf(EvaluationException.class)
        .hasMessageContaining("b: down")
        .hasMessageContaining("c: down too");
  }

  @Test
  void progressIsReportedForEachRun() throws Exception {
    List<String> seen = new ArrayList<>();
    var judge = ScriptedEvaluator.scoring("judge", 0.9, Map.of("accuracy", 90.0));
    engine.assess(
        task("text", "text")
            .withProgress((stage, done, total) -> seen.add(stage + " " + done + "/" + total)),
        new Plan(Depth.SEMANTIC, List.of(judge, judge), false));
    assertThat(seen)
        .containsExactly(
            "structural checks 0/3", "judge (1 of 2) 1/3", "judge (2 of 2) 2/3", "done 3/3");
  }

  @Test
  void structuralDepthRunsNoSemanticEvaluator() throws Exception {
    var a = engine.assess(task("text", "text"), Plan.structural());
    assertThat(a.inputs().get("accuracy").isEvaluated()).isFalse();
    assertThat(a.evaluatorType()).isEqualTo("structural");
  }
}
