package dev.asa.server.escrow;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.asa.agreement.Agreement;
import dev.asa.agreement.DisputeTerms;
import dev.asa.agreement.DisputeTerms.Evidence;
import dev.asa.facts.DisputeFact;
import dev.asa.json.Json;
import dev.asa.server.store.EventRecord;
import dev.asa.server.store.EventStore;
import dev.asa.server.store.OutboxMessage;
import dev.asa.server.store.VerificationRow;
import dev.asa.server.store.VerificationStore;
import dev.asa.server.store.Write;
import java.net.URI;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Files a dispute with the protocol named by {@code dispute.protocol} (AJP-style): a signed webhook
 * naming the agreement (its id and hash) and carrying the evidence package, sent through the
 * outbox. The package holds exactly what {@code dispute.evidence_includes} asks for ({@link
 * DisputeTerms#evidence}: the agreement, the deliverable's digest, the verification result, the
 * digests of the event log), all of it when the terms name nothing. When the operator configured no
 * endpoint for the protocol, the case stays with the operator, who rules on it with {@code POST
 * /agreements/{id}/ruling}.
 */
public final class Disputes {
  private final VerificationStore verifications;
  private final EventStore events;
  private final Map<String, URI> endpoints;

  public Disputes(VerificationStore verifications, EventStore events, Map<String, URI> endpoints) {
    this.verifications = verifications;
    this.events = events;
    this.endpoints = Map.copyOf(endpoints);
  }

  /**
   * A filing: the outbox message (absent when no endpoint is configured) and the facts to record.
   */
  public record Filing(Optional<Write> message, DisputeFact fact) {}

  public Filing file(Agreement a, String reasonCode, String filedBy, Instant now) {
    String protocol = a.terms().dispute() != null ? a.terms().dispute().protocol() : "operator";
    String caseId = "case_" + a.id() + "_" + now.toEpochMilli();
    URI endpoint = endpoints.get(protocol);
    if (endpoint == null) {
      return new Filing(
          Optional.empty(),
          new DisputeFact(caseId, protocol, reasonCode, filedBy, now, "operator", null));
    }
    DisputeFact fact =
        new DisputeFact(caseId, protocol, reasonCode, filedBy, now, endpoint.toString(), null);
    ObjectNode body = Json.object();
    body.put("type", "dispute.filed");
    body.put("timestamp", now.toString());
    ObjectNode data = body.putObject("data");
    data.put("agreement_id", a.id());
    data.put("agreement_hash", a.hash().toString());
    data.setAll(fact.toJson());
    data.set("evidence", evidence(a));
    return new Filing(
        Optional.of(
            new Write.Enqueue(
                new OutboxMessage(
                    "msg_" + caseId,
                    a.id(),
                    "dispute.filed",
                    endpoint.toString(),
                    Json.write(body),
                    now,
                    0))),
        fact);
  }

  private ObjectNode evidence(Agreement a) {
    List<Evidence> asked =
        a.terms().disputeTerms().map(DisputeTerms::evidence).orElse(List.of(Evidence.values()));
    ObjectNode e = Json.object();
    for (Evidence item : asked) {
      switch (item) {
        case AGREEMENT -> e.set("agreement", a.toJson());
        case DELIVERABLE_HASH ->
            a.facts().deliverableHash().ifPresent(hash -> e.put("deliverable_hash", hash));
        case VERIFICATION_RESULT -> {
          List<VerificationRow> results = verifications.ofAgreement(a.id());
          if (!results.isEmpty()) {
            e.set("verification_result", Json.parseTrusted(results.getLast().result()));
          }
        }
        case EVENT_LOG -> {
          ArrayNode log = e.putArray("event_log");
          for (EventRecord r : events.log(a.id())) {
            log.addObject().put("seq", r.seq()).put("type", r.type()).put("hash", r.hash());
          }
        }
      }
    }
    return e;
  }
}
