package dev.asa.scoring;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.asa.agreement.Identity;
import dev.asa.agreement.QualityGate;
import dev.asa.crypto.Digest;
import dev.asa.json.Json;
import java.math.BigDecimal;
import java.time.Instant;
import java.util.List;
import java.util.Locale;
import java.util.Objects;

/**
 * A verification result, field for field as in whitepaper section 5.2, plus the outcome of each
 * quality gate.
 *
 * <p>{@code evidence_trail.evaluation_hash} seals the result: it is the SHA-256 of the RFC 8785
 * canonical form of the result's JSON without that one member. {@link #of} computes it; {@link
 * #evaluationHashMatches} lets anyone holding the JSON check that nothing was changed since.
 *
 * @param agreementId null for a standalone verification
 * @param extensions further top-level members beyond section 5.2 (the consensus of several
 *     evaluators, the shadow score report...), sealed by the evaluation hash like the rest; an
 *     empty object for none. They may not reuse a section 5.2 member's name.
 */
public record VerificationResult(
    String verificationId,
    String agreementId,
    Instant timestamp,
    Evaluator evaluator,
    List<DimensionResult> dimensions,
    CompositeResult composite,
    List<GateResult> qualityGates,
    QualityGate.Logic gateLogic,
    Determination determination,
    EvidenceTrail evidenceTrail,
    ObjectNode extensions) {

  private static final java.util.Set<String> STANDARD_MEMBERS =
      java.util.Set.of(
          "verification_id",
          "agreement_id",
          "timestamp",
          "evaluator",
          "dimensions",
          "composite",
          "quality_gates",
          "gate_logic",
          "determination",
          "evidence_trail");

  public VerificationResult {
    Objects.requireNonNull(verificationId, "verificationId");
    Objects.requireNonNull(timestamp, "timestamp");
    Objects.requireNonNull(evaluator, "evaluator");
    dimensions = List.copyOf(dimensions);
    Objects.requireNonNull(composite, "composite");
    qualityGates = List.copyOf(qualityGates);
    Objects.requireNonNull(gateLogic, "gateLogic");
    Objects.requireNonNull(determination, "determination");
    Objects.requireNonNull(evidenceTrail, "evidenceTrail");
    extensions = extensions == null ? Json.object() : extensions.deepCopy();
    for (String name : (Iterable<String>) extensions::fieldNames) {
      if (STANDARD_MEMBERS.contains(name)) {
        throw new IllegalArgumentException(
            "extension '" + name + "' would overwrite a section 5.2 member");
      }
    }
  }

  @Override
  public ObjectNode extensions() {
    return extensions.deepCopy();
  }

  /**
   * Who evaluated: identity, evaluator type (agent_as_judge, structural...) and model.
   *
   * @param model null when the evaluator is not a model
   */
  public record Evaluator(Identity identity, String type, String model) {
    public Evaluator {
      Objects.requireNonNull(identity, "identity");
      Objects.requireNonNull(type, "type");
    }
  }

  /**
   * What ties the result to the deliverable and to itself.
   *
   * @param evaluationHash the seal of the result (see the class comment)
   * @param evaluationCostUsd null when the cost is not known
   */
  public record EvidenceTrail(
      Digest deliverableHash,
      Digest evaluationHash,
      long evaluationDurationMs,
      BigDecimal evaluationCostUsd) {
    public EvidenceTrail {
      Objects.requireNonNull(deliverableHash, "deliverableHash");
      Objects.requireNonNull(evaluationHash, "evaluationHash");
      if (evaluationDurationMs < 0) {
        throw new IllegalArgumentException("evaluation duration cannot be negative");
      }
    }
  }

  /** A sealed result for a scorecard: the evaluation hash is computed over everything else. */
  public static VerificationResult of(
      String verificationId,
      String agreementId,
      Instant timestamp,
      Evaluator evaluator,
      Scorecard scorecard,
      Digest deliverableHash,
      long evaluationDurationMs,
      BigDecimal evaluationCostUsd) {
    return of(
        verificationId,
        agreementId,
        timestamp,
        evaluator,
        scorecard,
        deliverableHash,
        evaluationDurationMs,
        evaluationCostUsd,
        null);
  }

  /** A sealed result with extension members (see {@link #extensions()}). */
  public static VerificationResult of(
      String verificationId,
      String agreementId,
      Instant timestamp,
      Evaluator evaluator,
      Scorecard scorecard,
      Digest deliverableHash,
      long evaluationDurationMs,
      BigDecimal evaluationCostUsd,
      ObjectNode extensions) {
    // A placeholder hash gives the JSON its shape; it is removed before hashing, as a verifier
    // does.
    Digest placeholder = new Digest(new byte[Digest.LENGTH]);
    VerificationResult unsealed =
        new VerificationResult(
            verificationId,
            agreementId,
            timestamp,
            evaluator,
            scorecard.dimensions(),
            scorecard.composite(),
            scorecard.gates(),
            scorecard.gateLogic(),
            scorecard.determination(),
            new EvidenceTrail(
                deliverableHash, placeholder, evaluationDurationMs, evaluationCostUsd),
            extensions);
    Digest seal = hashWithoutSeal(unsealed.toJson());
    return new VerificationResult(
        verificationId,
        agreementId,
        timestamp,
        evaluator,
        scorecard.dimensions(),
        scorecard.composite(),
        scorecard.gates(),
        scorecard.gateLogic(),
        scorecard.determination(),
        new EvidenceTrail(deliverableHash, seal, evaluationDurationMs, evaluationCostUsd),
        extensions);
  }

  /**
   * Whether {@code evidence_trail.evaluation_hash} of a result's JSON is the SHA-256 of the
   * canonical form of the rest of it. False for anything that is not a result with a well-formed
   * hash, and for any result changed after it was sealed.
   */
  public static boolean evaluationHashMatches(JsonNode resultJson) {
    if (resultJson == null
        || !resultJson.path("evidence_trail").path("evaluation_hash").isTextual()) {
      return false;
    }
    try {
      Digest stated =
          Digest.parse(resultJson.path("evidence_trail").path("evaluation_hash").textValue());
      return stated.equals(hashWithoutSeal(resultJson));
    } catch (IllegalArgumentException e) {
      return false; // a malformed digest, or JSON with no canonical form: it cannot match
    }
  }

  /** Whether this result's own seal matches its content. */
  public boolean evaluationHashMatches() {
    return evaluationHashMatches(toJson());
  }

  private static Digest hashWithoutSeal(JsonNode resultJson) {
    ObjectNode copy = resultJson.deepCopy();
    ((ObjectNode) copy.path("evidence_trail")).remove("evaluation_hash");
    return Digest.ofCanonicalJson(copy);
  }

  /** The wire form of section 5.2, snake_case, numbers plain and without trailing zeros. */
  public JsonNode toJson() {
    ObjectNode root = Json.object();
    root.put("verification_id", verificationId);
    if (agreementId != null) {
      root.put("agreement_id", agreementId);
    }
    root.put("timestamp", timestamp.toString());
    root.set("evaluator", evaluatorJson());
    ArrayNode dims = root.putArray("dimensions");
    dimensions.forEach(d -> dims.add(dimensionJson(d)));
    ObjectNode c = root.putObject("composite");
    c.put("score", Decimals.normalized(composite.score()));
    c.put("method", composite.method().wireName());
    c.put("threshold", Decimals.normalized(composite.threshold()));
    c.put("passed", composite.passed());
    if (!qualityGates.isEmpty()) {
      ArrayNode gates = root.putArray("quality_gates");
      for (GateResult g : qualityGates) {
        gates
            .addObject()
            .put("condition", g.condition())
            .put("passed", g.passed())
            .put("evidence", g.evidence());
      }
      root.put("gate_logic", gateLogic.name().toLowerCase(Locale.ROOT));
    }
    ObjectNode det = root.putObject("determination");
    det.put("result", determination.result());
    det.put("payment_release_percent", Decimals.normalized(determination.paymentReleasePercent()));
    putNumberOrNull(det, "confidence", determination.confidence());
    det.put("notes", determination.notes());
    ObjectNode trail = root.putObject("evidence_trail");
    trail.put("deliverable_hash", evidenceTrail.deliverableHash().toString());
    trail.put("evaluation_hash", evidenceTrail.evaluationHash().toString());
    trail.put("evaluation_duration_ms", evidenceTrail.evaluationDurationMs());
    putNumberOrNull(trail, "evaluation_cost_usd", evidenceTrail.evaluationCostUsd());
    root.setAll(extensions.deepCopy());
    return root;
  }

  private ObjectNode evaluatorJson() {
    ObjectNode e = Json.object();
    e.putObject("identity")
        .put("scheme", evaluator.identity().scheme())
        .put("value", evaluator.identity().value());
    e.put("type", evaluator.type());
    if (evaluator.model() != null) {
      e.put("model", evaluator.model());
    }
    return e;
  }

  private static ObjectNode dimensionJson(DimensionResult d) {
    ObjectNode o = Json.object();
    o.put("name", d.name());
    putNumberOrNull(o, "score", d.score());
    o.set("slo_target", d.sloTarget());
    o.put("slo_met", d.sloMet());
    o.put("evidence", d.evidence());
    ShadowResult s = d.shadow();
    if (s != null) {
      ObjectNode shadow = o.putObject("shadow_metric");
      shadow.put("name", s.name());
      putNumberOrNull(shadow, "value", s.value());
      if (s.sloTarget() == null) {
        shadow.putNull("slo_target");
      } else {
        shadow.set("slo_target", s.sloTarget());
      }
      if (s.sloMet() == null) {
        shadow.putNull("slo_met");
      } else {
        shadow.put("slo_met", s.sloMet());
      }
      if (s.evidence() != null) {
        shadow.put("evidence", s.evidence());
      }
    }
    return o;
  }

  private static void putNumberOrNull(ObjectNode o, String field, BigDecimal value) {
    if (value == null) {
      o.putNull(field);
    } else {
      o.put(field, Decimals.normalized(value));
    }
  }
}
