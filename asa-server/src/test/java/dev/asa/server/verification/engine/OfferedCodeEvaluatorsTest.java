package dev.asa.server.verification.engine;

import static org.assertj.core.api.Assertions.assertThat;

import dev.asa.evaluators.Evaluator;
import dev.asa.evaluators.ScriptedEvaluator;
import dev.asa.evaluators.VerificationEngine.Depth;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Which evaluator judges code when the request names none. */
class OfferedCodeEvaluatorsTest {

  @Test
  void codeGoesToTheCodeEvaluatorWhenTheEmbeddingModelIsTheDefault() {
    OfferedEvaluators offered = VerificationConfig.standard(null, 1).offered();
    assertThat(offered.types()).contains("embedding", "code");
    assertThat(offered.defaultTypeFor(true)).isEqualTo("code");
    assertThat(offered.defaultTypeFor(false)).isEqualTo("embedding");
    List<Evaluator> runs =
        offered.plan(EvaluationConfig.DEFAULTS, Depth.SEMANTIC, "/x", true).semantic();
    assertThat(runs).extracting(Evaluator::id).containsExactly("code/static-analysis");
    // Asked for by name, embedding still runs on code: the caller's choice is binding.
    EvaluationConfig embedding = new EvaluationConfig(null, List.of("embedding"), true, null, null);
    assertThat(offered.plan(embedding, Depth.SEMANTIC, "/x", true).semantic())
        .extracting(Evaluator::type)
        .containsExactly("embedding");
  }

  @Test
  void aConfiguredJudgeStaysTheDefaultForCode() {
    Evaluator judge = ScriptedEvaluator.scoring("fake/judge", 0.9, Map.of("correctness", 80.0));
    OfferedEvaluators offered =
        new OfferedEvaluators(
            Map.of(
                "agent_as_judge", () -> judge, "code", dev.asa.evaluators.code.CodeEvaluator::new),
            "agent_as_judge");
    assertThat(offered.defaultTypeFor(true)).isEqualTo("agent_as_judge");
  }
}
