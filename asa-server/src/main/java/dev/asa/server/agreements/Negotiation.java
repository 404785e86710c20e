package dev.asa.server.agreements;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.asa.agreement.Role;
import dev.asa.document.Agreement;
import dev.asa.document.AgreementDocuments;
import dev.asa.facts.EvaluatorProposalsFact;
import dev.asa.facts.Fact;
import dev.asa.json.Json;
import dev.asa.lifecycle.Action;
import dev.asa.lifecycle.Lifecycle;
import dev.asa.lifecycle.State;
import dev.asa.negotiation.EvaluatorProposals;
import dev.asa.negotiation.MarketMedian;
import dev.asa.negotiation.NegotiationMessage;
import dev.asa.negotiation.NegotiationPolicy;
import dev.asa.negotiation.NegotiationState;
import dev.asa.negotiation.Negotiator;
import dev.asa.server.market.MarketData;
import dev.asa.server.store.Write;
import dev.asa.server.store.timers.TimerRow;
import dev.asa.server.work.Actor;
import dev.asa.server.work.Change;
import dev.asa.server.work.Command;
import dev.asa.server.work.EventLog;
import dev.asa.server.work.EventType;
import dev.asa.server.work.TimerKind;
import java.time.Instant;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.function.Supplier;

/**
 * {@code PATCH /agreements/{id}/negotiate}: reads the structured message, finds the market median,
 * lets the core {@link Negotiator} decide (turns, rounds, the 25% asymmetry limit, price bounds,
 * accept and reject), and turns its outcome into the next agreement and its event. The
 * negotiation's state lives in the agreement's negotiation fact, so any node can take the next
 * message.
 */
final class Negotiation {
  /**
   * The durable timer that rejects a negotiation left without a message for the policy's timeout.
   */
  private final MarketData market;

  private final NegotiationPolicy policy;
  private final Set<String> trustedMarketSources;
  private final SubcontractGuard subcontracts;

  Negotiation(
      MarketData market,
      NegotiationPolicy policy,
      Set<String> trustedMarketSources,
      SubcontractGuard subcontracts) {
    this.market = market;
    this.policy = policy;
    this.trustedMarketSources = Set.copyOf(trustedMarketSources);
    this.subcontracts = subcontracts;
  }

  Change apply(
      Agreement a, Command.Negotiate request, Instant now, Actor actor, Supplier<String> newId) {
    Actor.requireClaimMatches(request.claimedParty().orElse(null), actor);
    NegotiationMessage msg = request.message();
    Lifecycle.require(
        a.state(),
        msg.action() == NegotiationMessage.Kind.REJECT ? Action.REJECT : Action.NEGOTIATE);
    Role party = Role.fromWire(actor.role());
    Negotiator.Outcome outcome =
        Negotiator.apply(a, negotiationOf(a), msg, party, median(a, msg), policy, now, newId);
    // Checked whatever the outcome, so that a refused proposal is never silently dropped; recorded
    // only by a message that keeps the negotiation going (a rejection assigns nobody).
    Optional<EvaluatorProposalsFact> proposals =
        EvaluatorProposals.apply(a.terms(), a.facts().evaluatorProposals(), msg, party, now);

    ObjectNode payload = Json.object();
    payload.put("party", party.wireName());
    payload.put("action", msg.action().name().toLowerCase(Locale.ROOT));
    payload.put("round", outcome.next().round());
    payload.put("negotiation_id", outcome.next().negotiationId());
    payload.put("rationale_code", msg.rationale().wireName());
    if (proposals.isPresent() && !(outcome instanceof Negotiator.Rejected)) {
      ArrayNode proposed = payload.putArray("proposed_evaluators");
      msg.proposedEvaluators().orElseThrow().forEach(k -> proposed.add(k.toBase64Url()));
    }
    return switch (outcome) {
      case Negotiator.Changed c -> {
        State next = Lifecycle.next(a.state(), Action.NEGOTIATE, Lifecycle.Facts.NONE);
        ObjectNode doc = c.newDocument();
        doc.put("status", next.wireName());
        // The renegotiated terms keep the server's facts; the negotiation's own fact moves on.
        Agreement changed =
            withProposals(
                AgreementDocuments.read(doc)
                    .withFacts(a.facts())
                    .withFact(Fact.NEGOTIATION, c.next().toJson()),
                proposals);
        subcontracts.checkChangedTerms(changed); // budgets: against the parent, and of the children
        ArrayNode changes = payload.putArray("changes");
        for (Negotiator.Change ch : c.changes()) {
          changes
              .addObject()
              .put("path", ch.path())
              .set("before", ch.before().isMissingNode() ? Json.mapper().nullNode() : ch.before());
          ((ObjectNode) changes.get(changes.size() - 1)).set("after", ch.after());
        }
        payload.put("price_note", c.priceNote());
        if (c.flag() != null) {
          payload.set("price_flag", c.flag().toJson());
        }
        payload.put("agreement_hash", changed.hash().toString());
        payload.put("state", next.name());
        yield new Change(
            changed,
            List.of(new EventLog.Draft(EventType.NEGOTIATED, actor, payload)),
            List.of(timeoutTimer(a.id(), c.next())),
            null);
      }
      case Negotiator.Accepted acc -> {
        payload.put("agreement_hash", a.hash().toString());
        payload.put("state", a.state().name());
        Agreement accepted =
            withProposals(a.withFact(Fact.NEGOTIATION, acc.next().toJson()), proposals);
        yield new Change(
            accepted,
            List.of(new EventLog.Draft(EventType.ACCEPTED, actor, payload)),
            List.of(),
            null);
      }
      case Negotiator.Rejected rej -> {
        State next = Lifecycle.next(a.state(), Action.REJECT, Lifecycle.Facts.NONE);
        payload.put("reason", rej.reason());
        payload.put("state", next.name());
        Agreement rejected = a.withState(next).withFact(Fact.NEGOTIATION, rej.next().toJson());
        yield new Change(
            rejected,
            List.of(new EventLog.Draft(EventType.REJECTED, actor, payload)),
            List.of(),
            null);
      }
    };
  }

  private static Agreement withProposals(Agreement a, Optional<EvaluatorProposalsFact> proposals) {
    return proposals.map(p -> a.withFacts(f -> f.withEvaluatorProposals(p))).orElse(a);
  }

  /** The negotiation so far, as the server recorded it (never as a caller wrote it). */
  static Optional<NegotiationState> negotiationOf(Agreement a) {
    return NegotiationState.fromJson(a.facts().get(Fact.NEGOTIATION));
  }

  private Write timeoutTimer(String agreementId, NegotiationState state) {
    return new Write.SetTimer(
        TimerRow.of(agreementId, TimerKind.NEGOTIATION_TIMEOUT.wireName(), state.deadline(policy)));
  }

  /**
   * The negotiation timeout fired: a negotiation still open and stalled (no message for the
   * policy's timeout) ends with the agreement REJECTED; anything else (it moved on, it was accepted
   * or signed, the timer was moved) leaves the agreement alone (null: no change).
   */
  Change timeOut(Agreement a, Instant now, Actor server) {
    Optional<NegotiationState> state = negotiationOf(a);
    if (!Lifecycle.allowed(a.state()).contains(Action.REJECT)
        || state.isEmpty()
        || !state.get().stalled(now, policy)) {
      return null;
    }
    State next = Lifecycle.next(a.state(), Action.REJECT, Lifecycle.Facts.NONE);
    ObjectNode payload = Json.object();
    payload.put(
        "reason", "negotiation timed out: no message for " + policy.timeoutSeconds() + " s");
    payload.put("negotiation_id", state.get().negotiationId());
    payload.put("round", state.get().round());
    payload.put("state", next.name());
    return new Change(
        a.withState(next),
        List.of(new EventLog.Draft(EventType.REJECTED, server, payload)),
        List.of(),
        null);
  }

  /**
   * The median the price bounds use: this store's own closed agreements of the service type in the
   * agreement's currency when there are enough, else a market_reference from a trusted source, else
   * none (then no price is flagged, and the event says so).
   */
  private Optional<MarketMedian> median(Agreement a, NegotiationMessage msg) {
    Optional<MarketMedian> own =
        a.terms()
            .escrow()
            .paymentTerms()
            .flatMap(p -> market.median(a.terms().service().type(), p.amount().currency().code()))
            .map(m -> new MarketMedian(m.value(), MarketMedian.CLOSED_AGREEMENTS));
    return own.isPresent()
        ? own
        : MarketMedian.fromReference(msg.marketReference(), trustedMarketSources);
  }
}
