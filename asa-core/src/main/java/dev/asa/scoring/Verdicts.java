package dev.asa.scoring;

import dev.asa.agreement.SeriesGuarantee;
import dev.asa.shadow.Gate;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * Decides a verification: turns the criteria, the payment terms, the scores and checks, the
 * provider's series and the shadow gate into the scorecard that is recorded and enforced.
 *
 * <p>Pure: it reads nothing and writes nothing, so the same inputs always give the same verdict and
 * the caller decides what to store. The rules, in the order they apply:
 *
 * <ol>
 *   <li>A series guarantee is judged over the provider's earlier deliveries and this one, which
 *       joins the series as it scores without the guarantee's own {@value GuaranteeCheck#CHECK}
 *       check (its verdict cannot wait on the series it is part of). The outcome is then offered to
 *       the quality gates as that check.
 *   <li>{@link Scorer} scores the deliverable (its exceptions pass through unchanged).
 *   <li>A shadow gate of {@link Gate#FAIL} overrides the determination: FAIL, nothing released, the
 *       evaluators' confidence kept, and the scorer's notes quoted after the reason.
 *   <li>A shadow gate of {@link Gate#PROCEED_WITH_WARNING} leaves the scorecard alone and adds a
 *       warning; the other gates (proceed, quarantine, blocked) leave the verdict to enforcement.
 * </ol>
 */
public final class Verdicts {

  private Verdicts() {}

  /**
   * The verdict on one delivery.
   *
   * @throws IllegalArgumentException if an input names an unknown dimension, a score does not fit
   *     its metric, or a shadow value is given for a dimension without a shadow metric
   * @throws IncompleteScoresException if a dimension with weight has no score
   * @throws IllegalStateException if the criteria promise a series guarantee and the inputs carry
   *     no earlier deliveries (a mistake of the caller, not of the scores)
   */
  public static Verdict decide(VerdictInputs inputs) {
    Objects.requireNonNull(inputs, "inputs");
    Optional<GuaranteeCheck.Outcome> guarantee = judgeSeries(inputs);
    Map<String, CheckResult> checks = new HashMap<>(inputs.checks());
    guarantee.ifPresent(g -> checks.put(GuaranteeCheck.CHECK, g.asCheck()));
    Scorecard card = score(inputs, checks);
    Optional<ShadowGate> shadow = inputs.shadowGate();
    return new Verdict(
        shadow.map(s -> overridden(card, s)).orElse(card),
        guarantee,
        shadow.flatMap(Verdicts::warning));
  }

  private static Optional<GuaranteeCheck.Outcome> judgeSeries(VerdictInputs inputs) {
    SeriesGuarantee promised = inputs.criteria().guarantee();
    if (promised == null) {
      return Optional.empty();
    }
    List<GuaranteeCheck.Delivery> series =
        new ArrayList<>(inputs.earlierDeliveries().orElseThrow(() -> seriesMissing(promised)));
    series.add(asDelivery(score(inputs, inputs.checks())));
    return Optional.of(GuaranteeCheck.evaluate(promised, series));
  }

  private static IllegalStateException seriesMissing(SeriesGuarantee promised) {
    return new IllegalStateException(
        "the criteria promise a series guarantee ("
            + promised.toJson()
            + "): give the provider's earlier deliveries with"
            + " VerdictInputs.withEarlierDeliveries, an empty list if this is the first");
  }

  private static Scorecard score(VerdictInputs inputs, Map<String, CheckResult> checks) {
    return Scorer.score(inputs.criteria(), inputs.payment().orElse(null), inputs.scores(), checks);
  }

  /**
   * This delivery as a member of its series: passed when the composite and every gate but the
   * guarantee's own passed, with the dimensions that have a score.
   */
  private static GuaranteeCheck.Delivery asDelivery(Scorecard alone) {
    boolean passed =
        alone.composite().passed()
            && alone.gates().stream()
                .allMatch(g -> g.passed() || g.condition().equals(GuaranteeCheck.CHECK));
    Map<String, BigDecimal> scores = new HashMap<>();
    for (DimensionResult d : alone.dimensions()) {
      if (d.score() != null) {
        scores.put(d.name(), d.score());
      }
    }
    return new GuaranteeCheck.Delivery(passed, scores);
  }

  private static Scorecard overridden(Scorecard card, ShadowGate shadow) {
    if (shadow.gate() != Gate.FAIL) {
      return card;
    }
    Determination scored = card.determination();
    return card.withDetermination(
        new Determination(
            Determination.FAIL,
            BigDecimal.ZERO,
            scored.confidence(),
            "shadow score "
                + shadow.score().toPlainString()
                + " is above 50: FAIL, nothing released ("
                + scored.notes()
                + ")"));
  }

  private static Optional<String> warning(ShadowGate shadow) {
    if (shadow.gate() != Gate.PROCEED_WITH_WARNING) {
      return Optional.empty();
    }
    return Optional.of(
        "shadow score "
            + shadow.score().toPlainString()
            + " is above 15: the deliverable missed sealed criteria (report attached as a"
            + " warning)");
  }
}
