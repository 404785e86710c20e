package dev.asa.server.agreements;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.asa.agreement.Agreement;
import dev.asa.agreement.DisputeTerms;
import dev.asa.facts.Fact;
import dev.asa.facts.SettlementFact;
import dev.asa.facts.VerificationFact;
import dev.asa.json.Json;
import dev.asa.lifecycle.Action;
import dev.asa.lifecycle.Lifecycle;
import dev.asa.lifecycle.State;
import dev.asa.server.escrow.Disputes;
import dev.asa.server.escrow.Enforcement;
import dev.asa.server.store.Write;
import java.math.BigDecimal;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * The ways an agreement ends with money moving: closing on its verification result, closing on a
 * ruling, expiring by a dead-man's switch. Each settles through {@link Enforcement#settle} and
 * records the settlement as its settlement fact; the final state never changes afterwards.
 */
final class Closing {
  private final Enforcement enforcement;
  private final Disputes disputes;

  Closing(Enforcement enforcement, Disputes disputes) {
    this.enforcement = enforcement;
    this.disputes = disputes;
  }

  /**
   * Enforces the verification result: its release percentage is paid out and the agreement closes.
   * When the composite is under {@code dispute.threshold} and the terms ask for it, a dispute is
   * filed with the evidence as well (the money still follows the result: the filing is for the
   * dispute protocol's forensics and reputation, not a freeze).
   */
  Change onResult(Agreement a, Instant now, Actor actor) {
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
    JsonNode autoFiled = null;
    DisputeTerms terms = a.terms().dispute();
    if (terms != null && terms.autoFiles(verification.composite())) {
      Disputes.Filing filing = disputes.file(a, "quality_below_agreed_slo", "server", now);
      filing.message().ifPresent(writes::add);
      autoFiled = filing.fact().toJson();
      result = result.withFacts(f -> f.withDispute(filing.fact()));
    }
    SettlementFact settlement =
        step.settlement().closed(now, verification.verificationId(), null, autoFiled);
    return finish(result, settlement, EventType.CLOSED, actor, writes);
  }

  /** A ruling closes a dispute: {@code percent} to the provider, the rest to the client. */
  Change onRuling(Agreement a, BigDecimal percent, String reason, Instant now, Actor actor) {
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
        step.settlement().closed(now, a.facts().verificationId().orElse(null), ruling, null);
    return finish(
        a.withState(next).withFact(Fact.RULING, ruling),
        settlement,
        EventType.RULED,
        actor,
        step.writes());
  }

  /**
   * A dead-man's switch ends the agreement as EXPIRED: whatever is held goes {@code percent} to the
   * provider and the rest back to the client (nothing moves if nothing was held).
   */
  Change onTimeout(Agreement a, BigDecimal percent, String reason, Instant now, Actor actor) {
    State next = Lifecycle.next(a.state(), Action.EXPIRE, Lifecycle.Facts.NONE);
    Enforcement.Settling step = enforcement.settle(a, percent, reason, now);
    return finish(
        a.withState(next), step.settlement().expired(now), EventType.EXPIRED, actor, step.writes());
  }

  private static Change finish(
      Agreement a, SettlementFact settlement, EventType event, Actor actor, List<Write> writes) {
    // Every ending erases the deliverable's content (section 12.4), verified or not; its digest
    // stays.
    writes = new ArrayList<>(writes);
    writes.add(new Write.EraseDeliverableContent(a.id()));
    Agreement result =
        Enforcement.withEscrowStatus(
            a.withFacts(f -> f.withSettlement(settlement)), settlement.escrowStatus());
    ObjectNode payload = settlement.toJson();
    payload.put("state", result.state().name());
    return new Change(result, List.of(new EventLog.Draft(event, actor, payload)), writes, null);
  }
}
