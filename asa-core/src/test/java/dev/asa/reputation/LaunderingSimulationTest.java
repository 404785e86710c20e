package dev.asa.reputation;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** The laundering scenario: what a new identity buys the cheater before and after eligibility. */
class LaunderingSimulationTest {

  private static final long SEED = Long.getLong("asa.test.seed", 56L);

  @Test
  void aNewIdentityBuysFullTrustBeforeAndOnlySmallJobsAfter() {
    System.out.println("seed " + SEED);
    var before = new LaunderingSimulation(SEED, 60, false).run();
    var after = new LaunderingSimulation(SEED, 60, true).run();
    assertThat(before.identities()).as("it sheds its record again and again").isGreaterThan(5);
    assertThat(before.bigJobs()).isGreaterThan(20);
    assertThat(after.bigJobs()).as("never proven: no 100.00 job").isZero();
    assertThat(after.clientValueFailed()).isLessThan(before.clientValueFailed());
    assertThat(new LaunderingSimulation(SEED, 60, true).run()).isEqualTo(after);
  }
}
