package dev.asa.server.evaluation;

import dev.asa.evaluators.Evaluator;
import dev.asa.evaluators.judge.JudgeConfig;
import dev.asa.evaluators.judge.LlmJudge;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.function.Supplier;

/**
 * The server's semantic evaluators and how many verifications run at once.
 *
 * @param evaluators evaluator type (as requests name it: {@code embedding}, {@code agent_as_judge})
 *     to a factory of the evaluator, created on first use; empty for structural verification only
 * @param defaultType the type used when a request names none
 * @param workers how many background verifications run at once
 * @param description what is configured, for {@code /admin/config} (no secrets)
 */
public record VerificationConfig(
    Map<String, Supplier<Evaluator>> evaluators,
    String defaultType,
    int workers,
    Map<String, String> description) {

  /** Structural verification only. */
  public static final VerificationConfig STRUCTURAL_ONLY =
      new VerificationConfig(Map.of(), null, 2, Map.of());

  public VerificationConfig {
    evaluators = Collections.unmodifiableMap(new LinkedHashMap<>(evaluators));
    description = Collections.unmodifiableMap(new LinkedHashMap<>(description));
    if (workers < 1) {
      throw new IllegalArgumentException("verification workers must be at least 1");
    }
    if (!evaluators.isEmpty() && !evaluators.containsKey(defaultType)) {
      throw new IllegalArgumentException(
          "the default evaluator type '" + defaultType + "' is not configured");
    }
  }

  /**
   * The standard set: the offline embedding model always (type {@code embedding}), the static
   * checks of code deliverables always (type {@code code}, the default for code), and an LLM judge
   * (type {@code agent_as_judge}) when {@code judge} is not null; the judge is the default when
   * there is one, since it can judge what embeddings cannot (accuracy, correctness...).
   */
  public static VerificationConfig standard(JudgeConfig judge, int workers) {
    Map<String, Supplier<Evaluator>> evaluators = new LinkedHashMap<>();
    Map<String, String> description = new LinkedHashMap<>();
    evaluators.put("embedding", Evaluators::embedding);
    description.put("embedding", Evaluators.EMBEDDING_DESCRIPTION);
    evaluators.put(EvaluatorPool.CODE, Evaluators::code);
    description.put(EvaluatorPool.CODE, Evaluators.CODE_DESCRIPTION);
    if (judge != null) {
      evaluators.put("agent_as_judge", () -> LlmJudge.create(judge));
      description.put(
          "agent_as_judge",
          judge.provider().name().toLowerCase(Locale.ROOT)
              + " "
              + judge.model()
              + " at "
              + judge.baseUrl());
    }
    description.put("workers", Integer.toString(workers));
    return new VerificationConfig(
        evaluators, judge != null ? "agent_as_judge" : "embedding", workers, description);
  }

  /** The pool of these evaluators; null when there are none. */
  public EvaluatorPool pool() {
    return evaluators.isEmpty() ? null : new EvaluatorPool(evaluators, defaultType);
  }
}
