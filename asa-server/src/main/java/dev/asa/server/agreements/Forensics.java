package dev.asa.server.agreements;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.asa.access.AccessPolicy;
import dev.asa.access.Caller;
import dev.asa.access.Operation;
import dev.asa.crypto.Ed25519PublicKey;
import dev.asa.document.Agreement;
import dev.asa.facts.Fact;
import dev.asa.json.Json;
import dev.asa.lifecycle.EventChain;
import dev.asa.server.escrow.Enforcement;
import dev.asa.server.store.agreements.AgreementRow;
import dev.asa.server.store.agreements.EventStore;
import dev.asa.server.store.verification.TaskRow;
import dev.asa.server.store.verification.TaskStore;
import dev.asa.server.store.verification.VerificationRow;
import dev.asa.server.store.verification.VerificationStore;
import dev.asa.server.work.EventLog;
import dev.asa.server.work.UnitOfWork;
import java.util.List;
import java.util.Set;

/**
 * {@code GET /agreements/{id}/forensics}: the full verification trail a dispute body asks for
 * (whitepaper 9.3: "every dimension score, every piece of evaluator evidence, every canary task
 * result"): every verification result with its dimension scores and evidence, who judged (the
 * assignment, a backup, a panel's consensus inside the results), the canary outcomes of the
 * agreement's deliveries, the dispute and ruling, the event log, the ledger.
 *
 * <p>Who sees what. The dispute body (the operator, or an arbiter it configured) sees all of it. A
 * party or the agreement's evaluator sees its own parts only: the results, the dispute, the events
 * and the ledger it can read elsewhere already, but not the canaries (which evaluator was tested,
 * when, and how it did is the pool's business; a party that learnt it could steer its work around
 * them). A canary is never shown with its content or its known answer, to anyone: those would spoil
 * it for every later evaluator. A stranger is told there is no such agreement.
 */
public final class Forensics {
  private final UnitOfWork work;
  private final EventStore events;
  private final VerificationStore verifications;
  private final TaskStore tasks;
  private final Enforcement enforcement;
  private final Set<Ed25519PublicKey> arbiters;

  Forensics(
      UnitOfWork work,
      EventStore events,
      VerificationStore verifications,
      TaskStore tasks,
      Enforcement enforcement,
      Set<Ed25519PublicKey> arbiters) {
    this.work = work;
    this.events = events;
    this.verifications = verifications;
    this.tasks = tasks;
    this.enforcement = enforcement;
    this.arbiters = Set.copyOf(arbiters);
  }

  public ObjectNode trail(String id, Caller caller) {
    AgreementRow row = work.load(id);
    Agreement a = work.agreement(row);
    boolean disputeBody =
        caller instanceof Caller.Key k
            && (k.operator() || arbiters.contains(k.key()))
            && AccessPolicy.rolesOf(a, caller).isEmpty();
    if (!disputeBody) {
      AccessPolicy.require(a, caller, Operation.READ); // a stranger: "not found"
    }
    ObjectNode out = Json.object();
    out.put("agreement_id", id);
    out.put("agreement_hash", a.hash().toString());
    out.put("state", a.state().name());
    out.put("view", disputeBody ? "dispute_body" : "party");
    ArrayNode results = out.putArray("verifications");
    for (VerificationRow v : verifications.ofAgreement(id)) {
      results.add(Json.parseTrusted(v.result()));
    }
    for (Fact fact :
        List.of(
            Fact.ASSIGNED_EVALUATORS,
            Fact.EVALUATOR_ASSIGNMENT,
            Fact.DELIVERABLE,
            Fact.DISPUTE,
            Fact.RULING,
            Fact.SETTLEMENT)) {
      if (a.facts().has(fact)) {
        out.set(fact.wireName(), a.facts().get(fact));
      }
    }
    if (disputeBody) {
      ArrayNode canaries = out.putArray("canaries");
      for (TaskRow t : tasks.ofAgreement(id)) {
        if (t.kind() == TaskRow.Kind.CANARY) {
          ObjectNode c = canaries.addObject();
          c.put("delivery", t.delivery());
          c.put("evaluator_key", t.evaluatorKey());
          c.put("status", t.status().name().toLowerCase(java.util.Locale.ROOT));
          if (t.outcome() != null) {
            c.put("outcome", t.outcome());
          }
          if (t.answeredAt() != null) {
            c.put("answered_at", t.answeredAt().toString());
          }
        }
      }
    }
    var log = events.log(id).stream().map(EventLog::toCore).toList();
    ObjectNode trail = out.putObject("events");
    trail.put("chain_valid", EventChain.firstBreak(log).isEmpty());
    ArrayNode list = trail.putArray("events");
    log.forEach(e -> list.add(e.toJson()));
    ObjectNode ledger = enforcement.view(a);
    ledger.remove("messages"); // the outbox's deliveries are the operator's, not evidence
    out.set("ledger", ledger);
    return out;
  }
}
