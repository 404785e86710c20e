package dev.asa.client;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.math.BigDecimal;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * A verification result (whitepaper section 5.2), as {@code GET /agreements/{id}/verification},
 * {@code GET /verifications/{id}} and a verify answer give it: the determination, the composite,
 * one entry per dimension with its shadow metric, the quality gates, the evaluator and the evidence
 * trail.
 *
 * <p>Named {@code VerificationView} rather than {@code VerificationResult} so that it never has to
 * be told apart from asa-core's {@code dev.asa.scoring.VerificationResult}, which is the server's
 * own, complete model.
 *
 * @param verificationId the result's id
 * @param agreementId the agreement it belongs to; empty for a standalone verification
 * @param evaluator who judged, when the result says
 * @param result the determination as the server words it, {@code PASS} or {@code FAIL}
 * @param passed whether the determination is PASS
 * @param releasePercent the share of the payment released to the provider, 0 to 100
 * @param confidence each dimension's confidence averaged by its weight, when there is one
 * @param notes the determination's notes; empty when it has none
 * @param composite the composite score against its threshold
 * @param dimensions one entry per quality dimension, in the criteria's order
 * @param gates the quality gates, in the criteria's order; empty when the criteria have none
 * @param evidenceTrail what the result rests on, when the result gives it
 * @param json the whole result, a copy, for members this type does not name
 */
public record VerificationView(
    String verificationId,
    Optional<String> agreementId,
    Optional<Evaluator> evaluator,
    String result,
    boolean passed,
    BigDecimal releasePercent,
    Optional<BigDecimal> confidence,
    String notes,
    Composite composite,
    List<Dimension> dimensions,
    List<Gate> gates,
    Optional<EvidenceTrail> evidenceTrail,
    ObjectNode json) {

  private static final String WHAT = "a verification result";

  /** Checks that nothing is null and keeps private copies. */
  public VerificationView {
    Objects.requireNonNull(verificationId, "verificationId");
    Objects.requireNonNull(agreementId, "agreementId");
    Objects.requireNonNull(evaluator, "evaluator");
    Objects.requireNonNull(result, "result");
    Objects.requireNonNull(releasePercent, "releasePercent");
    Objects.requireNonNull(confidence, "confidence");
    Objects.requireNonNull(notes, "notes");
    Objects.requireNonNull(composite, "composite");
    dimensions = List.copyOf(dimensions);
    gates = List.copyOf(gates);
    Objects.requireNonNull(evidenceTrail, "evidenceTrail");
    json = Objects.requireNonNull(json, "json").deepCopy();
  }

  /**
   * The composite score ({@code composite}).
   *
   * @param score the weighted score, 0 to 100
   * @param threshold what it had to reach
   * @param passed whether it did
   * @param method how the dimensions were combined, e.g. {@code weighted_average}; empty if not
   *     stated
   */
  public record Composite(
      BigDecimal score, BigDecimal threshold, boolean passed, Optional<String> method) {

    /** Checks that nothing is null. */
    public Composite {
      Objects.requireNonNull(score, "score");
      Objects.requireNonNull(threshold, "threshold");
      Objects.requireNonNull(method, "method");
    }
  }

  /**
   * One quality dimension of the result.
   *
   * @param name the dimension's name, e.g. {@code accuracy}
   * @param score its score; empty when nobody evaluated it (then {@link #evidence()} says why)
   * @param sloTarget the target of the dimension's SLO, when it has one
   * @param sloMet whether the score meets the dimension's SLO; false when it was not evaluated
   * @param evidence what the evaluator gave as evidence, or why the dimension was not evaluated;
   *     empty when there is none
   * @param shadow the dimension's shadow metric, when the criteria give it one
   */
  public record Dimension(
      String name,
      Optional<BigDecimal> score,
      Optional<Target> sloTarget,
      boolean sloMet,
      String evidence,
      Optional<Shadow> shadow) {

    /** Checks that nothing is null. */
    public Dimension {
      Objects.requireNonNull(name, "name");
      Objects.requireNonNull(score, "score");
      Objects.requireNonNull(sloTarget, "sloTarget");
      Objects.requireNonNull(evidence, "evidence");
      Objects.requireNonNull(shadow, "shadow");
    }

    /**
     * Whether the dimension has a score. A dimension that was not evaluated did not miss its SLO:
     * nobody looked at it.
     *
     * @return true when {@link #score()} is present
     */
    public boolean evaluated() {
      return score.isPresent();
    }
  }

  /**
   * The target of an SLO ({@code slo_target}): a number, a flag, a range or, for a text metric, a
   * text.
   */
  public sealed interface Target {

    /**
     * A number to reach, e.g. {@code 85}.
     *
     * @param value the number
     */
    record Threshold(BigDecimal value) implements Target {

      /** Checks that nothing is null. */
      public Threshold {
        Objects.requireNonNull(value, "value");
      }
    }

    /**
     * A flag to match, e.g. {@code true} for timeliness.
     *
     * @param value the flag
     */
    record Flag(boolean value) implements Target {}

    /**
     * A range to fall in, both ends included.
     *
     * @param low the lower end
     * @param high the upper end
     */
    record Range(BigDecimal low, BigDecimal high) implements Target {

      /** Checks that nothing is null. */
      public Range {
        Objects.requireNonNull(low, "low");
        Objects.requireNonNull(high, "high");
      }
    }

    /**
     * A text to match.
     *
     * @param value the text
     */
    record Text(String value) implements Target {

      /** Checks that nothing is null. */
      public Text {
        Objects.requireNonNull(value, "value");
      }
    }

    /**
     * Reads a target as the server writes it.
     *
     * @param t the target's JSON
     * @return the target, or empty for an absent or null target and for one of no kind above
     */
    static Optional<Target> from(JsonNode t) {
      if (t.isNumber()) {
        return Optional.of(new Threshold(t.decimalValue()));
      }
      if (t.isBoolean()) {
        return Optional.of(new Flag(t.asBoolean()));
      }
      if (t.isArray() && t.size() == 2 && t.get(0).isNumber() && t.get(1).isNumber()) {
        return Optional.of(new Range(t.get(0).decimalValue(), t.get(1).decimalValue()));
      }
      if (t.isTextual()) {
        return Optional.of(new Text(t.asText()));
      }
      return Optional.empty();
    }
  }

  /**
   * A dimension's shadow metric ({@code shadow_metric}): measured alongside the score, it may hold
   * the verdict back but never raises it.
   *
   * @param name the metric, e.g. {@code hallucination_rate}
   * @param value what was measured; empty when it could not be
   * @param sloTarget its target, when it has one
   * @param sloMet whether the value meets the target; empty when there is nothing to compare
   */
  public record Shadow(
      String name,
      Optional<BigDecimal> value,
      Optional<Target> sloTarget,
      Optional<Boolean> sloMet) {

    /** Checks that nothing is null. */
    public Shadow {
      Objects.requireNonNull(name, "name");
      Objects.requireNonNull(value, "value");
      Objects.requireNonNull(sloTarget, "sloTarget");
      Objects.requireNonNull(sloMet, "sloMet");
    }

    static Shadow from(JsonNode s) {
      return new Shadow(
          Members.text(s, "name", "a shadow metric of " + WHAT),
          Members.optionalDecimal(s, "value"),
          Target.from(s.path("slo_target")),
          Members.optionalBool(s, "slo_met"));
    }
  }

  /**
   * One quality gate ({@code quality_gates}).
   *
   * @param condition the gate's condition, e.g. {@code accuracy_gte_60}
   * @param passed whether it held
   * @param evidence why; empty when not stated
   */
  public record Gate(String condition, boolean passed, String evidence) {

    /** Checks that nothing is null. */
    public Gate {
      Objects.requireNonNull(condition, "condition");
      Objects.requireNonNull(evidence, "evidence");
    }

    static Gate from(JsonNode g) {
      String what = "a quality gate of " + WHAT;
      return new Gate(
          Members.text(g, "condition", what),
          Members.bool(g, "passed", what),
          Members.optionalText(g, "evidence").orElse(""));
    }
  }

  /**
   * Who judged ({@code evaluator}).
   *
   * @param type e.g. {@code agent_as_judge}, {@code embedding}, {@code structural}
   * @param model the model that judged, when one did and it is named
   */
  public record Evaluator(String type, Optional<String> model) {

    /** Checks that nothing is null. */
    public Evaluator {
      Objects.requireNonNull(type, "type");
      Objects.requireNonNull(model, "model");
    }

    static Evaluator from(JsonNode e) {
      return new Evaluator(
          Members.text(e, "type", "the evaluator of " + WHAT), Members.optionalText(e, "model"));
    }
  }

  /**
   * What the result rests on ({@code evidence_trail}).
   *
   * @param deliverableHash {@code sha256:...} of the deliverable judged
   * @param evaluationDurationMs how long the evaluation took, when stated
   * @param evaluationCostUsd what it cost, when known
   */
  public record EvidenceTrail(
      String deliverableHash,
      Optional<Long> evaluationDurationMs,
      Optional<BigDecimal> evaluationCostUsd) {

    /** Checks that nothing is null. */
    public EvidenceTrail {
      Objects.requireNonNull(deliverableHash, "deliverableHash");
      Objects.requireNonNull(evaluationDurationMs, "evaluationDurationMs");
      Objects.requireNonNull(evaluationCostUsd, "evaluationCostUsd");
    }

    static EvidenceTrail from(JsonNode t) {
      String what = "the evidence trail of " + WHAT;
      return new EvidenceTrail(
          Members.text(t, "deliverable_hash", what),
          Members.optionalInteger(t, "evaluation_duration_ms"),
          Members.optionalDecimal(t, "evaluation_cost_usd"));
    }
  }

  /**
   * Reads a result.
   *
   * @param result a section 5.2 result
   * @return the view
   * @throws IllegalArgumentException if a member named above is missing or of the wrong kind (a
   *     verification job still running has no {@code determination}); the message names it
   */
  public static VerificationView from(JsonNode result) {
    ObjectNode o = Members.object(result, WHAT);
    if (AsaClient.isPending(o)) {
      throw new IllegalArgumentException(
          "verification "
              + o.path("verification_id").asText("?")
              + " is still "
              + o.path("status").asText()
              + ", so there is no result to read yet; wait for it with"
              + " AsaClient.awaitVerification");
    }
    ObjectNode determination = Members.child(o, "determination", WHAT);
    ObjectNode composite = Members.child(o, "composite", WHAT);
    String what = WHAT + "'s composite";
    List<Dimension> dimensions =
        Members.objects(o, "dimensions", WHAT).stream()
            .map(d ->
                new Dimension(
                    Members.text(d, "name", "a dimension of " + WHAT),
                    Members.optionalDecimal(d, "score"),
                    Target.from(d.path("slo_target")),
                    d.path("slo_met").asBoolean(false),
                    Members.optionalText(d, "evidence").orElse(""),
                    Members.optionalChild(d, "shadow_metric").map(Shadow::from)))
            .toList();
    String verdict = Members.text(determination, "result", WHAT + "'s determination");
    return new VerificationView(
        Members.text(o, "verification_id", WHAT),
        Members.optionalText(o, "agreement_id"),
        Members.optionalChild(o, "evaluator").map(Evaluator::from),
        verdict,
        "PASS".equals(verdict),
        Members.decimal(determination, "payment_release_percent", WHAT + "'s determination"),
        Members.optionalDecimal(determination, "confidence"),
        Members.optionalText(determination, "notes").orElse(""),
        new Composite(
            Members.decimal(composite, "score", what),
            Members.decimal(composite, "threshold", what),
            Members.bool(composite, "passed", what),
            Members.optionalText(composite, "method")),
        dimensions,
        Members.objects(o, "quality_gates", WHAT).stream().map(Gate::from).toList(),
        Members.optionalChild(o, "evidence_trail").map(EvidenceTrail::from),
        o);
  }

  /**
   * The dimension called {@code name}.
   *
   * @param name a dimension's name, e.g. {@code accuracy}
   * @return it, or empty when the result has no such dimension
   */
  public Optional<Dimension> dimension(String name) {
    return dimensions.stream().filter(d -> d.name().equals(name)).findFirst();
  }

  /**
   * The whole result, a copy: change it freely.
   *
   * @return the result as received
   */
  @Override
  public ObjectNode json() {
    return json.deepCopy();
  }
}
