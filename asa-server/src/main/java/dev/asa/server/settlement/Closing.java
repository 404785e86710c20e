package dev.asa.server.settlement;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.asa.agreement.DisputeTerms;
import dev.asa.document.Agreement;
import dev.asa.facts.CollateralFact;
import dev.asa.facts.CollateralStatus;
import dev.asa.facts.Fact;
import dev.asa.facts.FactCodec;
import dev.asa.facts.SettlementFact;
import dev.asa.facts.VerificationFact;
import dev.asa.json.Json;
import dev.asa.ledger.Slashing;
import dev.asa.lifecycle.Action;
import dev.asa.lifecycle.Lifecycle;
import dev.asa.lifecycle.State;
import dev.asa.scoring.Determination;
import dev.asa.server.escrow.Disputes;
import dev.asa.server.escrow.Enforcement;
import dev.asa.server.store.Write;
import dev.asa.server.work.Actor;
import dev.asa.server.work.Change;
import dev.asa.server.work.EventLog;
import dev.asa.server.work.EventType;
import dev.asa.server.work.TimerKind;
import java.math.BigDecimal;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The ways an agreement ends with money moving: closing on its verification result, closing on a
 * ruling, expiring by a dead-man's switch. Each settles through {@link Enforcement#settle} and
 * records the settlement as its settlement fact, and settles a staked collateral with it ({@link
 * Enforcement#settleCollateral}: slashed on the slash event this ending is, returned otherwise);
 * the final state never changes afterwards.
 */
public final class Closing {
  private final Enforcement enforcement;
  private final Disputes disputes;

  public Closing(Enforcement enforcement, Disputes disputes) {
    this.enforcement = enforcement;
    this.disputes = disputes;
  }

  /**
   * Enforces the verification result: its release percentage is paid out and the agreement closes.
   * When the composite is under {@code dispute.threshold} and the terms ask for it, a dispute is
   * filed with the evidence as well (the money still follows the result: the filing is for the
   * dispute protocol's forensics and reputation, not a freeze).
   */
  public Change onResult(Agreement a, Instant now, Actor actor) {
    State next = Lifecycle.next(a.state(), Action.CLOSE, Lifecycle.Facts.NONE);
    VerificationFact verification =
        a.facts()
            .verification()
            .orElseThrow(() ->
                new IllegalStateException(
                    "agreement " + a.id() + " is closed on a result it has not recorded"));
    Enforcement.Settling step =
        enforcement.settle(a, verification.releasePercent(), "verification_result", now);
    List<Write> writes = new ArrayList<>(step.writes());
    Agreement result = a.withState(next);
    Optional<JsonNode> autoFiled = Optional.empty();
    DisputeTerms terms = a.terms().dispute();
    if (terms != null && terms.autoFiles(verification.composite())) {
      Disputes.Filing filing = disputes.file(a, "quality_below_agreed_slo", "server", now);
      filing.message().ifPresent(writes::add);
      autoFiled = Optional.of(FactCodec.write(filing.fact()));
      result = result.withFacts(f -> f.withDispute(filing.fact()));
    }
    SettlementFact settlement =
        step.settlement().closedOnResult(now, verification.verificationId(), autoFiled);
    return finish(
        result,
        settlement,
        EventType.CLOSED,
        actor,
        writes,
        new Slashing.OnVerdict(failedBelowThreshold(a, verification)));
  }

  /** A ruling closes a dispute: {@code percent} to the provider, the rest to the client. */
  public Change onRuling(Agreement a, BigDecimal percent, String reason, Instant now, Actor actor) {
    enforcement.checkRuling(a, percent);
    State next = Lifecycle.next(a.state(), Action.RULE, Lifecycle.Facts.NONE);
    Enforcement.Settling step = enforcement.settle(a, percent, "ruling", now);
    ObjectNode ruling = Json.object();
    ruling.put("release_percent", percent);
    ruling.put("reason", reason);
    ruling.put("ruled_by", actor.role());
    if (actor.keyId() != null) ruling.put("key", actor.keyId());
    ruling.put("ruled_at", now.toString());
    SettlementFact settlement =
        step.settlement().closedOnRuling(now, ruling, a.facts().verificationId());
    VerificationFact verdict = a.facts().verification().orElse(null);
    return finish(
        a.withState(next).withFact(Fact.RULING, ruling),
        settlement,
        EventType.RULED,
        actor,
        step.writes(),
        new Slashing.OnRuling(
            percent,
            verdict == null ? null : verdict.releasePercent(),
            verdict != null && failedBelowThreshold(a, verdict)));
  }

  /**
   * A dead-man's switch ends the agreement as EXPIRED: whatever is held goes {@code percent} to the
   * provider and the rest back to the client (nothing moves if nothing was held).
   */
  public Change onTimeout(
      Agreement a, BigDecimal percent, String reason, Instant now, Actor actor) {
    State next = Lifecycle.next(a.state(), Action.EXPIRE, Lifecycle.Facts.NONE);
    Enforcement.Settling step = enforcement.settle(a, percent, reason, now);
    // Only the provider's own delivery deadline is its fault; the client's funding deadline, the
    // agreement's expiry and an evaluator's deadline are not.
    boolean providerMissedDelivery = reason.equals(TimerKind.PROVIDER_DELIVERY_TIMEOUT.wireName());
    return finish(
        a.withState(next),
        step.settlement().expired(now),
        EventType.EXPIRED,
        actor,
        step.writes(),
        new Slashing.OnTimeout(providerMissedDelivery));
  }

  /** Whether the recorded verdict is a FAIL with its composite below the agreement's threshold. */
  private static boolean failedBelowThreshold(Agreement a, VerificationFact verdict) {
    return Slashing.failedBelowThreshold(
        Determination.PASS.equals(verdict.result()),
        verdict.composite(),
        a.terms().qualityCriteria().compositeThreshold());
  }

  /**
   * What every ending shares: the settlement recorded, the deliverable's content erased, and the
   * provider's staked collateral, if any, slashed or returned in this same change (so a stake is
   * settled exactly when, and as often as, the escrow is: once).
   */
  private Change finish(
      Agreement a,
      SettlementFact settlement,
      EventType event,
      Actor actor,
      List<Write> writes,
      Slashing.Ending ending) {
    // Every ending erases the deliverable's content (section 12.4), verified or not; its digest
    // stays.
    writes = new ArrayList<>(writes);
    writes.add(new Write.EraseDeliverableContent(a.id()));
    Agreement result =
        Enforcement.withEscrowStatus(
            a.withFacts(f -> f.withSettlement(settlement)), settlement.escrowStatus());
    ObjectNode payload = FactCodec.write(settlement);
    payload.put("state", result.state().name());
    List<EventLog.Draft> events = new ArrayList<>();
    events.add(new EventLog.Draft(event, actor, payload));
    Optional<Enforcement.Bond> bond =
        enforcement.settleCollateral(a, ending, settlement.reason(), settlement.settledAt());
    if (bond.isPresent()) {
      CollateralFact collateral = bond.get().collateral();
      writes.addAll(bond.get().writes());
      result = result.withFacts(f -> f.withCollateral(collateral));
      ObjectNode settled = FactCodec.write(collateral);
      settled.put("state", result.state().name());
      events.add(
          new EventLog.Draft(
              collateral.status() == CollateralStatus.SLASHED
                  ? EventType.COLLATERAL_SLASHED
                  : EventType.COLLATERAL_RETURNED,
              actor,
              settled));
    }
    return new Change(result, events, writes, null);
  }
}
