package dev.asa.server.verification.engine;

import dev.asa.evaluators.Evaluator;
import dev.asa.evaluators.code.CodeEvaluator;
import dev.asa.evaluators.code.TestRunner;
import dev.asa.evaluators.judge.JudgeConfig;
import dev.asa.evaluators.judge.LlmJudge;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.function.Supplier;

/**
 * The server's semantic evaluators and how many verifications run at once.
 *
 * @param evaluators evaluator type (as requests name it: {@code embedding}, {@code agent_as_judge})
 *     to a factory of the evaluator, created on first use; empty for structural verification only
 * @param defaultType the type used when a request names none
 * @param workers how many background verifications run at once
 * @param description what is configured, for {@code /admin/config} (no secrets)
 * @param codeTests runs a code deliverable's tests in the code sandbox ({@code asa serve
 *     --code-sandbox on}); {@link TestRunner#NONE} when the server runs no code
 */
public record VerificationConfig(
    Map<String, Supplier<Evaluator>> evaluators,
    String defaultType,
    int workers,
    Map<String, String> description,
    TestRunner codeTests) {

  /** A server that runs no code. */
  public VerificationConfig(
      Map<String, Supplier<Evaluator>> evaluators,
      String defaultType,
      int workers,
      Map<String, String> description) {
    this(evaluators, defaultType, workers, description, TestRunner.NONE);
  }

  /** Structural verification only. */
  public static final VerificationConfig STRUCTURAL_ONLY =
      new VerificationConfig(Map.of(), null, 2, Map.of());

  public VerificationConfig {
    evaluators = Collections.unmodifiableMap(new LinkedHashMap<>(evaluators));
    description = Collections.unmodifiableMap(new LinkedHashMap<>(description));
    Objects.requireNonNull(codeTests, "codeTests (TestRunner.NONE for none)");
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
    evaluators.put(OfferedEvaluators.CODE, Evaluators::code);
    description.put(OfferedEvaluators.CODE, Evaluators.CODE_DESCRIPTION);
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

  /**
   * With the code sandbox: the code evaluator runs the tests the criteria carry through {@code
   * tests}, described as {@code sandbox} in {@code /admin/config}.
   */
  public VerificationConfig withCodeSandbox(TestRunner tests, String sandbox) {
    Map<String, Supplier<Evaluator>> withTests = new LinkedHashMap<>(evaluators);
    if (withTests.containsKey(OfferedEvaluators.CODE)) {
      withTests.put(OfferedEvaluators.CODE, () -> new CodeEvaluator(tests));
    }
    Map<String, String> described = new LinkedHashMap<>(description);
    described.put("code_sandbox", sandbox);
    return new VerificationConfig(withTests, defaultType, workers, described, tests);
  }

  /** Whether this server runs code deliverables' tests (the code sandbox is on). */
  public boolean runsCode() {
    return codeTests != TestRunner.NONE && evaluators.containsKey(OfferedEvaluators.CODE);
  }

  /** The evaluators offered, by type; null when there are none. */
  public OfferedEvaluators offered() {
    return evaluators.isEmpty() ? null : new OfferedEvaluators(evaluators, defaultType, runsCode());
  }
}
