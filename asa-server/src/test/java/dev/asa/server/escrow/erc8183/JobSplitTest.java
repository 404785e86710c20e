package dev.asa.server.escrow.erc8183;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.RoundingMode;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * {@link JobSplit}: the printed tiers, and properties over random terms and amounts (a seeded
 * {@link Random}; the seed is printed, so a failure can be replayed by fixing it).
 */
class JobSplitTest {
  private static final BigDecimal HUNDRED = BigDecimal.valueOf(100);

  @Test
  void theWhitepaperTiersAreJobsOf50And35And15Percent() {
    JobSplit split = JobSplit.covering(List.of(pct(100), pct(85), pct(50), pct(0)));
    assertThat(split.percents()).containsExactly(pct(50), pct(35), pct(15));
    assertThat(split.budgets(BigInteger.valueOf(5_000_000)))
        .containsExactly(
            BigInteger.valueOf(2_500_000),
            BigInteger.valueOf(1_750_000),
            BigInteger.valueOf(750_000));
    assertThat(split.jobsReleasing(pct(85))).contains(List.of(0, 1));
    assertThat(split.jobsReleasing(pct(50))).contains(List.of(0));
    assertThat(split.jobsReleasing(pct(0))).contains(List.of());
    assertThat(split.jobsReleasing(pct(100))).contains(List.of(0, 1, 2));
    assertThat(split.jobsReleasing(pct(65))).contains(List.of(0, 2)); // not a tier, but whole jobs
    assertThat(split.jobsReleasing(pct(60))).isEmpty();
    assertThat(split.nearest(pct(60))).containsExactly(pct(50), pct(65));
  }

  @Test
  void allOrNothingIsOneJobAndBinaryJobsMakeEveryWholePercent() {
    assertThat(JobSplit.covering(List.of(pct(0), pct(100)))).isEqualTo(JobSplit.whole());
    JobSplit binary = JobSplit.binary();
    assertThat(binary.percents())
        .containsExactly(pct(1), pct(2), pct(4), pct(8), pct(16), pct(32), pct(37));
    for (int p = 0; p <= 100; p++) {
      assertThat(binary.jobsReleasing(pct(p))).as("%s percent", p).isPresent();
    }
    assertThat(binary.floor(new BigDecimal("82.4"))).isEqualByComparingTo("82");
    assertThat(binary.nearest(new BigDecimal("60.5"))).containsExactly(pct(60), pct(61));
  }

  @Test
  void badSplitsAreRefused() {
    assertThatThrownBy(() -> JobSplit.covering(List.of(pct(101))))
        .isInstanceOf(IllegalArgumentException.class);
    List<BigDecimal> many = new ArrayList<>();
    for (int i = 1; i <= JobSplit.MAX_JOBS; i++) {
      many.add(pct(i));
    }
    assertThatThrownBy(() -> JobSplit.covering(many)).hasMessageContaining("1 to 12 jobs");
    assertThatThrownBy(() -> new JobSplit(List.of(pct(50), pct(40)))).hasMessageContaining("90");
  }

  /**
   * For random tiers (whole and fractional percentages) and random amounts: the budgets add up to
   * the amount, and each tier's jobs are a prefix whose budgets are exactly the amount's share
   * rounded down (what the ledger books for the tier).
   */
  @Test
  void everyTierIsAPrefixPayingExactlyItsShareRoundedDown() {
    long seed = System.nanoTime();
    System.out.println("JobSplitTest tiers seed: " + seed);
    Random random = new Random(seed);
    for (int run = 0; run < 2_000; run++) {
      List<BigDecimal> tiers = new ArrayList<>();
      int count = 1 + random.nextInt(JobSplit.MAX_JOBS - 1);
      for (int i = 0; i < count; i++) {
        tiers.add(
            BigDecimal.valueOf(random.nextInt(10_001), random.nextBoolean() ? 2 : 0).min(HUNDRED));
      }
      BigInteger atomic = BigInteger.valueOf(1 + (random.nextLong() >>> 20));
      JobSplit split = JobSplit.covering(tiers);
      List<BigInteger> budgets = split.budgets(atomic);
      assertThat(budgets.stream().reduce(BigInteger.ZERO, BigInteger::add))
          .as("seed %s, tiers %s", seed, tiers)
          .isEqualTo(atomic);
      assertThat(budgets).allMatch(b -> b.signum() >= 0);
      for (BigDecimal tier : tiers) {
        List<Integer> jobs = split.jobsReleasing(tier).orElseThrow();
        for (int i = 0; i < jobs.size(); i++) {
          assertThat(jobs.get(i)).as("a prefix").isEqualTo(i);
        }
        BigInteger paid = sum(budgets, jobs);
        assertThat(paid)
            .as("seed %s, tier %s of %s", seed, tier, atomic)
            .isEqualTo(share(atomic, tier));
        assertThat(JobSplit.jobsPaying(budgets, paid).map(j -> sum(budgets, j))).contains(paid);
      }
    }
  }

  /**
   * For random composites and amounts: the binary jobs pay the composite's whole percent below it,
   * to within one atomic unit per job of its exact share, and never more than one step (1%) below
   * the composite's own share.
   */
  @Test
  void continuousReleasePaysTheCompositeToWithinOneStep() {
    long seed = System.nanoTime();
    System.out.println("JobSplitTest continuous seed: " + seed);
    Random random = new Random(seed);
    JobSplit split = JobSplit.binary();
    for (int run = 0; run < 5_000; run++) {
      BigInteger atomic = BigInteger.valueOf(100 + (random.nextLong() >>> 24));
      BigDecimal composite = BigDecimal.valueOf(random.nextInt(10_001), 2);
      BigDecimal paidPercent = split.floor(composite);
      assertThat(composite.subtract(paidPercent))
          .as("seed %s, composite %s", seed, composite)
          .isLessThan(BigDecimal.ONE)
          .isGreaterThanOrEqualTo(BigDecimal.ZERO);
      List<BigInteger> budgets = split.budgets(atomic);
      BigInteger paid = sum(budgets, split.jobsReleasing(paidPercent).orElseThrow());
      BigInteger exact = share(atomic, paidPercent);
      assertThat(paid.subtract(exact).abs())
          .as("seed %s, %s of %s", seed, paidPercent, atomic)
          .isLessThanOrEqualTo(BigInteger.valueOf(split.size()));
      BigInteger step = share(atomic, BigDecimal.ONE).add(BigInteger.valueOf(split.size()));
      assertThat(share(atomic, composite).subtract(paid)).isLessThanOrEqualTo(step);
    }
  }

  private static BigInteger sum(List<BigInteger> budgets, List<Integer> jobs) {
    return jobs.stream().map(budgets::get).reduce(BigInteger.ZERO, BigInteger::add);
  }

  private static BigInteger share(BigInteger atomic, BigDecimal percent) {
    return new BigDecimal(atomic)
        .multiply(percent)
        .divide(HUNDRED, 0, RoundingMode.DOWN)
        .toBigIntegerExact();
  }

  private static BigDecimal pct(int p) {
    return BigDecimal.valueOf(p);
  }
}
