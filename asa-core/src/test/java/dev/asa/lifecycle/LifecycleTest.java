package dev.asa.lifecycle;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.EnumSet;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

class LifecycleTest {

  @Test
  void theHappyPathOfSection42() {
    State s = State.PROPOSED;
    s = Lifecycle.next(s, Action.NEGOTIATE, Lifecycle.Facts.NONE);
    assertThat(s).isEqualTo(State.NEGOTIATING);
    s = Lifecycle.next(s, Action.SIGN, new Lifecycle.Facts(false, false));
    assertThat(s).isEqualTo(State.NEGOTIATING);
    s = Lifecycle.next(s, Action.SIGN, new Lifecycle.Facts(true, false));
    assertThat(s).isEqualTo(State.ACTIVE);
    s = Lifecycle.next(s, Action.DELIVER, Lifecycle.Facts.NONE);
    assertThat(s).isEqualTo(State.DELIVERED);
    s = Lifecycle.next(s, Action.VERIFY, Lifecycle.Facts.NONE);
    assertThat(s).isEqualTo(State.VERIFIED);
    s = Lifecycle.next(s, Action.CLOSE, new Lifecycle.Facts(false, false));
    assertThat(s).isEqualTo(State.CLOSED);
  }

  @Test
  void signingStraightFromProposedIsAllowed() {
    assertThat(Lifecycle.next(State.PROPOSED, Action.SIGN, new Lifecycle.Facts(true, false)))
        .isEqualTo(State.ACTIVE);
  }

  @Test
  void aChallengeNeedsAnOpenWindowAndACloseAClosedOne() {
    assertThat(Lifecycle.next(State.VERIFIED, Action.CHALLENGE, new Lifecycle.Facts(false, true)))
        .isEqualTo(State.DISPUTED);
    assertThatThrownBy(() ->
            Lifecycle.next(State.VERIFIED, Action.CHALLENGE, new Lifecycle.Facts(false, false)))
        .isInstanceOf(TransitionRefusedException.class)
        .hasMessageContaining("window has closed");
    assertThatThrownBy(
            () -> Lifecycle.next(State.VERIFIED, Action.CLOSE, new Lifecycle.Facts(false, true)))
        .isInstanceOf(TransitionRefusedException.class)
        .hasMessageContaining("still open");
    assertThat(Lifecycle.next(State.DISPUTED, Action.RULE, Lifecycle.Facts.NONE))
        .isEqualTo(State.CLOSED);
  }

  @Test
  void aRefusalOffersOnlyWhatACallerCanAskFor() {
    // DELIVERED also allows the server's own escalate and expire; a caller is never told to try
    // them.
    assertThatThrownBy(() -> Lifecycle.next(State.DELIVERED, Action.CLOSE, Lifecycle.Facts.NONE))
        .isInstanceOf(TransitionRefusedException.class)
        .hasMessageEndingWith("allowed from DELIVERED: redeliver, verify")
        .satisfies(e ->
            assertThat(((TransitionRefusedException) e).allowed())
                .contains(Action.ESCALATE, Action.EXPIRE));
    assertThatThrownBy(() -> Lifecycle.next(State.CLOSED, Action.CLOSE, Lifecycle.Facts.NONE))
        .hasMessageEndingWith("allowed from CLOSED: nothing: CLOSED is final");
  }

  @Test
  void aRedeliveryNeedsAnOpenHardeningCycleAndAQuarantineDisputesAResult() {
    assertThat(Lifecycle.next(State.DELIVERED, Action.REDELIVER, Lifecycle.Facts.hardening(true)))
        .isEqualTo(State.DELIVERED);
    assertThatThrownBy(() ->
            Lifecycle.next(State.DELIVERED, Action.REDELIVER, Lifecycle.Facts.hardening(false)))
        .isInstanceOf(TransitionRefusedException.class)
        .hasMessageContaining("no hardening cycle is open");
    assertThatThrownBy(
            () -> Lifecycle.next(State.ACTIVE, Action.REDELIVER, Lifecycle.Facts.hardening(true)))
        .isInstanceOf(TransitionRefusedException.class);
    // The gate holds the payment whether or not a party could still challenge.
    assertThat(Lifecycle.next(State.VERIFIED, Action.QUARANTINE, Lifecycle.Facts.NONE))
        .isEqualTo(State.DISPUTED);
    assertThatThrownBy(() -> Lifecycle.next(State.CLOSED, Action.QUARANTINE, Lifecycle.Facts.NONE))
        .isInstanceOf(TransitionRefusedException.class);
  }

  @ParameterizedTest
  @EnumSource(State.class)
  void everyActionNotAllowedIsRefusedNamingStateAndAlternatives(State state) {
    Set<Action> refused =
        EnumSet.complementOf(
            EnumSet.copyOf(
                Lifecycle.allowed(state).isEmpty()
                    ? EnumSet.noneOf(Action.class)
                    : Lifecycle.allowed(state)));
    for (Action action : refused) {
      assertThatThrownBy(() -> Lifecycle.next(state, action, new Lifecycle.Facts(true, true, true)))
          .isInstanceOf(TransitionRefusedException.class)
          .hasMessageContaining(state.name())
          .satisfies(e -> {
            TransitionRefusedException t = (TransitionRefusedException) e;
            assertThat(t.current()).isEqualTo(state);
            assertThat(t.attempted()).isEqualTo(action);
            assertThat(t.allowed()).isEqualTo(Lifecycle.allowed(state));
          });
    }
  }

  @Test
  void finalStatesAllowNothing() {
    for (State s : State.values()) {
      assertThat(Lifecycle.allowed(s).isEmpty()).isEqualTo(s.isFinal());
    }
  }

  @Test
  void everyStateIsReachableFromProposed() {
    Set<State> seen = EnumSet.of(State.PROPOSED);
    boolean grew = true;
    while (grew) {
      grew = false;
      for (State s : Set.copyOf(seen)) {
        for (Action a : Lifecycle.allowed(s)) {
          for (boolean signed : new boolean[] {false, true}) {
            for (boolean open : new boolean[] {false, true}) {
              try {
                grew |= seen.add(Lifecycle.next(s, a, new Lifecycle.Facts(signed, open)));
              } catch (TransitionRefusedException ignored) {
                // guard not met with these facts
              }
            }
          }
        }
      }
    }
    assertThat(seen).containsExactlyInAnyOrder(State.values());
  }
}
