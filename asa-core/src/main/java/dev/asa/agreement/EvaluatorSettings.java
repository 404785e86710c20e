package dev.asa.agreement;

import java.math.BigDecimal;
import java.util.Locale;

/**
 * How an evaluator is asked to work: the judge model, the rubric, how many claims it checks one by
 * one, the most the evaluation may cost, whether it quotes evidence. Every member is optional
 * (null: not said). The signed document says it in {@code parties.evaluator.config}; a verification
 * request in {@code verification_config.evaluator_config}.
 *
 * <p>The document's settings were signed by both parties, a request is sent by one of them (or by
 * the evaluator). So a request may only narrow what the document fixes, never loosen it: {@link
 * #narrowedBy} is that rule, in one place.
 *
 * @param model the judge model, e.g. {@code gpt-4o-mini}
 * @param rubricId the rubric family, e.g. {@code research-v2}
 * @param spotCheckClaims claims the judge checks one by one, 0 to {@value #MAX_SPOT_CHECK_CLAIMS}
 * @param maxCostUsd the most one evaluation may cost, at least 0
 * @param evidenceCollection whether the judge must quote evidence for each score
 */
public record EvaluatorSettings(
    String model,
    String rubricId,
    Integer spotCheckClaims,
    BigDecimal maxCostUsd,
    Boolean evidenceCollection) {

  public static final EvaluatorSettings NONE = new EvaluatorSettings(null, null, null, null, null);

  /** More checked claims than this cost more than they tell. */
  public static final int MAX_SPOT_CHECK_CLAIMS = 20;

  /** Where the document keeps its settings, for the refusals that name them. */
  public static final String DOCUMENT_POINTER = "/parties/evaluator/config";

  public EvaluatorSettings {
    if (spotCheckClaims != null
        && (spotCheckClaims < 0 || spotCheckClaims > MAX_SPOT_CHECK_CLAIMS)) {
      throw new IllegalArgumentException(
          "spot_check_claims must be from 0 to " + MAX_SPOT_CHECK_CLAIMS);
    }
    if (maxCostUsd != null && maxCostUsd.signum() < 0) {
      throw new IllegalArgumentException("max_cost_usd must not be negative");
    }
  }

  /**
   * The settings one verification runs with: {@code request}'s within what these settings, the
   * signed document's, fix. The document wins where a request would make the evaluation easier to
   * pass or to steer: a request may not choose another judge model or rubric than the document's,
   * ask for fewer spot-checked claims, raise the cost cap, or drop the evidence. It may narrow:
   * more spot checks, a lower cap (at worst the judge then refuses to run and the verification is
   * asked for again), evidence the document did not ask for, and whatever the document leaves open.
   * Refusing, rather than quietly using the document's value, tells the caller its request was not
   * what ran.
   *
   * @param requestPointer where the request keeps its settings, e.g. {@code
   *     /verification_config/evaluator_config}
   * @throws InvalidDocumentException naming the request's member that would loosen the document's
   */
  public EvaluatorSettings narrowedBy(EvaluatorSettings request, String requestPointer) {
    Violations v = new Violations();
    String model = fixedText(model(), request.model(), "model", "judge model", requestPointer, v);
    String rubric =
        fixedText(rubricId(), request.rubricId(), "rubric_id", "rubric", requestPointer, v);
    Integer spot = request.spotCheckClaims() != null ? request.spotCheckClaims() : spotCheckClaims;
    if (spotCheckClaims != null
        && request.spotCheckClaims() != null
        && request.spotCheckClaims() < spotCheckClaims) {
      v.add(
          requestPointer + "/spot_check_claims",
          "the agreement has the judge check "
              + spotCheckClaims
              + " claims ("
              + DOCUMENT_POINTER
              + "/spot_check_claims, signed by both parties); a request may ask for more, not"
              + " fewer");
    }
    BigDecimal cap = request.maxCostUsd() != null ? request.maxCostUsd() : maxCostUsd;
    if (maxCostUsd != null
        && request.maxCostUsd() != null
        && request.maxCostUsd().compareTo(maxCostUsd) > 0) {
      v.add(
          requestPointer + "/max_cost_usd",
          "the agreement caps an evaluation at "
              + maxCostUsd.toPlainString()
              + " USD ("
              + DOCUMENT_POINTER
              + "/max_cost_usd, signed by both parties); a request may lower the cap, not raise"
              + " it");
    }
    Boolean evidence =
        request.evidenceCollection() != null ? request.evidenceCollection() : evidenceCollection;
    if (Boolean.TRUE.equals(evidenceCollection)
        && Boolean.FALSE.equals(request.evidenceCollection())) {
      v.add(
          requestPointer + "/evidence_collection",
          "the agreement has the judge quote evidence for each score ("
              + DOCUMENT_POINTER
              + "/evidence_collection, signed by both parties); a request cannot drop it");
    }
    v.throwIfAny();
    return new EvaluatorSettings(model, rubric, spot, cap, evidence);
  }

  /** A text setting the document may fix: then the request may only repeat it. */
  private static String fixedText(
      String fixed,
      String requested,
      String member,
      String what,
      String requestPointer,
      Violations v) {
    if (fixed == null) {
      return requested;
    }
    if (requested != null
        && !requested
            .strip()
            .toLowerCase(Locale.ROOT)
            .equals(fixed.strip().toLowerCase(Locale.ROOT))) {
      v.add(
          requestPointer + "/" + member,
          "the agreement fixes the "
              + what
              + " '"
              + fixed
              + "' ("
              + DOCUMENT_POINTER
              + "/"
              + member
              + ", signed by both parties); a request cannot choose another: leave "
              + member
              + " out");
    }
    return fixed;
  }
}
