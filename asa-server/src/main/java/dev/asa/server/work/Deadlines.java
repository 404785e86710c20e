package dev.asa.server.work;

import dev.asa.agreement.DeadMansSwitch;
import dev.asa.agreement.VerificationTerms;
import dev.asa.document.Agreement;
import dev.asa.facts.EvaluatorAssignmentFact;
import dev.asa.lifecycle.ChallengeWindow;
import dev.asa.lifecycle.State;
import dev.asa.server.escrow.Enforcement;
import dev.asa.server.store.Write;
import dev.asa.server.store.timers.TimerRow;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The durable timers of an agreement (section 8.3 and the challenge window): which are set at which
 * step, and when they are due. Each is written in the same transaction as the step that sets it;
 * what happens when one fires is {@code TimerHandlers.fire}'s business.
 */
public final class Deadlines {
  private Deadlines() {}

  public static List<Write> atCreation(Agreement a) {
    return a.terms()
        .expiry()
        .map(at -> List.<Write>of(timer(a, TimerKind.EXPIRES_AT, at)))
        .orElse(List.of());
  }

  /**
   * At activation the terms are final: expiry moves with them, and the funding (or delivery) clock
   * starts.
   */
  public static List<Write> atActivation(Agreement a, Instant now) {
    List<Write> writes = new ArrayList<>(atCreation(a));
    DeadMansSwitch dms = a.terms().escrow().deadMansSwitch();
    if (Enforcement.requiresFunding(a.terms())) {
      if (dms.clientTimeoutSeconds() != null) {
        writes.add(
            timer(
                a, TimerKind.CLIENT_FUNDING_TIMEOUT, now.plusSeconds(dms.clientTimeoutSeconds())));
      }
    } else {
      writes.addAll(deliveryClock(a, now));
    }
    return writes;
  }

  /**
   * The provider's clock starts once the money is held: it should not work for an unfunded
   * agreement.
   */
  public static List<Write> atFunding(Agreement a, Instant now) {
    return deliveryClock(a, now);
  }

  public static List<Write> atDelivery(Agreement a, Instant now) {
    return List.of(
        timer(
            a, TimerKind.EVALUATOR_TIMEOUT, now.plusSeconds(a.terms().evaluatorDeadlineSeconds())));
  }

  /** The challenge window of the recorded verification; empty before verification. */
  public static Optional<ChallengeWindow> window(Agreement a) {
    return a.facts().verifiedAt().map(at -> ChallengeWindow.after(at, a.terms().verification()));
  }

  /**
   * When the evaluator's result is due: {@code evaluator_timeout_seconds} after the latest
   * delivery, or after the evaluator was assigned if that was later (a backup gets a fresh
   * deadline).
   */
  public static Optional<Instant> evaluatorDeadline(Agreement a) {
    Optional<Instant> assigned =
        a.facts().assignedEvaluators().map(EvaluatorAssignmentFact::assignedAt);
    return a.facts()
        .deliveredAt()
        .map(at -> assigned.filter(at::isBefore).orElse(at))
        .map(at -> at.plusSeconds(a.terms().evaluatorDeadlineSeconds()));
  }

  /**
   * Optimistic verification waits out the window; pessimistic enforces at once and needs no timer.
   */
  public static List<Write> atVerification(Agreement a, Instant windowClosesAt) {
    if (a.terms().verification().strategy() == VerificationTerms.Strategy.PESSIMISTIC) {
      return List.of();
    }
    return List.of(timer(a, TimerKind.CHALLENGE_WINDOW, windowClosesAt));
  }

  /**
   * Whether a timer of this kind still binds the agreement in its present state: when it fires it
   * would act, rather than find its step already taken. A timer is not deleted when its step is
   * taken (a fired no-op is cheaper than a delete on every step; all go when the agreement ends);
   * this is what a reader of the deadlines, and {@code TimerHandlers.fire}, ask instead.
   */
  public static boolean binds(TimerKind kind, Agreement a) {
    return switch (kind) {
      case NEGOTIATION_TIMEOUT -> a.state() == State.NEGOTIATING;
      case EXPIRES_AT ->
          switch (a.state()) {
            case PROPOSED, NEGOTIATING, ACTIVE -> true;
            default -> false; // delivered work, or an agreement already ended
          };
      case CLIENT_FUNDING_TIMEOUT -> a.state() == State.ACTIVE && !Enforcement.isFunded(a);
      case PROVIDER_DELIVERY_TIMEOUT -> a.state() == State.ACTIVE;
      case EVALUATOR_TIMEOUT -> a.state() == State.DELIVERED;
      case CHALLENGE_WINDOW -> a.state() == State.VERIFIED;
    };
  }

  private static List<Write> deliveryClock(Agreement a, Instant now) {
    Long seconds = a.terms().escrow().deadMansSwitch().providerTimeoutSeconds();
    return seconds == null
        ? List.of()
        : List.of(timer(a, TimerKind.PROVIDER_DELIVERY_TIMEOUT, now.plusSeconds(seconds)));
  }

  private static Write timer(Agreement a, TimerKind kind, Instant due) {
    return new Write.SetTimer(TimerRow.of(a.id(), kind.wireName(), due));
  }
}
