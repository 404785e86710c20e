package dev.asa.server.pool;

import dev.asa.access.Caller;
import dev.asa.access.RegistryReader;
import dev.asa.integrity.Standing;
import dev.asa.server.store.pool.EvaluatorRow;
import dev.asa.server.work.ConflictException;
import dev.asa.server.work.IdempotencyTicket;
import dev.asa.server.work.NotFoundException;
import dev.asa.server.work.Outcome;
import java.time.Clock;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.function.UnaryOperator;

/**
 * {@code POST /evaluators/{key}/suspend} and {@code .../reinstate}, the operator's (the route's
 * access is declared OPERATOR): a suspended evaluator is never assigned, whatever its record, until
 * the operator reinstates it. A record that falls below a bound needs no suspension: qualification
 * takes the evaluator out of the pool by itself, and back when it recovers.
 */
public final class EvaluatorStandings {
  private final EvaluatorRegistry registry;
  private final Clock clock;

  EvaluatorStandings(EvaluatorRegistry registry, Clock clock) {
    this.registry = registry;
    this.clock = clock;
  }

  public Outcome suspend(
      String keyId, Suspension suspension, Caller caller, IdempotencyTicket ticket) {
    return change(
        keyId,
        standing -> {
          if (standing instanceof Standing.Suspended s) {
            throw new ConflictException(
                "evaluator "
                    + keyId
                    + " is already suspended ("
                    + s.note()
                    + "); reinstate it first to suspend it for another reason");
          }
          return Standing.suspended(suspension.reason());
        },
        ticket);
  }

  public Outcome reinstate(String keyId, Caller caller, IdempotencyTicket ticket) {
    return change(
        keyId,
        standing -> {
          if (standing instanceof Standing.Active) {
            throw new ConflictException(
                "evaluator " + keyId + " is not suspended: there is nothing to reinstate");
          }
          return Standing.ACTIVE;
        },
        ticket);
  }

  private Outcome change(String keyId, UnaryOperator<Standing> change, IdempotencyTicket ticket) {
    Instant now = clock.instant().truncatedTo(ChronoUnit.MILLIS); // as the store keeps it
    EvaluatorRow row;
    try {
      row =
          registry.changeStanding(
              keyId,
              change,
              now,
              changed -> IdempotencyTicket.writes(ticket, outcome(changed), now));
    } catch (IllegalArgumentException e) { // the store's answer for a key nobody registered
      throw new NotFoundException("no evaluator is registered with key " + keyId);
    }
    return outcome(row);
  }

  private Outcome outcome(EvaluatorRow row) {
    // Only the operator suspends and reinstates (an OPERATOR route).
    return new Outcome(
        200,
        EvaluatorViews.of(
            row,
            registry.qualificationShown(row, RegistryReader.OPERATOR),
            RegistryReader.OPERATOR));
  }
}
