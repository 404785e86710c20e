package dev.asa.scoring;

import static dev.asa.scoring.Fixtures.gte;
import static dev.asa.scoring.Fixtures.lt;
import static dev.asa.scoring.Fixtures.money;
import static dev.asa.scoring.Fixtures.n;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.asa.agreement.DynamicTiersTerms;
import dev.asa.agreement.Escrow;
import dev.asa.agreement.GraduatedRelease;
import dev.asa.agreement.Tier;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

class DynamicTiersTest {

  private static final List<Tier> WHITEPAPER_TIERS =
      List.of(gte("90", "100"), gte("75", "85"), gte("60", "50"), lt("60", "0"));

  private static final DynamicTiersTerms DEFAULTS = DynamicTiersTerms.defaults();

  private static List<BigDecimal> scores(String... values) {
    return Arrays.stream(values).map(BigDecimal::new).toList();
  }

  /** {@code inBand} scores just above 75 and the rest well clear of every band. */
  private static List<BigDecimal> history(int inBand, int elsewhere) {
    List<BigDecimal> scores = new ArrayList<>();
    for (int i = 0; i < inBand; i++) {
      scores.add(n("76.5"));
    }
    for (int i = 0; i < elsewhere; i++) {
      scores.add(n("85"));
    }
    return scores;
  }

  private static DynamicTiersTerms terms(int window, String band, String share, String shift) {
    return new DynamicTiersTerms(true, window, n(band), n(share), n(shift));
  }

  @Test
  void aBoundaryMovesExactlyWhenTheShareIsReached() {
    // 5 of 10 is exactly the default 0.5: it moves.
    DynamicTiers.Adjustment at = DynamicTiers.adjust(WHITEPAPER_TIERS, history(5, 5), DEFAULTS);
    assertThat(at.moves()).containsExactly(new DynamicTiers.Move(n("75"), n("78"), n("0.5000"), 5));
    assertThat(at.scoresConsidered()).isEqualTo(10);
    assertThat(at.tiers())
        .containsExactly(gte("90", "100"), gte("78", "85"), gte("60", "50"), lt("60", "0"));
    // 4 of 10 is below it: nothing moves.
    DynamicTiers.Adjustment below = DynamicTiers.adjust(WHITEPAPER_TIERS, history(4, 6), DEFAULTS);
    assertThat(below.moved()).isFalse();
    assertThat(below.tiers()).isEqualTo(WHITEPAPER_TIERS);
  }

  @Test
  void theShareComparisonIsExact() {
    // 2 of 3 against min_share 0.6667 stays put; against 0.6666 it moves. No rounding decides.
    List<BigDecimal> past = scores("76", "77", "95");
    assertThat(DynamicTiers.adjust(WHITEPAPER_TIERS, past, terms(10, "3", "0.6667", "3")).moved())
        .isFalse();
    assertThat(DynamicTiers.adjust(WHITEPAPER_TIERS, past, terms(10, "3", "0.6666", "3")).moves())
        .containsExactly(new DynamicTiers.Move(n("75"), n("78"), n("0.6667"), 2));
    // min_share 1: every score must be in the band.
    assertThat(DynamicTiers.adjust(WHITEPAPER_TIERS, past, terms(10, "3", "1", "3")).moved())
        .isFalse();
    assertThat(
            DynamicTiers.adjust(
                    WHITEPAPER_TIERS, scores("76", "77", "75"), terms(10, "3", "1", "3"))
                .moved())
        .isTrue();
  }

  @Test
  void fewerThanThreeScoresNeverMoveAnything() {
    assertThat(DynamicTiers.adjust(WHITEPAPER_TIERS, List.of(), DEFAULTS).moved()).isFalse();
    assertThat(DynamicTiers.adjust(WHITEPAPER_TIERS, scores("76"), DEFAULTS).moved()).isFalse();
    assertThat(DynamicTiers.adjust(WHITEPAPER_TIERS, scores("76", "76.5"), DEFAULTS).moved())
        .isFalse();
    assertThat(DynamicTiers.adjust(WHITEPAPER_TIERS, scores("76", "76.5", "77"), DEFAULTS).moved())
        .isTrue();
  }

  @Test
  void onlyTheLastWindowScoresCount() {
    // Ten old scores hugging 75, then ten recent ones clear of it: the window of 10 sees only
    // these.
    List<BigDecimal> past = new ArrayList<>(history(10, 0));
    past.addAll(history(0, 10));
    DynamicTiers.Adjustment adjustment = DynamicTiers.adjust(WHITEPAPER_TIERS, past, DEFAULTS);
    assertThat(adjustment.moved()).isFalse();
    assertThat(adjustment.scoresConsidered()).isEqualTo(10);
    // Most recent last: the same scores the other way round do move it.
    List<BigDecimal> reversed = new ArrayList<>(history(0, 10));
    reversed.addAll(history(10, 0));
    assertThat(DynamicTiers.adjust(WHITEPAPER_TIERS, reversed, DEFAULTS).moves())
        .containsExactly(new DynamicTiers.Move(n("75"), n("78"), n("1.0000"), 10));
    // A wider window reaches back to the old ones: 10 of 20 in the band.
    assertThat(DynamicTiers.adjust(WHITEPAPER_TIERS, past, terms(20, "3", "0.5", "3")).moves())
        .containsExactly(new DynamicTiers.Move(n("75"), n("78"), n("0.5000"), 10));
    // The smallest window, 3, with the last three in the band.
    assertThat(DynamicTiers.adjust(WHITEPAPER_TIERS, reversed, terms(3, "3", "1", "3")).moved())
        .isTrue();
  }

  @Test
  void theBandIncludesTheBoundaryAndExcludesItsEnd() {
    assertThat(DynamicTiers.adjust(WHITEPAPER_TIERS, scores("75", "75", "75"), DEFAULTS).moved())
        .isTrue();
    assertThat(DynamicTiers.adjust(WHITEPAPER_TIERS, scores("78", "78", "78"), DEFAULTS).moved())
        .isFalse();
    assertThat(
            DynamicTiers.adjust(WHITEPAPER_TIERS, scores("74.999", "74.999", "74.999"), DEFAULTS)
                .moved())
        .isFalse();
    assertThat(
            DynamicTiers.adjust(WHITEPAPER_TIERS, scores("77.999", "77.999", "77.999"), DEFAULTS)
                .moved())
        .isTrue();
    // A band of 1 point no longer catches 77.
    assertThat(
            DynamicTiers.adjust(
                    WHITEPAPER_TIERS, scores("77", "77", "77"), terms(10, "1", "0.5", "3"))
                .moved())
        .isFalse();
  }

  @Test
  void theFloorTierMovesWithItsGteTwin() {
    DynamicTiers.Adjustment adjustment =
        DynamicTiers.adjust(
            WHITEPAPER_TIERS, scores("60", "61.5", "62", "80"), terms(10, "3", "0.5", "4.5"));
    assertThat(adjustment.moves())
        .containsExactly(new DynamicTiers.Move(n("60"), n("64.5"), n("0.7500"), 3));
    assertThat(adjustment.tiers())
        .containsExactly(gte("90", "100"), gte("75", "85"), gte("64.5", "50"), lt("64.5", "0"));
    // 60 and 60.0 are one boundary.
    List<Tier> spelled = List.of(gte("75", "85"), gte("60.0", "50"), lt("60", "0"));
    assertThat(DynamicTiers.adjust(spelled, scores("60", "61", "62"), DEFAULTS).tiers())
        .extracting(Tier::score)
        .containsExactly(n("75"), n("63.0"), n("63.0"));
  }

  @Test
  void anLtTierWithoutAGteTwinStaysPut() {
    List<Tier> tiers = List.of(gte("75", "100"), lt("50", "0"));
    assertThat(DynamicTiers.adjust(tiers, scores("50", "51", "52"), DEFAULTS).tiers())
        .isEqualTo(tiers);
  }

  @Test
  void boundariesNeverExceedHundred() {
    List<Tier> tiers = List.of(gte("98.5", "100"), gte("60", "50"));
    DynamicTiers.Adjustment adjustment =
        DynamicTiers.adjust(tiers, scores("99", "99.5", "100"), DEFAULTS);
    assertThat(adjustment.moves())
        .containsExactly(new DynamicTiers.Move(n("98.5"), n("100"), n("1.0000"), 3));
    assertThat(adjustment.tiers().get(0).score()).isEqualByComparingTo("100");
    // A boundary already at 100 cannot move, so no move is recorded for it.
    List<Tier> top = List.of(gte("100", "100"), gte("60", "50"));
    assertThat(DynamicTiers.adjust(top, scores("100", "100", "100"), DEFAULTS).moved()).isFalse();
  }

  @Test
  void severalBoundariesAreJudgedIndependentlyOnTheirWrittenValues() {
    // Half the scores just above 60, half just above 75: both move, and the moved 60 (now 63) is
    // not judged again against 75.
    DynamicTiers.Adjustment adjustment =
        DynamicTiers.adjust(WHITEPAPER_TIERS, scores("60.5", "61", "75.5", "76"), DEFAULTS);
    assertThat(adjustment.moves())
        .containsExactly(
            new DynamicTiers.Move(n("75"), n("78"), n("0.5000"), 2),
            new DynamicTiers.Move(n("60"), n("63"), n("0.5000"), 2));
  }

  @Test
  void disabledTermsChangeNothing() {
    DynamicTiers.Adjustment adjustment =
        DynamicTiers.adjust(WHITEPAPER_TIERS, history(10, 0), DynamicTiersTerms.DISABLED);
    assertThat(adjustment.tiers()).isEqualTo(WHITEPAPER_TIERS);
    assertThat(adjustment.moves()).isEmpty();
  }

  @Test
  void releaseWorksOnAdjustedTiers() {
    List<Tier> adjusted = DynamicTiers.adjust(WHITEPAPER_TIERS, history(6, 4), DEFAULTS).tiers();
    // 76.5 was worth 85% on the written tiers; with 75 moved to 78 it falls to the 60 tier.
    assertThat(Release.tierPercent(WHITEPAPER_TIERS, n("76.5"))).isEqualByComparingTo("85");
    assertThat(Release.tierPercent(adjusted, n("76.5"))).isEqualByComparingTo("50");
    assertThat(Release.tierPercent(adjusted, n("78"))).isEqualByComparingTo("85");
    assertThat(Release.tierPercent(adjusted, n("59.99"))).isEqualByComparingTo("0");
    Escrow.Payment payment =
        new Escrow.Payment(
            money("5.00", "USDC"),
            new GraduatedRelease(true, GraduatedRelease.Mode.TIERS, adjusted));
    assertThat(Release.percent(payment, n("77.99"), true, true)).isEqualByComparingTo("50");
    assertThat(Release.percent(payment, n("92"), true, true)).isEqualByComparingTo("100");
  }

  @Test
  void movingBoundariesNeverPaysMoreAndKeepsTheOrderOfTheTiers() {
    Random random = new Random(7);
    for (int k = 0; k < 500; k++) {
      int count = random.nextInt(15);
      List<BigDecimal> past = new ArrayList<>();
      for (int i = 0; i < count; i++) {
        // Mostly around the cliffs, sometimes anywhere, with two decimals like real composites.
        int base =
            random.nextInt(4) == 0
                ? random.nextInt(10_001)
                : 100 * (List.of(60, 75, 90).get(random.nextInt(3)) - 1) + random.nextInt(600);
        past.add(BigDecimal.valueOf(Math.min(base, 10_000), 2));
      }
      DynamicTiersTerms t =
          terms(3 + random.nextInt(12), "3", String.valueOf((1 + random.nextInt(10)) / 10.0), "3");
      DynamicTiers.Adjustment adjustment = DynamicTiers.adjust(WHITEPAPER_TIERS, past, t);

      assertThat(adjustment.tiers()).hasSameSizeAs(WHITEPAPER_TIERS);
      assertThat(adjustment.scoresConsidered()).isEqualTo(Math.min(count, t.window()));
      if (count < DynamicTiers.MIN_SCORES) {
        assertThat(adjustment.moved()).isFalse();
      }
      for (int i = 0; i < WHITEPAPER_TIERS.size(); i++) {
        Tier before = WHITEPAPER_TIERS.get(i);
        Tier after = adjustment.tiers().get(i);
        assertThat(after.bound()).isEqualTo(before.bound());
        assertThat(after.releasePercent()).isEqualTo(before.releasePercent());
        assertThat(after.score()).isBetween(before.score(), before.score().add(n("3")));
      }
      // Every move is justified by its own numbers.
      for (DynamicTiers.Move move : adjustment.moves()) {
        assertThat(move.share()).isGreaterThanOrEqualTo(t.minShare().subtract(n("0.0001")));
        assertThat(move.to()).isEqualByComparingTo(move.from().add(n("3")));
      }
      assertThat(adjustment.tiers().get(3).score()).isEqualTo(adjustment.tiers().get(2).score());
      for (int hundredths = 0; hundredths <= 10_000; hundredths += 13) {
        BigDecimal score = BigDecimal.valueOf(hundredths, 2);
        assertThat(Release.tierPercent(adjustment.tiers(), score))
            .isLessThanOrEqualTo(Release.tierPercent(WHITEPAPER_TIERS, score));
      }
    }
  }

  @Test
  void nullInputsAreRefused() {
    assertThatThrownBy(() -> DynamicTiers.adjust(WHITEPAPER_TIERS, null, DEFAULTS))
        .isInstanceOf(NullPointerException.class);
    assertThatThrownBy(() -> DynamicTiers.adjust(WHITEPAPER_TIERS, List.of(), null))
        .isInstanceOf(NullPointerException.class);
  }

  @Test
  void termsOutsideTheirRangesAreRefusedWithTheRange() {
    assertThatThrownBy(() -> terms(2, "3", "0.5", "3")).hasMessageContaining("3 to 100");
    assertThatThrownBy(() -> terms(101, "3", "0.5", "3")).hasMessageContaining("3 to 100");
    assertThatThrownBy(() -> terms(10, "0", "0.5", "3")).hasMessageContaining("band_points");
    assertThatThrownBy(() -> terms(10, "20.5", "0.5", "3")).hasMessageContaining("band_points");
    assertThatThrownBy(() -> terms(10, "3", "1.01", "3")).hasMessageContaining("min_share");
    assertThatThrownBy(() -> terms(10, "3", "0", "3")).hasMessageContaining("min_share");
    assertThatThrownBy(() -> terms(10, "3", "0.5", "-1")).hasMessageContaining("shift_points");
  }
}
