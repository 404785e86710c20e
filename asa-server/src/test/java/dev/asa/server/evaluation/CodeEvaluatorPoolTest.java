package dev.asa.server.evaluation;

import static org.assertj.core.api.Assertions.assertThat;

import dev.asa.evaluators.Evaluator;
import dev.asa.evaluators.ScriptedEvaluator;
import dev.asa.evaluators.VerificationEngine.Depth;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Which evaluator judges code when the request names none. */
class CodeEvaluatorPoolTest {

  @Test
  void codeGoesToTheCodeEvaluatorWhenTheEmbeddingModelIsTheDefault() {
    EvaluatorPool pool = VerificationConfig.standard(null, 1).pool();
    assertThat(pool.types()).contains("embedding", "code");
    assertThat(pool.defaultTypeFor(true)).isEqualTo("code");
    assertThat(pool.defaultTypeFor(false)).isEqualTo("embedding");
    List<Evaluator> runs =
        pool.plan(EvaluationConfig.DEFAULTS, Depth.SEMANTIC, "/x", true).semantic();
    assertThat(runs).extracting(Evaluator::id).containsExactly("code/static-analysis");
    // Asked for by name, embedding still runs on code: the caller's choice is binding.
    EvaluationConfig embedding = new EvaluationConfig(null, List.of("embedding"), true, null, null);
    assertThat(pool.plan(embedding, Depth.SEMANTIC, "/x", true).semantic())
        .extracting(Evaluator::type)
        .containsExactly("embedding");
  }

  @Test
  void aConfiguredJudgeStaysTheDefaultForCode() {
    Evaluator judge = ScriptedEvaluator.scoring("fake/judge", 0.9, Map.of("correctness", 80.0));
    EvaluatorPool pool =
        new EvaluatorPool(
            Map.of(
                "agent_as_judge", () -> judge, "code", dev.asa.evaluators.code.CodeEvaluator::new),
            "agent_as_judge");
    assertThat(pool.defaultTypeFor(true)).isEqualTo("agent_as_judge");
  }
}
