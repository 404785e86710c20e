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
import dev.asa.agreement.ThresholdNoiseTerms;
import dev.asa.agreement.Tier;
import dev.asa.crypto.Digest;
import java.math.BigDecimal;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.Test;

class ThresholdNoiseTest {

  private static final List<Tier> WHITEPAPER_TIERS =
      List.of(gte("90", "100"), gte("75", "85"), gte("60", "50"), lt("60", "0"));

  private static final BigDecimal THREE = n("3");

  /** Bytes 0, 1, ..., 31. */
  private static byte[] countingSeed() {
    byte[] seed = new byte[32];
    for (int i = 0; i < seed.length; i++) {
      seed[i] = (byte) i;
    }
    return seed;
  }

  private static byte[] seed(Random random) {
    byte[] seed = new byte[32];
    random.nextBytes(seed);
    return seed;
  }

  // ---------------------------------------------------------------- offsets

  @Test
  void offsetsMatchAnIndependentComputation() {
    // Computed outside Java (Python's hmac module) from the rule in the javadoc, so that another
    // implementation of the protocol can check itself against these numbers.
    assertThat(ThresholdNoise.offsets(countingSeed(), "asa-test-0001", 4, THREE))
        .containsExactly(n("-2.56"), n("-2.99"), n("1.33"), n("1.31"));
    assertThat(ThresholdNoise.offsets(countingSeed(), "asa-test-0002", 4, THREE))
        .containsExactly(n("0.81"), n("-2.78"), n("-1.13"), n("1.26"));
  }

  @Test
  void offsetsAreDeterministicForASeed() {
    Random random = new Random(1);
    for (int k = 0; k < 50; k++) {
      byte[] seed = seed(random);
      List<BigDecimal> first = ThresholdNoise.offsets(seed, "asa-" + k, 6, THREE);
      assertThat(ThresholdNoise.offsets(seed.clone(), "asa-" + k, 6, THREE)).isEqualTo(first);
      // A longer list only adds offsets: offset i depends on i alone, not on the tier count.
      assertThat(ThresholdNoise.offsets(seed, "asa-" + k, 8, THREE).subList(0, 6)).isEqualTo(first);
    }
  }

  @Test
  void offsetsDifferAcrossAgreementsAndSeeds() {
    byte[] seed = countingSeed();
    Set<List<BigDecimal>> seen = new HashSet<>();
    for (int k = 0; k < 100; k++) {
      seen.add(ThresholdNoise.offsets(seed, "asa-" + k, 4, THREE));
    }
    assertThat(seen).hasSize(100);
    byte[] other = countingSeed();
    other[31] ^= 1;
    assertThat(ThresholdNoise.offsets(other, "asa-test-0001", 4, THREE))
        .isNotEqualTo(ThresholdNoise.offsets(seed, "asa-test-0001", 4, THREE));
  }

  @Test
  void offsetsAreInRangeWithTwoDecimals() {
    Random random = new Random(2);
    for (String max : List.of("0.01", "0.05", "1", "2.5", "3", "7.25", "10")) {
      BigDecimal maxPoints = n(max);
      for (int k = 0; k < 200; k++) {
        for (BigDecimal offset : ThresholdNoise.offsets(seed(random), "asa-" + k, 5, maxPoints)) {
          assertThat(offset.scale()).isEqualTo(2);
          assertThat(offset).isBetween(maxPoints.negate(), maxPoints);
        }
      }
    }
  }

  @Test
  void offsetsAreRoughlyUniformOverTenThousandSeeds() {
    Random random = new Random(3);
    int draws = 10_000;
    BigDecimal sum = BigDecimal.ZERO;
    int[] buckets = new int[6]; // one per point: [-3,-2), [-2,-1), ..., [2,3]
    Set<BigDecimal> values = new HashSet<>();
    for (int k = 0; k < draws; k++) {
      BigDecimal offset = ThresholdNoise.offsets(seed(random), "asa-test-0001", 1, THREE).get(0);
      sum = sum.add(offset);
      values.add(offset);
      buckets[Math.min(5, offset.add(THREE).intValue())]++;
    }
    // Uniform on [-3, 3] has standard deviation 1.73, so the mean of 10k draws is within 0.1 of 0
    // unless something is badly off (0.1 is almost six standard errors).
    double mean = sum.doubleValue() / draws;
    assertThat(Math.abs(mean)).isLessThan(0.1);
    for (int count : buckets) {
      assertThat(count).isBetween(draws / 6 * 85 / 100, draws / 6 * 115 / 100);
    }
    // Each of the 601 steps has 1/601 chance per draw: both ends show up ~17 times in 10k.
    assertThat(values).contains(n("-3.00"), n("3.00"));
    assertThat(values.size()).isGreaterThan(590);
  }

  @Test
  void everyStepOfASmallBoundIsReachable() {
    Random random = new Random(4);
    Set<BigDecimal> values = new HashSet<>();
    for (int k = 0; k < 2_000; k++) {
      values.addAll(ThresholdNoise.offsets(seed(random), "asa-" + k, 1, n("0.05")));
    }
    assertThat(values)
        .containsExactlyInAnyOrder(
            n("-0.05"),
            n("-0.04"),
            n("-0.03"),
            n("-0.02"),
            n("-0.01"),
            n("0.00"),
            n("0.01"),
            n("0.02"),
            n("0.03"),
            n("0.04"),
            n("0.05"));
  }

  @Test
  void badArgumentsAreRefusedWithWhatToDo() {
    assertThatThrownBy(() -> ThresholdNoise.offsets(new byte[16], "a", 4, THREE))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("32 bytes")
        .hasMessageContaining("SecureRandom");
    assertThatThrownBy(() -> ThresholdNoise.offsets(null, "a", 4, THREE))
        .isInstanceOf(IllegalArgumentException.class);
    for (String max : List.of("0", "-1", "10.01", "2.555")) {
      assertThatThrownBy(() -> ThresholdNoise.offsets(countingSeed(), "a", 4, n(max)))
          .as(max)
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining("max_points");
    }
    assertThatThrownBy(() -> ThresholdNoise.offsets(countingSeed(), "a", -1, THREE))
        .isInstanceOf(IllegalArgumentException.class);
    assertThat(ThresholdNoise.offsets(countingSeed(), "a", 0, THREE)).isEmpty();
  }

  // ---------------------------------------------------------------- commitment

  @Test
  void theCommitmentIsTheSha256OfTheSeed() {
    assertThat(ThresholdNoise.commitment(countingSeed()).hex())
        .isEqualTo("630dcd2966c4336691125448bbb25b4ff412a49c732db2c8abc1b8581bd710dd");
    assertThat(ThresholdNoise.commitment(new byte[32]))
        .isEqualTo(
            Digest.parse(
                "sha256:66687aadf862bd776c8fc18b8e9f8e20089714856ee233b3902a591d0d5f2925"));
    assertThatThrownBy(() -> ThresholdNoise.commitment(new byte[31]))
        .isInstanceOf(IllegalArgumentException.class);
  }

  // ---------------------------------------------------------------- apply

  @Test
  void applyMovesEachBoundaryKeepingOrderAndPercentages() {
    List<Tier> tiers = List.of(gte("90", "100"), gte("75", "85"), gte("50", "40"));
    List<Tier> moved = ThresholdNoise.apply(tiers, List.of(n("1.50"), n("-2.00"), n("0.07")));
    assertThat(moved)
        .containsExactly(
            new Tier(Tier.Bound.GTE, n("91.50"), n("100")),
            new Tier(Tier.Bound.GTE, n("73.00"), n("85")),
            new Tier(Tier.Bound.GTE, n("50.07"), n("40")));
  }

  @Test
  void applyClampsBoundariesToZeroAndHundred() {
    List<Tier> moved =
        ThresholdNoise.apply(
            List.of(gte("99", "100"), gte("1", "10")), List.of(n("2.50"), n("-2.50")));
    assertThat(moved).extracting(Tier::score).containsExactly(n("100"), n("0"));
  }

  @Test
  void aFloorTierMovesWithItsGteTwin() {
    // The floor (index 3) has its own offset, but it shares the boundary of tier 2, which is listed
    // first: both move by tier 2's offset, so every score still matches exactly one tier.
    List<Tier> moved =
        ThresholdNoise.apply(
            WHITEPAPER_TIERS, List.of(n("0.50"), n("-1.00"), n("2.25"), n("-2.99")));
    assertThat(moved.get(2).score()).isEqualByComparingTo("62.25");
    assertThat(moved.get(3)).isEqualTo(new Tier(Tier.Bound.LT, n("62.25"), n("0")));
    // Listed the other way round, the floor's offset is the one both take.
    List<Tier> floorFirst = List.of(lt("60.0", "0"), gte("60", "50"));
    assertThat(ThresholdNoise.apply(floorFirst, List.of(n("-1.25"), n("2.00"))))
        .extracting(Tier::score)
        .containsExactly(n("58.75"), n("58.75"));
  }

  @Test
  void applyNeedsOneOffsetPerTier() {
    assertThatThrownBy(() -> ThresholdNoise.apply(WHITEPAPER_TIERS, List.of(n("1"))))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("4 tiers, 1 offsets");
  }

  @Test
  void noisedTiersAreStillMatchedByValue() {
    List<Tier> moved =
        ThresholdNoise.apply(
            WHITEPAPER_TIERS, List.of(n("1.50"), n("-2.00"), n("0.70"), n("-3.00")));
    // Boundaries are now 91.5, 73, 60.7 (and the floor below 60.7).
    assertThat(Release.tierPercent(moved, n("91.49"))).isEqualByComparingTo("85");
    assertThat(Release.tierPercent(moved, n("91.5"))).isEqualByComparingTo("100");
    assertThat(Release.tierPercent(moved, n("73"))).isEqualByComparingTo("85");
    assertThat(Release.tierPercent(moved, n("72.99"))).isEqualByComparingTo("50");
    assertThat(Release.tierPercent(moved, n("60.69"))).isEqualByComparingTo("0");
    assertThat(Release.tierPercent(moved, n("60.7"))).isEqualByComparingTo("50");
    Escrow.Payment payment =
        new Escrow.Payment(
            money("5.00", "USDC"), new GraduatedRelease(true, GraduatedRelease.Mode.TIERS, moved));
    assertThat(Release.percent(payment, n("74"), true, false)).isEqualByComparingTo("85");
  }

  @Test
  void noiseNeverMakesAHigherScorePayLess() {
    Random random = new Random(5);
    for (int k = 0; k < 300; k++) {
      List<BigDecimal> offsets = ThresholdNoise.offsets(seed(random), "asa-" + k, 4, THREE);
      List<Tier> moved = ThresholdNoise.apply(WHITEPAPER_TIERS, offsets);
      BigDecimal previous = BigDecimal.ZERO;
      for (int hundredths = 0; hundredths <= 10_000; hundredths += 7) {
        BigDecimal percent = Release.tierPercent(moved, BigDecimal.valueOf(hundredths, 2));
        assertThat(percent)
            .as("tiers %s at %s", moved, hundredths)
            .isGreaterThanOrEqualTo(previous);
        previous = percent;
      }
      assertThat(previous).isEqualByComparingTo("100");
    }
  }

  // ---------------------------------------------------------------- both mitigations

  @Test
  void effectiveTiersApplyDynamicTiersFirstThenNoise() {
    GraduatedRelease release =
        new GraduatedRelease(
            true,
            GraduatedRelease.Mode.TIERS,
            WHITEPAPER_TIERS,
            ThresholdNoiseTerms.of(THREE),
            DynamicTiersTerms.defaults());
    // Clustered just above 75 as written; the noise (-2.99 on tier 1) must not change that
    // decision.
    List<BigDecimal> past = List.of(n("75.5"), n("76"), n("77.9"), n("88"));
    ThresholdNoise.Effective effective =
        ThresholdNoise.effectiveTiers(release, past, countingSeed(), "asa-test-0001");

    assertThat(effective.dynamic().moves())
        .containsExactly(new DynamicTiers.Move(n("75"), n("78"), n("0.7500"), 3));
    assertThat(effective.offsets()).containsExactly(n("-2.56"), n("-2.99"), n("1.33"), n("1.31"));
    assertThat(effective.tiers())
        .isEqualTo(ThresholdNoise.apply(effective.dynamic().tiers(), effective.offsets()))
        .extracting(Tier::score)
        .containsExactly(n("87.44"), n("75.01"), n("61.33"), n("61.33"));
    assertThat(Release.tierPercent(effective.tiers(), n("75"))).isEqualByComparingTo("50");
    assertThat(Release.tierPercent(effective.tiers(), n("75.01"))).isEqualByComparingTo("85");
  }

  @Test
  void effectiveTiersWithoutMitigationsAreTheWrittenOnes() {
    GraduatedRelease plain =
        new GraduatedRelease(true, GraduatedRelease.Mode.TIERS, WHITEPAPER_TIERS);
    ThresholdNoise.Effective effective =
        ThresholdNoise.effectiveTiers(plain, List.of(n("76"), n("76"), n("76")), null, null);
    assertThat(effective.tiers()).isEqualTo(WHITEPAPER_TIERS);
    assertThat(effective.offsets()).isEmpty();
    assertThat(effective.dynamic().moved()).isFalse();
    // Graduated release switched off: nothing is read, nothing moves.
    GraduatedRelease off =
        new GraduatedRelease(
            false,
            GraduatedRelease.Mode.TIERS,
            WHITEPAPER_TIERS,
            ThresholdNoiseTerms.of(THREE),
            DynamicTiersTerms.defaults());
    assertThat(ThresholdNoise.effectiveTiers(off, List.of(), null, null).tiers())
        .isEqualTo(WHITEPAPER_TIERS);
  }

  @Test
  void noiseWithoutASeedIsRefused() {
    GraduatedRelease noisy =
        new GraduatedRelease(
            true,
            GraduatedRelease.Mode.TIERS,
            WHITEPAPER_TIERS,
            ThresholdNoiseTerms.of(THREE),
            DynamicTiersTerms.DISABLED);
    assertThatThrownBy(() -> ThresholdNoise.effectiveTiers(noisy, List.of(), null, "asa-test-0001"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("seed");
  }
}
