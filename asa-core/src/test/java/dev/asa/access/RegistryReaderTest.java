package dev.asa.access;

import static org.assertj.core.api.Assertions.assertThat;

import dev.asa.crypto.Ed25519PublicKey;
import dev.asa.testing.Fixtures;
import org.junit.jupiter.api.Test;

class RegistryReaderTest {
  private static final Ed25519PublicKey JUDGE = Fixtures.key("judge").publicKey();

  @Test
  void theEvaluatorItselfAndTheOperatorSeeWhatNamesParties() {
    RegistryReader self = RegistryReader.of(new Caller.Key(JUDGE, false), JUDGE);
    assertThat(self).isEqualTo(RegistryReader.SELF);
    assertThat(self.seesParties()).isTrue();
    assertThat(self.seesLiveRecord()).as("its own record as published, as all see it").isFalse();
    RegistryReader operator =
        RegistryReader.of(new Caller.Key(Fixtures.key("operator").publicKey(), true), JUDGE);
    assertThat(operator).isEqualTo(RegistryReader.OPERATOR);
    assertThat(operator.seesParties()).isTrue();
    assertThat(operator.seesLiveRecord()).isTrue();
  }

  @Test
  void anyoneElseDoesNotPartiesIncluded() {
    for (String who : new String[] {"mallory", "alice", "bob", "other-judge"}) {
      assertThat(RegistryReader.of(new Caller.Key(Fixtures.key(who).publicKey(), false), JUDGE))
          .isEqualTo(RegistryReader.ANYONE_ELSE)
          .satisfies(r -> assertThat(r.seesLiveRecord()).isFalse());
    }
  }
}
