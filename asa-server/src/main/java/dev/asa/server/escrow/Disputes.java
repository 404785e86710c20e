package dev.asa.server.escrow;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.asa.agreement.DisputeTerms;
import dev.asa.agreement.DisputeTerms.Evidence;
import dev.asa.dispute.AjpClaims;
import dev.asa.document.Agreement;
import dev.asa.facts.DisputeFact;
import dev.asa.facts.FactCodec;
import dev.asa.json.Json;
import dev.asa.server.store.Write;
import dev.asa.server.store.agreements.EventRecord;
import dev.asa.server.store.agreements.EventStore;
import dev.asa.server.store.escrow.OutboxMessage;
import dev.asa.server.store.verification.VerificationRow;
import dev.asa.server.store.verification.VerificationStore;
import java.net.URI;
import java.time.Instant;
import java.util.LinkedHashMap;
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
  private final String custodian;

  public Disputes(VerificationStore verifications, EventStore events, Map<String, URI> endpoints) {
    this(verifications, events, endpoints, "asa:server");
  }

  /**
   * @param custodian who collects the evidence of a claim, {@code asa:<server key>}
   */
  public Disputes(
      VerificationStore verifications,
      EventStore events,
      Map<String, URI> endpoints,
      String custodian) {
    this.verifications = verifications;
    this.events = events;
    this.endpoints = Map.copyOf(endpoints);
    this.custodian = custodian;
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
    data.setAll(FactCodec.write(fact));
    ObjectNode evidence = evidence(a);
    data.set("evidence", evidence);
    // The same case as the Agent Justice Protocol files it: its claim, and the evidence records
    // the claim cites (AjpClaims: how identities, amounts and hashes cross over).
    Map<String, JsonNode> items = new LinkedHashMap<>();
    evidence.properties().forEach(item -> items.put(item.getKey(), item.getValue()));
    AjpClaims.Filing claim = AjpClaims.file(a, fact, items, latestResult(a), custodian, now);
    data.set("claim", claim.claim());
    ArrayNode records = data.putArray("evidence_records");
    claim.evidence().forEach(records::add);
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

  private Optional<JsonNode> latestResult(Agreement a) {
    List<VerificationRow> results = verifications.ofAgreement(a.id());
    return results.isEmpty()
        ? Optional.empty()
        : Optional.of(Json.parseTrusted(results.getLast().result()));
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
        case VERIFICATION_RESULT ->
            latestResult(a).ifPresent(result -> e.set("verification_result", result));
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
