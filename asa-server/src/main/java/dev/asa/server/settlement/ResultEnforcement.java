package dev.asa.server.settlement;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.asa.agreement.VerificationTerms;
import dev.asa.document.Agreement;
import dev.asa.facts.DisputeFact;
import dev.asa.facts.EscrowStatus;
import dev.asa.facts.FactCodec;
import dev.asa.facts.VerificationFact;
import dev.asa.json.Json;
import dev.asa.lifecycle.Action;
import dev.asa.lifecycle.Lifecycle;
import dev.asa.lifecycle.State;
import dev.asa.server.escrow.Disputes;
import dev.asa.server.escrow.Enforcement;
import dev.asa.server.store.Write;
import dev.asa.server.work.Actor;
import dev.asa.server.work.Change;
import dev.asa.server.work.Deadlines;
import dev.asa.server.work.EventLog;
import dev.asa.server.work.EventType;
import dev.asa.shadow.Gate;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * What a recorded result sets off: with a challenge window, the timer that enforces it when the
 * window closes; pessimistic verification, enforcement at once; a Shadow Scoring gate that holds
 * the payment, a quarantine (DISPUTED, money frozen, the case filed).
 */
public final class ResultEnforcement {
  private final Closing closing;
  private final Disputes disputes;
  private final String serverKeyId;

  public ResultEnforcement(Closing closing, Disputes disputes, String serverKeyId) {
    this.closing = closing;
    this.disputes = disputes;
    this.serverKeyId = serverKeyId;
  }

  /**
   * After verification: with a challenge window, a timer enforces the result when it closes;
   * pessimistic verification enforces it at once.
   */
  public Change enforce(Change verified, Instant now) {
    Agreement a = verified.next();
    if (a.state() == State.DELIVERED) { // a shadow hardening cycle opened: nothing to enforce yet
      return verified;
    }
    VerificationFact recorded = a.facts().verification().orElseThrow();
    String shadowGate = recorded.shadowGate();
    if (shadowGate.equals(Gate.QUARANTINE.wire()) || shadowGate.equals(Gate.BLOCKED.wire())) {
      return quarantine(verified, shadowGate, now);
    }
    List<Write> writes = new ArrayList<>(verified.writes());
    if (a.terms().verification().strategy() != VerificationTerms.Strategy.PESSIMISTIC) {
      Instant closesAt = recorded.challengeWindowClosesAt();
      writes.addAll(Deadlines.atVerification(a, closesAt));
      return new Change(a, verified.events(), writes, verified.response());
    }
    Change closed = closing.onResult(a, now, Actor.server(serverKeyId));
    List<EventLog.Draft> events = new ArrayList<>(verified.events());
    events.addAll(closed.events());
    writes.addAll(closed.writes());
    ObjectNode response = ((ObjectNode) verified.response()).deepCopy();
    response.put("state", closed.next().state().name());
    return new Change(closed.next(), events, writes, response);
  }

  /**
   * The shadow gate held the payment: a score of 31 to 50% (quarantine), or a seal that does not
   * verify (blocked). The result stays recorded; the agreement goes to DISPUTED with the money
   * frozen, through the same filing as a challenge, with the shadow report as evidence; a ruling
   * settles it.
   */
  private Change quarantine(Change verified, String gate, Instant now) {
    Agreement a = verified.next();
    State next = Lifecycle.next(a.state(), Action.QUARANTINE, Lifecycle.Facts.NONE);
    String reason =
        gate.equals(Gate.BLOCKED.wire()) ? "shadow_seal_broken" : "shadow_score_quarantine";
    Disputes.Filing filing = disputes.file(a, reason, "server", now);
    DisputeFact dispute = filing.fact();
    JsonNode report =
        verified.response() == null
            ? null
            : verified.response().path("verification").path("shadow_score");
    if (report != null && !report.isMissingNode()) {
      ObjectNode evidence = Json.object();
      evidence.set("shadow_score", report);
      dispute = dispute.withEvidence(evidence);
    }
    DisputeFact filed = dispute;
    Agreement result =
        Enforcement.withEscrowStatus(
            a.withState(next).withFacts(f -> f.withDispute(filed)), EscrowStatus.FROZEN);
    ObjectNode payload = Json.object();
    payload.put("gate", gate);
    payload.put("reason_code", reason);
    payload.set("dispute", FactCodec.write(filing.fact()));
    payload.put("state", next.name());
    List<EventLog.Draft> events = new ArrayList<>(verified.events());
    events.add(new EventLog.Draft(EventType.QUARANTINED, Actor.server(serverKeyId), payload));
    List<Write> writes = new ArrayList<>(verified.writes());
    filing.message().ifPresent(writes::add);
    ObjectNode response = ((ObjectNode) verified.response()).deepCopy();
    response.put("state", next.name());
    return new Change(result, events, writes, response);
  }
}
