package dev.asa.server.agreements;

import dev.asa.access.Caller;
import dev.asa.access.Operation;
import dev.asa.document.Agreement;
import dev.asa.server.settlement.Closing;
import dev.asa.server.store.timers.TimerRow;
import dev.asa.server.verification.VerificationFlow;
import dev.asa.server.work.Change;
import dev.asa.server.work.Deadlines;
import dev.asa.server.work.TimerKind;
import dev.asa.server.work.UnitOfWork;
import java.math.BigDecimal;
import java.time.Instant;
import java.util.List;

/**
 * What each durable timer does when it fires (section 8.3 and the challenge window). Each handler
 * re-checks the agreement before acting, so that firing twice, or after the situation changed, does
 * nothing.
 */
public final class TimerHandlers {
  private final UnitOfWork work;
  private final Negotiation negotiation;
  private final Closing closing;
  private final VerificationFlow flow;

  TimerHandlers(UnitOfWork work, Negotiation negotiation, Closing closing, VerificationFlow flow) {
    this.work = work;
    this.negotiation = negotiation;
    this.closing = closing;
    this.flow = flow;
  }

  /**
   * A durable timer fired. Each kind re-checks the agreement before acting, so that firing twice,
   * or after the situation changed, does nothing.
   */
  public void fire(TimerRow timer) {
    String id = timer.agreementId();
    switch (TimerKind.fromWire(timer.kind())) {
      case NEGOTIATION_TIMEOUT ->
          work.mutate(
              id,
              null,
              Caller.SERVER,
              Operation.NEGOTIATE,
              current -> negotiation.timeOut(current.agreement(), current.now(), current.actor()));
      case EXPIRES_AT -> onExpiry(timer);
      case CLIENT_FUNDING_TIMEOUT ->
          work.mutate(
              id,
              null,
              Caller.SERVER,
              Operation.FUND,
              current -> {
                Agreement a = current.agreement();
                return Deadlines.binds(TimerKind.CLIENT_FUNDING_TIMEOUT, a)
                    ? closing.onTimeout(
                        a,
                        BigDecimal.ZERO,
                        TimerKind.CLIENT_FUNDING_TIMEOUT.wireName(),
                        current.now(),
                        current.actor())
                    : null;
              });
      case PROVIDER_DELIVERY_TIMEOUT ->
          work.mutate(
              id,
              null,
              Caller.SERVER,
              Operation.DELIVER,
              current -> {
                Agreement a = current.agreement();
                return Deadlines.binds(TimerKind.PROVIDER_DELIVERY_TIMEOUT, a)
                    ? closing.onTimeout(
                        a,
                        BigDecimal.ZERO,
                        TimerKind.PROVIDER_DELIVERY_TIMEOUT.wireName(),
                        current.now(),
                        current.actor())
                    : null;
              });
      case EVALUATOR_TIMEOUT -> flow.atDeadline(id, Caller.SERVER);
      case CHALLENGE_WINDOW ->
          work.mutate(
              id,
              null,
              Caller.SERVER,
              Operation.CLOSE,
              current -> {
                Agreement a = current.agreement();
                boolean open =
                    Deadlines.window(a).map(w -> w.isOpenAt(current.now())).orElse(false);
                return Deadlines.binds(TimerKind.CHALLENGE_WINDOW, a) && !open
                    ? closing.onResult(a, current.now(), current.actor())
                    : null;
              });
    }
  }

  /**
   * {@code expires_at} passed: an agreement not yet signed, or signed but not delivered, expires
   * (held money goes back to the client). If the terms moved the date since the timer was set, the
   * timer is set again for the new date.
   */
  private void onExpiry(TimerRow timer) {
    work.mutate(
        timer.agreementId(),
        null,
        Caller.SERVER,
        Operation.READ,
        current -> {
          Agreement a = current.agreement();
          Instant expiresAt = a.terms().expiry().orElse(null);
          if (expiresAt == null || !Deadlines.binds(TimerKind.EXPIRES_AT, a)) {
            return null;
          }
          if (current.now().isBefore(expiresAt)) {
            // The terms moved the date since the timer was set: set it again (a side write only).
            return new Change(a, List.of(), Deadlines.atCreation(a), null);
          }
          return closing.onTimeout(
              a, BigDecimal.ZERO, TimerKind.EXPIRES_AT.wireName(), current.now(), current.actor());
        });
  }
}
