package dev.asa.server.agreements;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.asa.access.AccessDeniedException;
import dev.asa.access.AccessPolicy;
import dev.asa.access.Caller;
import dev.asa.access.Operation;
import dev.asa.agreement.ChallengeReason;
import dev.asa.agreement.InvalidDocumentException;
import dev.asa.crypto.Ed25519PublicKey;
import dev.asa.dispute.AjpClaims;
import dev.asa.document.Agreement;
import dev.asa.facts.DisputeFact;
import dev.asa.facts.EscrowStatus;
import dev.asa.facts.FactCodec;
import dev.asa.json.Json;
import dev.asa.lifecycle.Action;
import dev.asa.lifecycle.Lifecycle;
import dev.asa.lifecycle.State;
import dev.asa.server.escrow.Disputes;
import dev.asa.server.escrow.Enforcement;
import dev.asa.server.settlement.Closing;
import dev.asa.server.work.Actor;
import dev.asa.server.work.Change;
import dev.asa.server.work.Command;
import dev.asa.server.work.ConflictException;
import dev.asa.server.work.Deadlines;
import dev.asa.server.work.EventLog;
import dev.asa.server.work.EventType;
import dev.asa.server.work.IdempotencyTicket;
import dev.asa.server.work.Outcome;
import dev.asa.server.work.UnitOfWork;
import java.math.BigDecimal;
import java.util.List;
import java.util.Set;

/**
 * Disputes of a recorded result: a party's challenge inside the window (the money freezes and the
 * case is filed with the dispute protocol), and the ruling that settles it, by the operator or a
 * configured arbiter who is not involved in the agreement.
 */
public final class DisputeCommands {
  private final UnitOfWork work;
  private final Disputes disputes;
  private final Closing closing;
  private final Set<Ed25519PublicKey> arbiters;

  DisputeCommands(
      UnitOfWork work, Disputes disputes, Closing closing, Set<Ed25519PublicKey> arbiters) {
    this.work = work;
    this.disputes = disputes;
    this.closing = closing;
    this.arbiters = Set.copyOf(arbiters);
  }

  public Outcome challenge(
      String id, Command.Challenge request, Caller caller, IdempotencyTicket ticket) {
    String claimed = request.claimedParty().orElse(null);
    ChallengeReason reason = request.reason();
    return work.mutate(
        id,
        ticket,
        caller,
        Operation.CHALLENGE,
        current -> {
          Agreement a = current.agreement();
          Actor.requireClaimMatches(claimed, current.actor());
          boolean open = Deadlines.window(a).map(w -> w.isOpenAt(current.now())).orElse(false);
          State next =
              Lifecycle.next(a.state(), Action.CHALLENGE, new Lifecycle.Facts(false, open));
          ObjectNode payload = Json.object();
          payload.put("party", current.actor().role());
          payload.put("reason_code", reason.wireName());
          payload.put("state", next.name());
          Disputes.Filing filing =
              disputes.file(a, reason.wireName(), current.actor().role(), current.now());
          payload.set("dispute", FactCodec.write(filing.fact()));
          Agreement result =
              Enforcement.withEscrowStatus(
                  a.withState(next).withFacts(f -> f.withDispute(filing.fact())),
                  EscrowStatus.FROZEN);
          return new Change(
              result,
              List.of(new EventLog.Draft(EventType.CHALLENGED, current.actor(), payload)),
              filing.message().map(List::of).orElse(List.of()),
              null);
        });
  }

  /**
   * {@code POST /agreements/{id}/ruling}: the operator, or an arbiter the operator configured,
   * settles a dispute with a release percentage and a reason; the agreement closes.
   */
  public Outcome rule(String id, Command.Ruling ruling, Caller caller, IdempotencyTicket ticket) {
    // An arbiter is a stranger to the agreement's parties; it holds ruling authority by
    // configuration.
    Caller ruler =
        caller instanceof Caller.Key k && arbiters.contains(k.key())
            ? new Caller.Key(k.key(), true)
            : caller;
    return work.mutate(
        id,
        ticket,
        ruler,
        Operation.RULE,
        current -> {
          // No one judges their own case: a key that is a party's or the evaluator's here never
          // rules on it.
          var roles = AccessPolicy.rolesOf(current.agreement(), caller);
          if (!roles.isEmpty()) {
            throw AccessDeniedException.forbidden(
                "the "
                    + roles.iterator().next().wireName()
                    + " of agreement "
                    + id
                    + " may not rule on its dispute, whatever its arbiter or operator standing; another arbiter rules");
          }
          Lifecycle.require(current.agreement().state(), Action.RULE);
          Actor actor =
              new Actor(
                  caller instanceof Caller.Key k && k.operator() ? "operator" : "arbiter",
                  current.actor().keyId(),
                  true);
          BigDecimal release =
              ruling.ajp() == null
                  ? ruling.releasePercent()
                  : releaseByAjp(current.agreement(), ruling.ajp());
          return closing.onRuling(
              current.agreement(), release, ruling.reason(), current.now(), actor);
        });
  }

  /**
   * The share released to the provider by an AJP decision on the case this server filed: the
   * provider keeps what it was not found at fault for ({@code 100 - its fault}), whether it was the
   * claimant or the respondent. The decision must answer this case's claim, and a case the provider
   * is not a side of (an evaluator's silence) is ruled with a release percent instead.
   */
  private static BigDecimal releaseByAjp(Agreement a, Command.AjpDecision decision) {
    DisputeFact dispute =
        a.facts()
            .dispute()
            .orElseThrow(
                () -> new ConflictException("agreement " + a.id() + " has no dispute to decide"));
    if (!decision.claimId().equals(AjpClaims.claimId(dispute.caseId()))) {
      throw new InvalidDocumentException(
          "/ajp_decision/claim_id",
          "answers claim "
              + decision.claimId()
              + ", not this agreement's ("
              + AjpClaims.claimId(dispute.caseId())
              + ")");
    }
    return AjpClaims.providerShare(
            AjpClaims.sides(a, dispute), decision.claimantFaultPct(), decision.respondentFaultPct())
        .orElseThrow(() ->
            new InvalidDocumentException(
                "/ajp_decision",
                "this case is the client's against the evaluator, and says nothing of the"
                    + " provider's share: rule with release_percent"));
  }
}
