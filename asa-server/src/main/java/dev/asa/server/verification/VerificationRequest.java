package dev.asa.server.verification;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.asa.agreement.CodeTests;
import dev.asa.agreement.InvalidDocumentException;
import dev.asa.agreement.QualityCriteria;
import dev.asa.agreement.Service;
import dev.asa.agreement.StrictJson;
import dev.asa.document.StandaloneCriteria;
import dev.asa.evaluators.Language;
import dev.asa.evaluators.code.CodeDeliverables;
import dev.asa.server.verification.engine.EvaluationConfig;
import dev.asa.server.work.Delivery;
import dev.asa.text.ControlCharacters;

/**
 * A Verification Request (whitepaper 5.1), checked member by member; every error names its field.
 *
 * @param agreementId null for a standalone verification
 * @param delivery the deliverable: inline content (digest computed) or a URL with its digest
 * @param deliverableType section 5.4 type for the default dimensions (general when absent), or
 *     {@code code/<lang>}
 * @param providerModel the model the provider used, if it says (a judge never judges its own model)
 * @param description the original request in words (may be empty)
 * @param constraints the original request's constraints
 * @param criteria the caller's criteria; null to use the type's defaults (or the agreement's)
 * @param config how to verify
 * @param tests the tests a code deliverable must pass ({@code original_request.tests}); null for
 *     none
 * @param verificationId the identifier the caller chose ({@code verification_id}, section 5.1), or
 *     null for one the server chooses
 * @param agreementCriteria the {@code quality_criteria} sent beside {@code agreement_id}, as sent
 *     (they must equal the agreement's), or null
 */
public record VerificationRequest(
    String verificationId,
    JsonNode agreementCriteria,
    String agreementId,
    Delivery delivery,
    String deliverableType,
    String providerModel,
    String description,
    Service.Constraints constraints,
    QualityCriteria criteria,
    EvaluationConfig config,
    CodeTests tests) {

  /** A caller-chosen {@code verification_id}: what the server's own ids look like, and no more. */
  private static final java.util.regex.Pattern VERIFICATION_ID =
      java.util.regex.Pattern.compile("[A-Za-z0-9][A-Za-z0-9._:-]{0,127}");

  public boolean isStandalone() {
    return agreementId == null;
  }

  /** The section 5.4 type whose default criteria apply: {@code code} for {@code code/<lang>}. */
  public String criteriaType() {
    return deliverableType.startsWith("code/") ? "code" : deliverableType;
  }

  /** Whether the deliverable declares itself code, by its type or its format. */
  public boolean isCode() {
    return CodeDeliverables.isCode(deliverableType, delivery.format());
  }

  public static VerificationRequest parse(JsonNode body) {
    ObjectNode b = StrictJson.failFast().object(body, "", "a verification request");
    StrictJson.failFast()
        .allowOnly(
            b,
            "",
            "verification_id",
            "agreement_id",
            "deliverable",
            "original_request",
            "quality_criteria",
            "verification_config");
    String verificationId = StrictJson.failFast().optionalText(b, "", "verification_id");
    if (verificationId != null && !VERIFICATION_ID.matcher(verificationId).matches()) {
      throw new InvalidDocumentException(
          "/verification_id",
          "must be 1 to 128 characters: letters, digits, '.', '_', ':' or '-', starting with a"
              + " letter or digit (e.g. ver-2026-03-26-x1y2z3); or leave it out for the server to"
              + " choose one");
    }
    String agreementId = StrictJson.failFast().optionalText(b, "", "agreement_id");
    String idProblem = agreementId == null ? null : ControlCharacters.problemWith(agreementId);
    if (idProblem != null) { // never an agreement's id; PostgreSQL could not even look it up
      throw new InvalidDocumentException("/agreement_id", idProblem);
    }
    JsonNode d = b.get("deliverable");
    if (d == null) {
      throw new InvalidDocumentException(
          "/deliverable",
          "required: {content} or {content_url, content_hash}, with format and type");
    }
    ObjectNode deliverable = StrictJson.failFast().object(d, "/deliverable", "the deliverable");
    StrictJson.failFast()
        .allowOnly(
            deliverable,
            "/deliverable",
            "content",
            "content_url",
            "content_hash",
            "format",
            "type",
            "size_bytes",
            "provider_model");
    Delivery delivery = Delivery.parse(deliverable, "/deliverable");
    if (delivery.content() != null
        && deliverable.has("size_bytes")
        && deliverable.get("size_bytes").asLong(-1) != delivery.sizeBytes()) {
      throw new InvalidDocumentException(
          "/deliverable/size_bytes",
          "does not match the content: it is " + delivery.sizeBytes() + " bytes");
    }
    String type = StrictJson.failFast().optionalText(deliverable, "/deliverable", "type");
    if (type != null && type.startsWith("code/")) {
      // code/<lang>: code, in a language the code evaluator reads
      if (Language.named(type.substring("code/".length())).isEmpty()) {
        throw new InvalidDocumentException(
            "/deliverable/type",
            "'"
                + type
                + "' names no language the code evaluator reads; code/<language> with one of "
                + Language.choices());
      }
    } else if (type != null && !StandaloneCriteria.isKnownType(type)) {
      throw new InvalidDocumentException(
          "/deliverable/type",
          "'"
              + type
              + "' is not a deliverable type; one of "
              + String.join(", ", StandaloneCriteria.TYPES)
              + " (or code/<language>)");
    }
    String providerModel =
        StrictJson.failFast().optionalText(deliverable, "/deliverable", "provider_model");

    String description = "";
    Service.Constraints constraints = Service.Constraints.NONE;
    CodeTests tests = null;
    JsonNode r = b.get("original_request");
    if (r != null) {
      ObjectNode request = StrictJson.failFast().object(r, "/original_request", "original_request");
      StrictJson.failFast()
          .allowOnly(request, "/original_request", "description", "constraints", "tests");
      tests = CodeTests.parse(request.get("tests"), "/original_request/tests");
      description = StrictJson.failFast().optionalText(request, "/original_request", "description");
      description = description == null ? "" : description;
      JsonNode c = request.get("constraints");
      if (c != null) {
        ObjectNode cons =
            StrictJson.failFast().object(c, "/original_request/constraints", "constraints");
        StrictJson.failFast()
            .allowOnly(
                cons,
                "/original_request/constraints",
                "max_tokens",
                "max_duration_seconds",
                "max_cost_usd");
        constraints =
            new Service.Constraints(
                positiveLong(cons, "max_tokens", "/original_request/constraints"),
                positiveLong(cons, "max_duration_seconds", "/original_request/constraints"),
                EvaluationConfig.nonNegativeDecimal(
                    cons, "max_cost_usd", "/original_request/constraints"));
      }
    } else if (agreementId == null) {
      throw new InvalidDocumentException(
          "/original_request",
          "required without an agreement: {description} of what was asked for");
    }
    if (agreementId == null && description.isBlank()) {
      throw new InvalidDocumentException(
          "/original_request/description",
          "required without an agreement: what was asked for, in words");
    }
    QualityCriteria criteria = null;
    JsonNode agreementCriteria = null;
    if (b.has("quality_criteria")) {
      if (agreementId != null) {
        // Section 5.1: inherited from the agreement; sent anyway, they must be the agreement's
        // (checked once the agreement is read, by who may read it).
        agreementCriteria = b.get("quality_criteria");
      } else {
        criteria = StandaloneCriteria.parse(b.get("quality_criteria"));
      }
    }
    EvaluationConfig config =
        b.has("verification_config")
            ? EvaluationConfig.parse(b.get("verification_config"))
            : EvaluationConfig.DEFAULTS;
    return new VerificationRequest(
        verificationId,
        agreementCriteria,
        agreementId,
        delivery,
        type == null ? "general" : type,
        providerModel,
        description,
        constraints,
        criteria,
        config,
        tests);
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
}
