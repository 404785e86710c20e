package dev.asa.ledger;

import static org.assertj.core.api.Assertions.assertThat;

import dev.asa.agreement.Currency;
import dev.asa.agreement.Escrow;
import dev.asa.agreement.Escrow.SlashEvent;
import dev.asa.agreement.Money;
import java.math.BigDecimal;
import java.util.EnumSet;
import java.util.Optional;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** Which endings slash a staked collateral, and how it divides. */
class SlashingTest {
  private static final Currency USD = Currency.of("USD").orElseThrow();
  private static final Money STAKE = new Money(new BigDecimal("5.00"), USD);

  private static Escrow.Collateral terms(String percent, SlashEvent... on) {
    Set<SlashEvent> events =
        on.length == 0 ? EnumSet.allOf(SlashEvent.class) : EnumSet.of(on[0], on);
    return new Escrow.Collateral(STAKE, events, new BigDecimal(percent));
  }

  private static BigDecimal n(String s) {
    return new BigDecimal(s);
  }

  @Test
  void aFailBelowTheThresholdSlashesAndAGateFailureAloneDoesNot() {
    assertThat(Slashing.failedBelowThreshold(false, n("65.5"), n("70"))).isTrue();
    assertThat(Slashing.failedBelowThreshold(false, n("70"), n("70")))
        .as("a FAIL at the threshold failed a gate, not the composite")
        .isFalse();
    assertThat(Slashing.failedBelowThreshold(true, n("65.5"), n("60"))).isFalse();

    var failed = Slashing.decide(terms("100"), new Slashing.OnVerdict(true));
    assertThat(failed.trigger()).contains(SlashEvent.VERIFICATION_FAILURE);
    assertThat(failed.slashed().toWire()).isEqualTo("5.00");
    assertThat(failed.returned().toWire()).isEqualTo("0.00");

    var passed = Slashing.decide(terms("100"), new Slashing.OnVerdict(false));
    assertThat(passed.trigger()).isEmpty();
    assertThat(passed.returned()).isEqualTo(STAKE);
  }

  @Test
  void onlyTheProvidersDeliveryDeadlineIsAProviderTimeout() {
    assertThat(Slashing.trigger(terms("100"), new Slashing.OnTimeout(true)))
        .contains(SlashEvent.PROVIDER_TIMEOUT);
    assertThat(Slashing.trigger(terms("100"), new Slashing.OnTimeout(false))).isEmpty();
  }

  @Test
  void aRulingBelowTheVerdictIsADisputeLost() {
    // A PASS released 85%, the ruling 40%: the provider lost the dispute.
    assertThat(Slashing.trigger(terms("100"), new Slashing.OnRuling(n("40"), n("85"), false)))
        .contains(SlashEvent.DISPUTE_LOST);
    // The ruling confirms (or betters) the verdict: nothing lost.
    assertThat(Slashing.trigger(terms("100"), new Slashing.OnRuling(n("85"), n("85"), false)))
        .isEmpty();
    assertThat(Slashing.trigger(terms("100"), new Slashing.OnRuling(n("100"), n("85"), false)))
        .isEmpty();
    // No verdict (escalated after the evaluators timed out): measured against the whole amount.
    assertThat(Slashing.trigger(terms("100"), new Slashing.OnRuling(n("99.99"), null, false)))
        .contains(SlashEvent.DISPUTE_LOST);
    assertThat(Slashing.trigger(terms("100"), new Slashing.OnRuling(n("100"), null, false)))
        .isEmpty();
  }

  @Test
  void aRulingThatLeavesAFailingVerdictStandingIsAVerificationFailure() {
    // The provider challenged a FAIL (0%) and the ruling kept it.
    assertThat(Slashing.trigger(terms("100"), new Slashing.OnRuling(n("0"), n("0"), true)))
        .contains(SlashEvent.VERIFICATION_FAILURE);
    // The ruling overturned it.
    assertThat(Slashing.trigger(terms("100"), new Slashing.OnRuling(n("30"), n("0"), true)))
        .isEmpty();
    // Both hold: the ruling's own event, or the verdict's where the terms name only that one.
    assertThat(
            Slashing.trigger(
                terms("100", SlashEvent.VERIFICATION_FAILURE),
                new Slashing.OnRuling(n("10"), n("50"), true)))
        .contains(SlashEvent.VERIFICATION_FAILURE);
    assertThat(
            Slashing.trigger(
                terms("100", SlashEvent.DISPUTE_LOST),
                new Slashing.OnRuling(n("10"), n("50"), true)))
        .contains(SlashEvent.DISPUTE_LOST);
  }

  @Test
  void anEventTheTermsDoNotNameReturnsTheStake() {
    var outcome =
        Slashing.decide(terms("100", SlashEvent.DISPUTE_LOST), new Slashing.OnTimeout(true));
    assertThat(outcome.trigger()).isEqualTo(Optional.empty());
    assertThat(outcome.slashed().toWire()).isEqualTo("0.00");
    assertThat(outcome.returned()).isEqualTo(STAKE);
  }

  @Test
  void aPartialSlashSplitsRoundingThePenaltyDown() {
    var forty = Slashing.decide(terms("40"), new Slashing.OnTimeout(true));
    assertThat(forty.slashed().toWire()).isEqualTo("2.00");
    assertThat(forty.returned().toWire()).isEqualTo("3.00");

    // Whatever the share and the stake, slashed + returned == staked, and the slash is never more
    // than the share.
    Random random = new Random(56);
    for (int i = 0; i < 2000; i++) {
      Money stake = new Money(BigDecimal.valueOf(1 + random.nextInt(100_000), 2), USD);
      BigDecimal percent = BigDecimal.valueOf(1 + random.nextInt(10_000), 2);
      var c = new Escrow.Collateral(stake, EnumSet.allOf(SlashEvent.class), percent);
      var o = Slashing.decide(c, new Slashing.OnVerdict(true));
      assertThat(o.slashed().plus(o.returned())).isEqualTo(stake);
      assertThat(o.slashed().amount().multiply(BigDecimal.valueOf(100)))
          .isLessThanOrEqualTo(stake.amount().multiply(percent));
    }
  }
}
