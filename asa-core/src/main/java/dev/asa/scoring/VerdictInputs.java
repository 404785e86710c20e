package dev.asa.scoring;

import dev.asa.agreement.Escrow;
import dev.asa.agreement.QualityCriteria;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * Everything a verification's verdict depends on, gathered by the caller so that {@link
 * Verdicts#decide} needs nothing else: no store, no clock, no seal.
 *
 * <p>Start from {@link #of} and add what the agreement calls for: {@link #withEarlierDeliveries}
 * when the criteria promise a series guarantee (required then, refused otherwise), {@link
 * #withShadowGate} when the agreement is sealed.
 *
 * @param criteria the agreement's quality criteria
 * @param payment the payment terms in force for this verification (after any threshold noise or
 *     dynamic tiers); empty when there is no escrow, and then PASS releases 100 and FAIL 0
 * @param scores dimension name to what the evaluators said about it, in the order given
 * @param checks named check results (format_valid, all_tests_pass...) the quality gates may use
 * @param earlierDeliveries the provider's earlier deliveries in the series, oldest first; present
 *     exactly when the criteria promise a series guarantee
 * @param shadowGate the gate of the sealed shadow criteria; empty when the agreement is not sealed
 */
public record VerdictInputs(
    QualityCriteria criteria,
    Optional<Escrow.Payment> payment,
    Map<String, DimensionInput> scores,
    Map<String, CheckResult> checks,
    Optional<List<GuaranteeCheck.Delivery>> earlierDeliveries,
    Optional<ShadowGate> shadowGate) {

  public VerdictInputs {
    Objects.requireNonNull(criteria, "criteria");
    Objects.requireNonNull(payment, "payment");
    scores = Collections.unmodifiableMap(new LinkedHashMap<>(scores));
    checks = Collections.unmodifiableMap(new LinkedHashMap<>(checks));
    earlierDeliveries =
        Objects.requireNonNull(earlierDeliveries, "earlierDeliveries").map(List::copyOf);
    Objects.requireNonNull(shadowGate, "shadowGate");
    if (earlierDeliveries.isPresent() && criteria.guarantee() == null) {
      throw new IllegalArgumentException(
          "the criteria promise no series guarantee, so there is no series to judge:"
              + " leave the earlier deliveries out");
    }
  }

  /**
   * The inputs of an agreement that is not sealed and promises no series guarantee.
   *
   * @param payment the payment terms in force, or null when there is no escrow
   */
  public static VerdictInputs of(
      QualityCriteria criteria,
      Escrow.Payment payment,
      Map<String, DimensionInput> scores,
      Map<String, CheckResult> checks) {
    return new VerdictInputs(
        criteria, Optional.ofNullable(payment), scores, checks, Optional.empty(), Optional.empty());
  }

  /**
   * These inputs with the provider's earlier deliveries in the series the criteria's guarantee is
   * judged over; an empty list for the first delivery.
   */
  public VerdictInputs withEarlierDeliveries(List<GuaranteeCheck.Delivery> earlier) {
    return new VerdictInputs(criteria, payment, scores, checks, Optional.of(earlier), shadowGate);
  }

  /** These inputs with the gate that validating the agreement's sealed criteria concluded. */
  public VerdictInputs withShadowGate(ShadowGate gate) {
    return new VerdictInputs(
        criteria, payment, scores, checks, earlierDeliveries, Optional.of(gate));
  }
}
