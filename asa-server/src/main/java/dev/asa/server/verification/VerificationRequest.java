package dev.asa.server.verification;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.asa.agreement.InvalidDocumentException;
import dev.asa.agreement.QualityCriteria;
import dev.asa.agreement.Service;
import dev.asa.agreement.StandaloneCriteria;
import dev.asa.agreement.StrictJson;
import dev.asa.evaluators.EvaluationTask;
import dev.asa.evaluators.VerificationEngine.Depth;
import dev.asa.server.agreements.Delivery;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;

/**
 * A Verification Request (whitepaper 5.1), checked member by member; every error names its field.
 *
 * @param agreementId null for a standalone verification
 * @param delivery the deliverable: inline content (digest computed) or a URL with its digest
 * @param deliverableType section 5.4 type for the default dimensions (general when absent)
 * @param providerModel the model the provider used, if it says (a judge never judges its own model)
 * @param description the original request in words (may be empty)
 * @param constraints the original request's constraints
 * @param criteria the caller's criteria; null to use the type's defaults (or the agreement's)
 * @param config how to verify
 */
public record VerificationRequest(
    String agreementId,
    Delivery delivery,
    String deliverableType,
    String providerModel,
    String description,
    Service.Constraints constraints,
    QualityCriteria criteria,
    Config config) {

  /** The longest {@code evaluator_timeout_seconds} a request may ask for: one hour. */
  public static final int MAX_TIMEOUT_SECONDS = 3600;
  /** Consensus over more than this many runs costs more than it adds. */
  public static final int MAX_EVALUATORS = 7;

  /**
   * @param depth null when the request does not say (an agreement's own depth, else semantic)
   * @param evaluators the evaluator types to run, one entry per run; empty for the server's default
   * @param progressive composite depth only: skip semantic evaluation when a structural check fails
   * @param timeoutSeconds how long the evaluation may take; null for the default (the agreement's
   *     evaluator timeout, else 600 s)
   * @param model the judge model asked for, or null
   */
  public record Config(Depth depth, List<String> evaluators, boolean progressive, Integer timeoutSeconds, String model,
      EvaluationTask.Options options) {
    public static final Config DEFAULTS = new Config(null, List.of(), true, null, null, EvaluationTask.Options.DEFAULTS);
  }

  public boolean isStandalone() {
    return agreementId == null;
  }

  public static VerificationRequest parse(JsonNode body) {
    ObjectNode b = StrictJson.failFast().object(body, "", "a verification request");
    StrictJson.failFast().allowOnly(b, "", "verification_id", "agreement_id", "deliverable", "original_request", "quality_criteria",
        "verification_config");
    if (b.has("verification_id")) {
      throw new InvalidDocumentException("/verification_id", "is chosen by the server; leave it out");
    }
    String agreementId = StrictJson.failFast().optionalText(b, "", "agreement_id");
    String idProblem = agreementId == null ? null : dev.asa.text.ControlCharacters.problemWith(agreementId);
    if (idProblem != null) { // never an agreement's id; PostgreSQL could not even look it up
      throw new InvalidDocumentException("/agreement_id", idProblem);
    }
    JsonNode d = b.get("deliverable");
    if (d == null) {
      throw new InvalidDocumentException("/deliverable", "required: {content} or {content_url, content_hash}, with format and type");
    }
    ObjectNode deliverable = StrictJson.failFast().object(d, "/deliverable", "the deliverable");
    StrictJson.failFast().allowOnly(deliverable, "/deliverable", "content", "content_url", "content_hash", "format", "type", "size_bytes",
        "provider_model");
    Delivery delivery = Delivery.parse(deliverable, "/deliverable");
    if (delivery.content() != null && deliverable.has("size_bytes")
        && deliverable.get("size_bytes").asLong(-1) != delivery.sizeBytes()) {
      throw new InvalidDocumentException("/deliverable/size_bytes", "does not match the content: it is " + delivery.sizeBytes() + " bytes");
    }
    String type = StrictJson.failFast().optionalText(deliverable, "/deliverable", "type");
    if (type != null && !StandaloneCriteria.isKnownType(type)) {
      throw new InvalidDocumentException("/deliverable/type", "'" + type + "' is not a deliverable type; one of "
          + String.join(", ", StandaloneCriteria.TYPES));
    }
    String providerModel = StrictJson.failFast().optionalText(deliverable, "/deliverable", "provider_model");

    String description = "";
    Service.Constraints constraints = Service.Constraints.NONE;
    JsonNode r = b.get("original_request");
    if (r != null) {
      ObjectNode request = StrictJson.failFast().object(r, "/original_request", "original_request");
      StrictJson.failFast().allowOnly(request, "/original_request", "description", "constraints");
      description = StrictJson.failFast().optionalText(request, "/original_request", "description");
      description = description == null ? "" : description;
      JsonNode c = request.get("constraints");
      if (c != null) {
        ObjectNode cons = StrictJson.failFast().object(c, "/original_request/constraints", "constraints");
        StrictJson.failFast().allowOnly(cons, "/original_request/constraints", "max_tokens", "max_duration_seconds", "max_cost_usd");
        constraints = new Service.Constraints(
            positiveLong(cons, "max_tokens", "/original_request/constraints"),
            positiveLong(cons, "max_duration_seconds", "/original_request/constraints"),
            nonNegativeDecimal(cons, "max_cost_usd", "/original_request/constraints"));
      }
    } else if (agreementId == null) {
      throw new InvalidDocumentException("/original_request", "required without an agreement: {description} of what was asked for");
    }
    if (agreementId == null && description.isBlank()) {
      throw new InvalidDocumentException("/original_request/description", "required without an agreement: what was asked for, in words");
    }
    QualityCriteria criteria = null;
    if (b.has("quality_criteria")) {
      if (agreementId != null) {
        throw new InvalidDocumentException("/quality_criteria", "an agreement's verification uses the agreement's criteria; leave it out");
      }
      criteria = StandaloneCriteria.parse(b.get("quality_criteria"));
    }
    Config config = b.has("verification_config") ? config(b.get("verification_config")) : Config.DEFAULTS;
    return new VerificationRequest(agreementId, delivery, type == null ? "general" : type, providerModel, description,
        constraints, criteria, config);
  }

  /** A {@code verification_config} on its own (as in {@code POST /agreements/{id}/verify}). */
  public static Config parseConfig(JsonNode node) {
    return config(node);
  }

  private static Config config(JsonNode node) {
    String at = "/verification_config";
    ObjectNode c = StrictJson.failFast().object(node, at, "verification_config");
    StrictJson.failFast().allowOnly(c, at, "depth", "evaluator_type", "evaluators", "progressive", "evaluator_timeout_seconds", "evaluator_config");
    String depthText = StrictJson.failFast().optionalText(c, at, "depth");
    Depth depth = depthText == null ? null : Depth.fromWire(depthText);
    String type = StrictJson.failFast().optionalText(c, at, "evaluator_type");
    List<String> evaluators = new ArrayList<>();
    JsonNode e = c.get("evaluators");
    if (e != null) {
      if (e.isInt()) {
        int n = e.intValue();
        if (n < 1 || n > MAX_EVALUATORS) {
          throw new InvalidDocumentException(at + "/evaluators", "must be from 1 to " + MAX_EVALUATORS);
        }
        for (int i = 0; i < n; i++) {
          evaluators.add(type);
        }
      } else if (e.isArray()) {
        if (type != null) {
          throw new InvalidDocumentException(at + "/evaluator_type", "give either evaluator_type (with a count) or a list of evaluators, not both");
        }
        if (e.isEmpty() || e.size() > MAX_EVALUATORS) {
          throw new InvalidDocumentException(at + "/evaluators", "must list 1 to " + MAX_EVALUATORS + " evaluator types");
        }
        for (int i = 0; i < e.size(); i++) {
          if (!e.get(i).isTextual()) {
            throw new InvalidDocumentException(at + "/evaluators/" + i, "must be an evaluator type such as embedding or agent_as_judge");
          }
          evaluators.add(e.get(i).textValue());
        }
      } else {
        throw new InvalidDocumentException(at + "/evaluators", "must be a count (1 to " + MAX_EVALUATORS + ") or a list of evaluator types");
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
      if (!t.canConvertToInt() || !t.isIntegralNumber() || t.intValue() < 1 || t.intValue() > MAX_TIMEOUT_SECONDS) {
        throw new InvalidDocumentException(at + "/evaluator_timeout_seconds", "must be a whole number of seconds from 1 to " + MAX_TIMEOUT_SECONDS);
      }
      timeout = t.intValue();
    }
    String model = null;
    EvaluationTask.Options options = EvaluationTask.Options.DEFAULTS;
    JsonNode ec = c.get("evaluator_config");
    if (ec != null) {
      String eat = at + "/evaluator_config";
      ObjectNode o = StrictJson.failFast().object(ec, eat, "evaluator_config");
      StrictJson.failFast().allowOnly(o, eat, "model", "rubric_id", "evidence_collection", "spot_check_claims", "max_cost_usd");
      model = StrictJson.failFast().optionalText(o, eat, "model");
      String rubric = StrictJson.failFast().optionalText(o, eat, "rubric_id");
      int spot = 0;
      if (o.has("spot_check_claims")) {
        JsonNode s = o.get("spot_check_claims");
        if (!s.isIntegralNumber() || s.intValue() < 0 || s.intValue() > 20) {
          throw new InvalidDocumentException(eat + "/spot_check_claims", "must be a whole number from 0 to 20");
        }
        spot = s.intValue();
      }
      boolean evidence = true;
      if (o.has("evidence_collection")) {
        if (!o.get("evidence_collection").isBoolean()) {
          throw new InvalidDocumentException(eat + "/evidence_collection", "must be true or false");
        }
        evidence = o.get("evidence_collection").booleanValue();
      }
      options = new EvaluationTask.Options(rubric, spot, nonNegativeDecimal(o, "max_cost_usd", eat), evidence);
    }
    return new Config(depth, evaluators, progressive, timeout, model, options);
  }

  private static Long positiveLong(ObjectNode o, String field, String at) {
    JsonNode v = o.get(field);
    if (v == null) {
      return null;
    }
    if (!v.isIntegralNumber() || !v.canConvertToLong() || v.longValue() < 1) {
      throw new InvalidDocumentException(at + "/" + field, "must be a whole number of at least 1");
    }
    return v.longValue();
  }

  private static BigDecimal nonNegativeDecimal(ObjectNode o, String field, String at) {
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
