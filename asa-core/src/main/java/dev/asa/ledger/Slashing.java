package dev.asa.ledger;

import dev.asa.agreement.Escrow;
import dev.asa.agreement.Money;
import java.math.BigDecimal;
import java.util.Objects;
import java.util.Optional;

/**
 * Collateral bonding's one rule (whitepaper section 10): how an agreement's ending treats the
 * provider's staked collateral. A stake is settled exactly once, when the agreement ends, in the
 * same change that settles its escrow; this says whether the ending is a slash event the terms name
 * and how the stake divides.
 *
 * <ul>
 *   <li>{@code verification_failure}: the agreement closed on a verdict that is a FAIL with a
 *       composite below {@code composite_threshold} (a FAIL on a quality gate alone, with the
 *       composite at or above the threshold, is not one: the work scored what was agreed). A ruling
 *       that releases no more than such a verdict did leaves the failure standing.
 *   <li>{@code provider_timeout}: the provider's delivery deadline (the dead-man's switch that
 *       refunds the client) ended the agreement. Other timers (the client's funding deadline, the
 *       agreement's own {@code expires_at}, an evaluator's deadline) are nobody's fault the
 *       provider answers for.
 *   <li>{@code dispute_lost}: a ruling released less to the provider than the verdict did; where
 *       the case reached a ruling without a verdict (evaluators that never answered), than the
 *       whole amount, which is what the delivery claimed.
 * </ul>
 *
 * The slashed share is {@code slash_percent} of the stake rounded down to the currency's minor unit
 * (a penalty never exceeds what the terms say), and the rest goes back to the provider, so slashed
 * + returned == staked.
 */
public final class Slashing {
  private Slashing() {}

  /** How an agreement with a staked collateral ended, as far as slash events go. */
  public sealed interface Ending {}

  /**
   * Closed on its verification result (when the challenge window passed, or at once).
   *
   * @param failedBelowThreshold see {@link #failedBelowThreshold}
   */
  public record OnVerdict(boolean failedBelowThreshold) implements Ending {}

  /**
   * Closed by a ruling.
   *
   * @param releasePercent what the ruling released to the provider
   * @param verdictPercent what the recorded verdict released, or null when there is none
   * @param verdictFailedBelowThreshold whether that verdict is a FAIL below the threshold
   */
  public record OnRuling(
      BigDecimal releasePercent, BigDecimal verdictPercent, boolean verdictFailedBelowThreshold)
      implements Ending {
    public OnRuling {
      Objects.requireNonNull(releasePercent, "releasePercent");
    }
  }

  /**
   * Ended by a timer.
   *
   * @param providerMissedDelivery whether it was the provider's delivery deadline
   */
  public record OnTimeout(boolean providerMissedDelivery) implements Ending {}

  /**
   * How a stake divides: {@code slashed} to the client, {@code returned} to the provider.
   *
   * @param trigger the slash event that applied; empty when the stake goes back whole
   */
  public record Outcome(Optional<Escrow.SlashEvent> trigger, Money slashed, Money returned) {
    public Outcome {
      Objects.requireNonNull(trigger, "trigger");
      Objects.requireNonNull(slashed, "slashed");
      Objects.requireNonNull(returned, "returned");
    }
  }

  private static final BigDecimal WHOLE = BigDecimal.valueOf(100);

  /**
   * Whether a verdict is a verification failure in {@code slash_on}'s sense: FAIL, with the
   * reported composite (the value the determination compared) below the threshold.
   */
  public static boolean failedBelowThreshold(
      boolean passed, BigDecimal composite, BigDecimal threshold) {
    return !passed && composite != null && composite.compareTo(threshold) < 0;
  }

  /** The slash event an ending is, if the terms name it. */
  public static Optional<Escrow.SlashEvent> trigger(Escrow.Collateral terms, Ending ending) {
    Objects.requireNonNull(terms, "terms");
    Optional<Escrow.SlashEvent> event =
        switch (ending) {
          case OnVerdict v ->
              v.failedBelowThreshold()
                  ? Optional.of(Escrow.SlashEvent.VERIFICATION_FAILURE)
                  : Optional.empty();
          case OnTimeout t ->
              t.providerMissedDelivery()
                  ? Optional.of(Escrow.SlashEvent.PROVIDER_TIMEOUT)
                  : Optional.empty();
          case OnRuling r -> {
            BigDecimal reference = r.verdictPercent() == null ? WHOLE : r.verdictPercent();
            boolean lost = r.releasePercent().compareTo(reference) < 0;
            boolean failureStands =
                r.verdictFailedBelowThreshold() && r.releasePercent().compareTo(reference) <= 0;
            // Both may hold (a ruling that cut a failing verdict's tier further): the ruling's own
            // event first, the verdict's when the terms do not name it.
            if (lost && terms.slashesOn(Escrow.SlashEvent.DISPUTE_LOST)) {
              yield Optional.of(Escrow.SlashEvent.DISPUTE_LOST);
            }
            yield failureStands
                ? Optional.of(Escrow.SlashEvent.VERIFICATION_FAILURE)
                : Optional.empty();
          }
        };
    return event.filter(terms::slashesOn);
  }

  /** How the staked collateral divides for this ending. */
  public static Outcome decide(Escrow.Collateral terms, Ending ending) {
    Optional<Escrow.SlashEvent> trigger = trigger(terms, ending);
    Money staked = terms.amount();
    Money slashed =
        trigger.isPresent() ? staked.percent(terms.slashPercent()) : Money.zero(staked.currency());
    return new Outcome(trigger, slashed, staked.minus(slashed));
  }
}
