package dev.asa.evaluators;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.asa.agreement.InvalidDocumentException;
import dev.asa.json.Json;
import dev.asa.scoring.CheckResult;
import dev.asa.scoring.DimensionInput;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;

/**
 * Runs the evaluators a verification asks for, in the order of whitepaper 5.3, and merges what they
 * found into one input per dimension.
 *
 * <ul>
 *   <li>{@code structural}: the structural checks only;
 *   <li>{@code semantic}: the structural checks, then every semantic evaluator of the plan (several
 *       of them, or the same one several times, are combined by {@link Consensus});
 *   <li>{@code composite}: the same, progressively when the plan says so: when a structural check
 *       fails, the semantic evaluators are not called at all and every dimension they would have
 *       judged scores 0 with evidence saying why (a deliverable in the wrong shape earns nothing
 *       for its content; this is what makes progressive verification cheap).
 * </ul>
 *
 * <p>What the structural evaluator measures (format, timeliness) always wins: it is exact, and a
 * model's opinion of a deadline is not evidence.
 */
public final class VerificationEngine {

  /** Verification depth (section 5.3). */
  public enum Depth {
    STRUCTURAL,
    SEMANTIC,
    COMPOSITE;

    public static Depth fromWire(String name) {
      for (Depth d : values()) {
        if (d.wireName().equals(name)) {
          return d;
        }
      }
      throw new InvalidDocumentException(
          "/verification_config/depth",
          "'" + name + "' is not a depth; one of structural, semantic, composite");
    }

    public String wireName() {
      return name().toLowerCase(Locale.ROOT);
    }
  }

  /**
   * What to run.
   *
   * @param semantic the semantic evaluators, one entry per independent run (an evaluator listed
   *     three times runs three times); empty only for {@link Depth#STRUCTURAL}
   * @param progressive in composite depth, skip the semantic evaluators when a structural check
   *     fails
   */
  public record Plan(Depth depth, List<Evaluator> semantic, boolean progressive) {
    public Plan {
      Objects.requireNonNull(depth, "depth");
      semantic = List.copyOf(semantic);
      if (depth != Depth.STRUCTURAL && semantic.isEmpty()) {
        throw new IllegalArgumentException(
            depth.wireName() + " verification needs at least one semantic evaluator");
      }
    }

    public static Plan structural() {
      return new Plan(Depth.STRUCTURAL, List.of(), false);
    }
  }

  /**
   * What the evaluators found.
   *
   * @param inputs one per dimension of the criteria, in their order
   * @param checks the structural checks (and any a semantic evaluator ran)
   * @param evaluations every evaluation that finished, structural first
   * @param failures what each failed semantic run said (the others still counted)
   * @param usage tokens and cost of all runs
   * @param details the result's {@code verification} member: depth, evaluators, consensus, skipped
   */
  public record Assessment(
      Map<String, DimensionInput> inputs,
      Map<String, CheckResult> checks,
      List<Evaluation> evaluations,
      List<String> failures,
      Evaluation.Usage usage,
      ObjectNode details) {

    /**
     * {@code structural}, the one semantic type used, or {@code composite} when several kinds
     * judged.
     */
    public String evaluatorType() {
      LinkedHashSet<String> types = new LinkedHashSet<>();
      evaluations.stream()
          .map(Evaluation::type)
          .filter(t -> !t.equals("structural"))
          .forEach(types::add);
      return types.isEmpty() ? "structural" : types.size() == 1 ? types.getFirst() : "composite";
    }

    /** The models that judged, comma-separated; null when no model did. */
    public String models() {
      LinkedHashSet<String> models = new LinkedHashSet<>();
      evaluations.stream().map(Evaluation::model).filter(Objects::nonNull).forEach(models::add);
      return models.isEmpty() ? null : String.join(", ", models);
    }
  }

  private final StructuralEvaluator structural;

  public VerificationEngine(StructuralEvaluator structural) {
    this.structural = Objects.requireNonNull(structural, "structural");
  }

  /**
   * Evaluates the task as planned.
   *
   * @throws EvaluationException when more than half of the semantic runs failed (the first
   *     failure's reason and every message), so a result never rests on a minority of evaluators
   */
  public Assessment assess(EvaluationTask task, Plan plan) throws EvaluationException {
    Progress progress = task.progress();
    int steps = 1 + plan.semantic().size();
    progress.update("structural checks", 0, steps);
    Evaluation measured = structural.evaluate(task);
    List<Evaluation> evaluations = new ArrayList<>(List.of(measured));
    ObjectNode details = Json.object();
    details.put("depth", plan.depth().wireName());
    Map<String, CheckResult> checks = new LinkedHashMap<>(measured.checks());

    if (plan.depth() == Depth.STRUCTURAL) {
      progress.update("done", steps, steps);
      details.putArray("evaluators").add(measured.evaluatorId());
      return new Assessment(
          measured.dimensions(), checks, evaluations, List.of(), measured.usage(), details);
    }
    List<String> failedChecks =
        measured.checks().entrySet().stream()
            .filter(e -> !e.getValue().passed())
            .map(Map.Entry::getKey)
            .toList();
    if (plan.depth() == Depth.COMPOSITE && plan.progressive() && !failedChecks.isEmpty()) {
      progress.update("done: structural checks failed, semantic evaluation skipped", steps, steps);
      String why =
          "not judged: the structural check"
              + (failedChecks.size() == 1 ? " " : "s ")
              + String.join(", ", failedChecks)
              + " failed, so progressive verification skipped the semantic evaluators and gives no credit for content";
      Map<String, DimensionInput> inputs = new LinkedHashMap<>();
      measured
          .dimensions()
          .forEach((name, input) ->
              inputs.put(
                  name,
                  input.isEvaluated()
                      ? input
                      : new DimensionInput(
                          name, BigDecimal.ZERO, why, null, null, BigDecimal.ONE, "progressive")));
      details.putArray("evaluators").add(measured.evaluatorId());
      details.put("semantic_skipped", why);
      return new Assessment(inputs, checks, evaluations, List.of(), measured.usage(), details);
    }

    List<Evaluation> semantic = new ArrayList<>();
    List<String> failures = new ArrayList<>();
    EvaluationException firstFailure = null;
    for (int i = 0; i < plan.semantic().size(); i++) {
      Evaluator evaluator = plan.semantic().get(i);
      int step = i + 1;
      String prefix =
          plan.semantic().size() == 1
              ? evaluator.id()
              : evaluator.id() + " (" + step + " of " + plan.semantic().size() + ")";
      progress.update(prefix, step, steps);
      EvaluationTask own =
          task.withProgress(
              (stage, done, total) -> progress.update(prefix + ": " + stage, step, steps));
      try {
        semantic.add(evaluator.evaluate(own));
      } catch (EvaluationException e) {
        failures.add(evaluator.id() + ": " + e.getMessage());
        firstFailure = firstFailure == null ? e : firstFailure;
      }
      if (Thread.currentThread().isInterrupted()) {
        throw new EvaluationException(
            EvaluationException.Reason.UNAVAILABLE,
            "the evaluation was cancelled (its time ran out)");
      }
    }
    if (semantic.isEmpty() || failures.size() * 2 > plan.semantic().size()) {
      throw new EvaluationException(
          firstFailure.reason(), String.join("; ", failures), firstFailure);
    }
    evaluations.addAll(semantic);
    semantic.forEach(e -> e.checks().forEach(checks::putIfAbsent));

    Consensus.Combined combined = Consensus.combine(task.criteria(), semantic);
    Map<String, DimensionInput> inputs = new LinkedHashMap<>();
    measured
        .dimensions()
        .forEach((name, input) ->
            inputs.put(name, input.isEvaluated() ? input : combined.inputs().get(name)));
    Evaluation.Usage usage =
        evaluations.stream()
            .map(Evaluation::usage)
            .reduce(Evaluation.Usage.FREE, Evaluation.Usage::plus);

    ArrayNode ids = details.putArray("evaluators");
    evaluations.forEach(e -> ids.add(e.evaluatorId()));
    if (combined.report() != null) {
      details.set("consensus", combined.report());
    }
    if (!failures.isEmpty()) {
      ArrayNode f = details.putArray("failed_evaluators");
      failures.forEach(f::add);
    }
    progress.update("done", steps, steps);
    return new Assessment(inputs, checks, evaluations, failures, usage, details);
  }
}
