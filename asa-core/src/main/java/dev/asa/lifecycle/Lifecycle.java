package dev.asa.lifecycle;

import java.util.Comparator;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;

/**
 * The state machine of section 4.2, the only place that knows which action may happen in which
 * state and where it leads.
 *
 * <pre>
 * PROPOSED -> NEGOTIATING -> ACTIVE -> DELIVERED -> VERIFIED -> CLOSED
 *     |            |           |           |           |
 *     +-- REJECTED +           +-- EXPIRED +           +-- DISPUTED -> CLOSED
 *                                          |                    ^
 *                                          +--(evaluator and backup failed)
 * </pre>
 *
 * Guards that depend on more than the state (both signatures present, the challenge window open)
 * are passed in by the caller as facts; the rule that uses them still lives here.
 */
public final class Lifecycle {
  private Lifecycle() {}

  /** The actions allowed in a state. Final states allow none. */
  public static Set<Action> allowed(State state) {
    return switch (state) {
      case PROPOSED, NEGOTIATING ->
          EnumSet.of(Action.NEGOTIATE, Action.SIGN, Action.REJECT, Action.EXPIRE);
      case ACTIVE ->
          EnumSet.of(Action.FUND, Action.STAKE_COLLATERAL, Action.DELIVER, Action.EXPIRE);
      case DELIVERED -> EnumSet.of(Action.VERIFY, Action.REDELIVER, Action.EXPIRE, Action.ESCALATE);
      case VERIFIED -> EnumSet.of(Action.CHALLENGE, Action.QUARANTINE, Action.CLOSE);
      case DISPUTED -> EnumSet.of(Action.RULE);
      case CLOSED, REJECTED, EXPIRED -> EnumSet.noneOf(Action.class);
    };
  }

  /**
   * What a caller may ask for in a state, in wire-name order: the allowed actions less the server's
   * own moves ({@link Action#requestable()}). Refusals and status views offer exactly these.
   */
  public static List<Action> offered(State state) {
    return allowed(state).stream()
        .filter(Action::requestable)
        .sorted(Comparator.comparing(Action::wireName))
        .toList();
  }

  /**
   * Facts a transition may depend on besides the current state.
   *
   * @param hardeningOpen a Shadow Scoring hardening cycle waits for the provider's re-delivery
   */
  public record Facts(
      boolean fullySignedAfter, boolean challengeWindowOpen, boolean hardeningOpen) {
    public static final Facts NONE = new Facts(false, false, false);

    public Facts(boolean fullySignedAfter, boolean challengeWindowOpen) {
      this(fullySignedAfter, challengeWindowOpen, false);
    }

    /** Only the hardening fact: for a re-delivery. */
    public static Facts hardening(boolean open) {
      return new Facts(false, false, open);
    }
  }

  /** Refuses an action the current state does not allow, before any other check is made. */
  public static void require(State current, Action action) {
    if (!allowed(current).contains(action)) {
      throw new TransitionRefusedException(current, action, allowed(current), null);
    }
  }

  /**
   * The state an action leads to, or a {@link TransitionRefusedException} naming the current state
   * and what is allowed from it.
   */
  public static State next(State current, Action action, Facts facts) {
    require(current, action);
    return switch (action) {
      case NEGOTIATE -> State.NEGOTIATING;
      case SIGN -> facts.fullySignedAfter() ? State.ACTIVE : current;
      case FUND, STAKE_COLLATERAL -> current;
      case DELIVER -> State.DELIVERED;
      case REDELIVER -> {
        if (!facts.hardeningOpen()) {
          throw new TransitionRefusedException(
              current,
              action,
              allowed(current),
              "no hardening cycle is open: a deliverable is re-delivered only when Shadow Scoring opened one");
        }
        yield State.DELIVERED;
      }
      case VERIFY -> State.VERIFIED;
      case CHALLENGE -> {
        if (!facts.challengeWindowOpen()) {
          throw new TransitionRefusedException(
              current, action, allowed(current), "the challenge window has closed");
        }
        yield State.DISPUTED;
      }
      case CLOSE -> {
        if (facts.challengeWindowOpen()) {
          throw new TransitionRefusedException(
              current,
              action,
              allowed(current),
              "the challenge window is still open; the agreement can close once it has passed");
        }
        yield State.CLOSED;
      }
      case QUARANTINE -> State.DISPUTED;
      case RULE -> State.CLOSED;
      case ESCALATE -> State.DISPUTED;
      case REJECT -> State.REJECTED;
      case EXPIRE -> State.EXPIRED;
    };
  }
}
