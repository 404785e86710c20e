package dev.asa.server.verification.engine;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.asa.agreement.EvaluatorSettings;
import dev.asa.agreement.InvalidDocumentException;
import dev.asa.agreement.StrictJson;
import dev.asa.evaluators.EvaluationTask;
import dev.asa.evaluators.VerificationEngine.Depth;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * How a verification asks the server's evaluators to work: the {@code verification_config} of a
 * standalone request (section 5.1) or of {@code POST /agreements/{id}/verify}.
 *
 * @param depth null when the request does not say (an agreement's own depth, else semantic)
 * @param evaluators the evaluator types to run, one entry per run; empty for the server's default
 * @param progressive composite depth only: skip semantic evaluation when a structural check fails
 * @param timeoutSeconds how long the evaluation may take; null for the default (the agreement's
 *     evaluator timeout, else 600 s)
 * @param evaluatorSettings {@code evaluator_config} (model, rubric, spot checks, cost cap,
 *     evidence), each member as given, null when not
 */
public record EvaluationConfig(
    Depth depth,
    List<String> evaluators,
    boolean progressive,
    Integer timeoutSeconds,
    EvaluatorSettings evaluatorSettings) {

  public static final EvaluationConfig DEFAULTS =
      new EvaluationConfig(null, List.of(), true, null, EvaluatorSettings.NONE);

  /** Where a request keeps its evaluator settings, for the refusals that name them. */
  public static final String SETTINGS_POINTER = "/verification_config/evaluator_config";

  public EvaluationConfig {
    // Entries may be null (a count of the server's default type), so not List.copyOf.
    evaluators = Collections.unmodifiableList(new ArrayList<>(evaluators));
    evaluatorSettings = evaluatorSettings == null ? EvaluatorSettings.NONE : evaluatorSettings;
  }

  /** The judge model asked for, or null. */
  public String model() {
    return evaluatorSettings.model();
  }

  /** The settings a backend reads, defaults where nothing was said. */
  public EvaluationTask.Options options() {
    EvaluatorSettings s = evaluatorSettings;
    return new EvaluationTask.Options(
        s.rubricId(),
        s.spotCheckClaims() == null ? 0 : s.spotCheckClaims(),
        s.maxCostUsd(),
        s.evidenceCollection() == null || s.evidenceCollection());
  }

  /**
   * This request within an agreement's signed evaluator settings ({@code
   * parties.evaluator.config}): see {@link EvaluatorSettings#narrowedBy} for which wins.
   *
   * @throws dev.asa.agreement.InvalidDocumentException naming the request's member that would
   *     loosen the agreement's settings
   */
  public EvaluationConfig within(EvaluatorSettings agreed) {
    return new EvaluationConfig(
        depth,
        evaluators,
        progressive,
        timeoutSeconds,
        agreed.narrowedBy(evaluatorSettings, SETTINGS_POINTER));
  }

  /** The longest {@code evaluator_timeout_seconds} a request may ask for: one hour. */
  public static final int MAX_TIMEOUT_SECONDS = 3600;

  /** Consensus over more than this many runs costs more than it adds. */
  public static final int MAX_EVALUATORS = 7;

  /** A {@code verification_config} member, strictly: every problem is refused with its pointer. */
  public static EvaluationConfig parse(JsonNode node) {
    String at = "/verification_config";
    ObjectNode c = StrictJson.failFast().object(node, at, "verification_config");
    StrictJson.failFast()
        .allowOnly(
            c,
            at,
            "depth",
            "evaluator_type",
            "evaluators",
            "progressive",
            "evaluator_timeout_seconds",
            "evaluator_config");
    String depthText = StrictJson.failFast().optionalText(c, at, "depth");
    Depth depth = depthText == null ? null : Depth.fromWire(depthText);
    String type = StrictJson.failFast().optionalText(c, at, "evaluator_type");
    List<String> evaluators = new ArrayList<>();
    JsonNode e = c.get("evaluators");
    if (e != null) {
      if (e.isInt()) {
        int n = e.intValue();
        if (n < 1 || n > MAX_EVALUATORS) {
          throw new InvalidDocumentException(
              at + "/evaluators", "must be from 1 to " + MAX_EVALUATORS);
        }
        for (int i = 0; i < n; i++) {
          evaluators.add(type);
        }
      } else if (e.isArray()) {
        if (type != null) {
          throw new InvalidDocumentException(
              at + "/evaluator_type",
              "give either evaluator_type (with a count) or a list of evaluators, not both");
        }
        if (e.isEmpty() || e.size() > MAX_EVALUATORS) {
          throw new InvalidDocumentException(
              at + "/evaluators", "must list 1 to " + MAX_EVALUATORS + " evaluator types");
        }
        for (int i = 0; i < e.size(); i++) {
          if (!e.get(i).isTextual()) {
            throw new InvalidDocumentException(
                at + "/evaluators/" + i,
                "must be an evaluator type such as embedding or agent_as_judge");
          }
          evaluators.add(e.get(i).textValue());
        }
      } else {
        throw new InvalidDocumentException(
            at + "/evaluators",
            "must be a count (1 to " + MAX_EVALUATORS + ") or a list of evaluator types");
      }
    } else if (type != null) {
      evaluators.add(type);
    }
    boolean progressive = true;
    if (c.has("progressive")) {
      if (!c.get("progressive").isBoolean()) {
        throw new InvalidDocumentException(at + "/progressive", "must be true or false");
      }
      progressive = c.get("progressive").booleanValue();
    }
    Integer timeout = null;
    if (c.has("evaluator_timeout_seconds")) {
      JsonNode t = c.get("evaluator_timeout_seconds");
      if (!t.canConvertToInt()
          || !t.isIntegralNumber()
          || t.intValue() < 1
          || t.intValue() > MAX_TIMEOUT_SECONDS) {
        throw new InvalidDocumentException(
            at + "/evaluator_timeout_seconds",
            "must be a whole number of seconds from 1 to " + MAX_TIMEOUT_SECONDS);
      }
      timeout = t.intValue();
    }
    EvaluatorSettings settings = EvaluatorSettings.NONE;
    JsonNode ec = c.get("evaluator_config");
    if (ec != null) {
      String eat = at + "/evaluator_config";
      ObjectNode o = StrictJson.failFast().object(ec, eat, "evaluator_config");
      StrictJson.failFast()
          .allowOnly(
              o,
              eat,
              "model",
              "rubric_id",
              "evidence_collection",
              "spot_check_claims",
              "max_cost_usd");
      String model = StrictJson.failFast().optionalText(o, eat, "model");
      String rubric = StrictJson.failFast().optionalText(o, eat, "rubric_id");
      Integer spot = null;
      if (o.has("spot_check_claims")) {
        JsonNode s = o.get("spot_check_claims");
        if (!s.isIntegralNumber()
            || !s.canConvertToInt()
            || s.intValue() < 0
            || s.intValue() > EvaluatorSettings.MAX_SPOT_CHECK_CLAIMS) {
          throw new InvalidDocumentException(
              eat + "/spot_check_claims",
              "must be a whole number from 0 to " + EvaluatorSettings.MAX_SPOT_CHECK_CLAIMS);
        }
        spot = s.intValue();
      }
      Boolean evidence = null;
      if (o.has("evidence_collection")) {
        if (!o.get("evidence_collection").isBoolean()) {
          throw new InvalidDocumentException(eat + "/evidence_collection", "must be true or false");
        }
        evidence = o.get("evidence_collection").booleanValue();
      }
      settings =
          new EvaluatorSettings(
              model, rubric, spot, nonNegativeDecimal(o, "max_cost_usd", eat), evidence);
    }
    return new EvaluationConfig(depth, evaluators, progressive, timeout, settings);
  }

  /** A number member of at least 0, or null when absent. */
  public static BigDecimal nonNegativeDecimal(ObjectNode o, String field, String at) {
    JsonNode v = o.get(field);
    if (v == null) {
      return null;
    }
    if (!v.isNumber() || v.decimalValue().signum() < 0) {
      throw new InvalidDocumentException(at + "/" + field, "must be a number of at least 0");
    }
    return v.decimalValue();
  }
}
