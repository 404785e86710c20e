package dev.asa.access;

import static org.assertj.core.api.Assertions.assertThat;

import dev.asa.crypto.Ed25519PublicKey;
import dev.asa.testing.Fixtures;
import org.junit.jupiter.api.Test;

class RegistryReaderTest {
  private static final Ed25519PublicKey JUDGE = Fixtures.key("judge").publicKey();

  @Test
  void theEvaluatorItselfAndTheOperatorSeeWhatNamesParties() {
    assertThat(RegistryReader.of(new Caller.Key(JUDGE, false), JUDGE).seesParties()).isTrue();
    assertThat(RegistryReader.of(new Caller.Key(Fixtures.key("operator").publicKey(), true), JUDGE))
        .isEqualTo(RegistryReader.SELF_OR_OPERATOR);
  }

  @Test
  void anyoneElseDoesNotPartiesIncluded() {
    for (String who : new String[] {"mallory", "alice", "bob", "other-judge"}) {
      assertThat(RegistryReader.of(new Caller.Key(Fixtures.key(who).publicKey(), false), JUDGE))
          .isEqualTo(RegistryReader.ANYONE_ELSE);
    }
  }
}
