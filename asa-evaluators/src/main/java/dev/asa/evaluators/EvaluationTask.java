package dev.asa.evaluators;

import dev.asa.agreement.QualityCriteria;
import dev.asa.agreement.Service;
import java.math.BigDecimal;
import java.time.Instant;
import java.util.Objects;

/**
 * Everything an evaluator is given about one deliverable.
 *
 * @param deliverable what was delivered
 * @param request the original request in words (the agreement's service description, or the
 *     standalone request's {@code original_request.description}); may be empty, never null
 * @param deliverableType the section 5.4 type: text/research, text/analysis, code, data,
 *     translation or general
 * @param criteria the dimensions to score, with their SLOs and shadow metrics
 * @param constraints the request's constraints (max_tokens...); {@link Service.Constraints#NONE}
 *     for none
 * @param deadline when the deliverable was due; null when there is none
 * @param providerModel the model the provider declared it used; null when undeclared. A judge
 *     refuses to judge its own model's work.
 * @param options per-request evaluator settings
 * @param progress where to report progress; {@link Progress#NONE} to ignore it
 */
public record EvaluationTask(
    Deliverable deliverable,
    String request,
    String deliverableType,
    QualityCriteria criteria,
    Service.Constraints constraints,
    Instant deadline,
    String providerModel,
    Options options,
    Progress progress) {

  public EvaluationTask {
    Objects.requireNonNull(deliverable, "deliverable");
    request = request == null ? "" : request;
    deliverableType = deliverableType == null ? "general" : deliverableType;
    Objects.requireNonNull(criteria, "criteria");
    constraints = constraints == null ? Service.Constraints.NONE : constraints;
    options = options == null ? Options.DEFAULTS : options;
    progress = progress == null ? Progress.NONE : progress;
  }

  /** A task with default options and no progress reporting. */
  public static EvaluationTask of(
      Deliverable deliverable, String request, String deliverableType, QualityCriteria criteria) {
    return new EvaluationTask(
        deliverable, request, deliverableType, criteria, null, null, null, null, null);
  }

  public EvaluationTask withProgress(Progress p) {
    return new EvaluationTask(
        deliverable,
        request,
        deliverableType,
        criteria,
        constraints,
        deadline,
        providerModel,
        options,
        p);
  }

  public EvaluationTask withOptions(Options o) {
    return new EvaluationTask(
        deliverable,
        request,
        deliverableType,
        criteria,
        constraints,
        deadline,
        providerModel,
        o,
        progress);
  }

  /**
   * The {@code verification_config.evaluator_config} settings a backend may use.
   *
   * @param rubricId the rubric family to judge with (e.g. {@code research-v2}); null for the
   *     default of the deliverable type
   * @param spotCheckClaims how many of the deliverable's factual claims the judge checks one by one
   *     (0 for none)
   * @param maxCostUsd the most this evaluation may cost; null for no cap. A backend refuses up
   *     front (Reason.COST_CAP) when its estimate is above it.
   * @param evidenceCollection whether the judge must quote evidence for each score
   */
  public record Options(
      String rubricId, int spotCheckClaims, BigDecimal maxCostUsd, boolean evidenceCollection) {

    public static final Options DEFAULTS = new Options(null, 0, null, true);

    public Options {
      if (spotCheckClaims < 0) {
        throw new IllegalArgumentException("spot_check_claims cannot be negative");
      }
      if (maxCostUsd != null && maxCostUsd.signum() < 0) {
        throw new IllegalArgumentException("max_cost_usd cannot be negative");
      }
    }
  }
}
