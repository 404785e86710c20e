package dev.asa.server.verification.engine;

import dev.asa.agreement.InvalidDocumentException;
import dev.asa.evaluators.Evaluator;
import dev.asa.evaluators.VerificationEngine;
import dev.asa.evaluators.VerificationEngine.Depth;
import dev.asa.server.metrics.Metrics;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * The semantic evaluators this server offers, by the type a request names ({@code
 * verification_config.evaluator_type}, or each entry of {@code evaluators}): the offline {@code
 * embedding} model and {@code code} static checks always, an {@code agent_as_judge} when the
 * operator configured one. Evaluators are created on first use (the embedding model takes a moment
 * to load) and shared.
 */
public final class OfferedEvaluators {

  private final Map<String, Lazy> byType = new LinkedHashMap<>();
  private final String defaultType;
  private final boolean runsCode;

  /** Evaluators that run no code. */
  public OfferedEvaluators(Map<String, Supplier<Evaluator>> evaluators, String defaultType) {
    this(evaluators, defaultType, false);
  }

  /**
   * @param evaluators type to a factory of its evaluator, in the order listed to callers
   * @param defaultType the type used when a request names none
   * @param runsCode whether its code evaluator runs tests in the code sandbox
   */
  public OfferedEvaluators(
      Map<String, Supplier<Evaluator>> evaluators, String defaultType, boolean runsCode) {
    this.runsCode = runsCode;
    evaluators.forEach((type, factory) -> byType.put(type, new Lazy(factory)));
    if (!byType.containsKey(defaultType)) {
      throw new IllegalArgumentException(
          "default evaluator type '" + defaultType + "' is not among " + byType.keySet());
    }
    this.defaultType = defaultType;
  }

  /**
   * These evaluators with each evaluator's latency recorded by {@code metrics}, by evaluator type
   * (the composition root wraps the configured ones once).
   */
  public OfferedEvaluators timed(Metrics metrics) {
    Map<String, Supplier<Evaluator>> wrapped = new LinkedHashMap<>();
    byType.forEach(
        (type, lazy) -> wrapped.put(type, () -> new TimedEvaluator(lazy.get(), metrics)));
    return new OfferedEvaluators(wrapped, defaultType, runsCode);
  }

  /** The evaluator of a type, created on first use; empty when this server does not offer it. */
  public Optional<Supplier<Evaluator>> evaluator(String type) {
    Lazy lazy = byType.get(type);
    return lazy == null ? Optional.empty() : Optional.of(lazy::get);
  }

  /**
   * Whether code deliverables' tests run here ({@code asa serve --code-sandbox on}): criteria that
   * carry tests are refused on a server where they never would.
   */
  public boolean runsCode() {
    return runsCode;
  }

  /**
   * Refuses tests at {@code pointer} when {@code offered} (null: no semantic evaluators) runs no
   * code: they would never run, and a {@code tests_pass} gate could never pass.
   */
  public static void requireRunsCode(OfferedEvaluators offered, String pointer) {
    if (offered == null || !offered.runsCode()) {
      throw new InvalidDocumentException(
          pointer,
          "this server runs no code (its operator has not turned the code sandbox on: asa serve"
              + " --code-sandbox on), so these tests would never run and a tests_pass gate could"
              + " never pass; leave tests out, or use a server that runs them");
    }
  }

  /** The type of the offline code evaluator. */
  public static final String CODE = "code";

  /** The type that runs when a request names none, for code or for anything else. */
  public String defaultTypeFor(boolean code) {
    return code && byType.containsKey(CODE) && defaultType.equals("embedding") ? CODE : defaultType;
  }

  public List<String> types() {
    return List.copyOf(byType.keySet());
  }

  public String defaultType() {
    return defaultType;
  }

  /**
   * The plan for a request: its depth (or {@code fallback}) and one evaluator per requested run.
   *
   * @throws InvalidDocumentException naming the field, for an evaluator type this server does not
   *     offer or a judge model other than the configured one
   */
  public VerificationEngine.Plan plan(EvaluationConfig config, Depth fallback) {
    return plan(config, fallback, EvaluationConfig.SETTINGS_POINTER + "/model");
  }

  /**
   * As {@link #plan(EvaluationConfig, Depth)}, for a config whose judge model may come from
   * elsewhere than the request (an agreement's {@code parties.evaluator.config}).
   *
   * @param modelAt where the config's model was given, named when this server does not run it
   */
  public VerificationEngine.Plan plan(EvaluationConfig config, Depth fallback, String modelAt) {
    return plan(config, fallback, modelAt, false);
  }

  /**
   * As {@link #plan(EvaluationConfig, Depth, String)}, knowing whether the deliverable is code
   * ({@code dev.asa.evaluators.code.CodeDeliverables#isCode}): then the default, where the request
   * names no evaluator, is the {@value #CODE} evaluator instead of the embedding model, which reads
   * only prose and judges none of code's dimensions. A configured judge stays the default: it reads
   * code too, and can judge correctness without tests.
   */
  public VerificationEngine.Plan plan(
      EvaluationConfig config, Depth fallback, String modelAt, boolean code) {
    Depth depth = config.depth() != null ? config.depth() : fallback;
    if (depth == Depth.STRUCTURAL) {
      return VerificationEngine.Plan.structural();
    }
    String fallbackType = defaultTypeFor(code);
    List<String> types =
        config.evaluators().isEmpty() ? List.of(fallbackType) : config.evaluators();
    List<Evaluator> runs = new ArrayList<>();
    for (int i = 0; i < types.size(); i++) {
      String type = types.get(i) == null ? fallbackType : types.get(i);
      Lazy lazy = byType.get(type);
      if (lazy == null) {
        String at =
            config.evaluators().size() > 1
                    && types.get(i) != null
                    && !types.stream().allMatch(type::equals)
                ? "/verification_config/evaluators/" + i
                : "/verification_config/evaluator_type";
        throw new InvalidDocumentException(
            at,
            "this server has no '"
                + type
                + "' evaluator; it offers "
                + String.join(", ", byType.keySet()));
      }
      runs.add(lazy.get());
    }
    if (config.model() != null) {
      boolean served = runs.stream().anyMatch(e -> config.model().equalsIgnoreCase(modelOf(e)));
      if (!served) {
        throw new InvalidDocumentException(
            modelAt,
            "this server's evaluators do not run '"
                + config.model()
                + (modelAt.startsWith(EvaluationConfig.SETTINGS_POINTER)
                    ? "'; leave model out to use the configured one"
                    : "', the judge model the agreement fixes; its evaluator submits its own"
                        + " result instead"));
      }
    }
    return new VerificationEngine.Plan(depth, runs, config.progressive());
  }

  /**
   * Refuses, before anything runs, a plan with a judge that runs the provider's declared model:
   * models rate their own output higher (whitepaper 5.6). The judge would refuse once its job ran;
   * refusing the request itself tells the caller at once, and which choice to change.
   *
   * @param providerModel the model the provider declared, or null (then nothing to refuse)
   * @param at the member that chose the judge: its model, or the evaluator type
   * @param declaredAt where the provider declared its model, for the message
   */
  public void requireNotSelfJudging(
      VerificationEngine.Plan plan, String providerModel, String at, String declaredAt) {
    if (providerModel == null) {
      return;
    }
    for (Evaluator e : plan.semantic()) {
      if (e.runsModel(providerModel)) {
        throw new InvalidDocumentException(
            at,
            "the judge "
                + e.id()
                + " runs the provider's own model ('"
                + providerModel
                + "', "
                + declaredAt
                + "); models rate their own output higher, so another evaluator must judge this"
                + " deliverable: this server offers "
                + String.join(", ", byType.keySet()));
      }
    }
  }

  /** The model part of an evaluator's id ({@code openai/gpt-4o-mini} runs {@code gpt-4o-mini}). */
  private static String modelOf(Evaluator e) {
    String id = e.id();
    return id.contains("/") ? id.substring(id.indexOf('/') + 1) : id;
  }

  private static final class Lazy {
    private final Supplier<Evaluator> factory;
    private volatile Evaluator instance;

    Lazy(Supplier<Evaluator> factory) {
      this.factory = Objects.requireNonNull(factory);
    }

    Evaluator get() {
      Evaluator e = instance;
      if (e == null) {
        synchronized (this) {
          e = instance;
          if (e == null) {
            instance = e = factory.get();
          }
        }
      }
      return e;
    }
  }
}
