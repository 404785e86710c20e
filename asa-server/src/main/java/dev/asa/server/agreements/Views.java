package dev.asa.server.agreements;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.asa.agreement.Agreement;
import dev.asa.agreement.Role;
import dev.asa.facts.EscrowStatus;
import dev.asa.facts.Fact;
import dev.asa.json.Json;
import dev.asa.lifecycle.Lifecycle;
import dev.asa.server.escrow.Enforcement;
import dev.asa.server.store.AgreementRow;
import java.time.Instant;

/** How agreements look on the wire and in the store. */
final class Views {
  private Views() {}

  static AgreementRow row(Agreement a, long version, Instant createdAt, Instant updatedAt) {
    var p = a.terms().parties();
    return new AgreementRow(
        a.id(),
        version,
        a.state(),
        Json.write(a.toJson()),
        a.facts().toStored(),
        a.terms().service().type(),
        p.client().identity().value(),
        p.provider().identity().value(),
        // The named evaluator, or the pool's primary once assigned (null before): listed by party.
        a.evaluators().stream().findFirst().map(e -> e.identity().value()).orElse(null),
        createdAt,
        updatedAt);
  }

  /** {@code GET /agreements/{id}}: the document plus what a reader needs to act on it. */
  static ObjectNode envelope(Agreement a, long version) {
    ObjectNode o = Json.object();
    o.put("agreement_id", a.id());
    o.put("state", a.state().name());
    o.put("version", version);
    o.put("agreement_hash", a.hash().toString());
    o.set("allowed_actions", allowed(a));
    o.set("agreement", a.toJsonWithFacts());
    return o;
  }

  static ObjectNode summary(AgreementRow row) {
    ObjectNode o = Json.object();
    o.put("agreement_id", row.id());
    o.put("state", row.state().name());
    o.put("version", row.version());
    o.put("service_type", row.serviceType());
    o.put("client", row.clientIdentity());
    o.put("provider", row.providerIdentity());
    o.put("evaluator", row.evaluatorIdentity());
    o.put("created_at", row.createdAt().toString());
    o.put("updated_at", row.updatedAt().toString());
    return o;
  }

  /**
   * What a caller may ask for now; the server's own moves (expire, escalate...) are not offered.
   */
  static ArrayNode allowed(Agreement a) {
    ArrayNode arr = Json.mapper().createArrayNode();
    Lifecycle.offered(a.state()).forEach(action -> arr.add(action.wireName()));
    return arr;
  }

  /** {@code GET /agreements/{id}/status}: where the agreement, and the money, stand. */
  static ObjectNode status(Agreement a, long version, Instant now) {
    ObjectNode o = Json.object();
    o.put("agreement_id", a.id());
    o.put("state", a.state().name());
    o.put("version", version);
    o.put("agreement_hash", a.hash().toString());
    o.set("allowed_actions", allowed(a));
    ObjectNode sigs = o.putObject("signatures");
    sigs.put("client", a.isSignedBy(Role.CLIENT));
    sigs.put("provider", a.isSignedBy(Role.PROVIDER));
    ObjectNode deadlines = o.putObject("deadlines");
    a.terms().expiry().ifPresent(e -> deadlines.put("expires_at", e.toString()));
    Deadlines.window(a)
        .ifPresent(w -> {
          deadlines.put("challenge_window_closes_at", w.closesAt().toString());
          deadlines.put("challenge_window_open", w.isOpenAt(now));
        });
    copyIfPresent(a, Fact.ACTIVATED_AT, o);
    copyIfPresent(a, Fact.DELIVERABLE, o);
    copyIfPresent(a, Fact.VERIFICATION, o);
    copyIfPresent(a, Fact.DISPUTE, o);
    ObjectNode payment = o.putObject("payment");
    a.terms()
        .escrow()
        .paymentTerms()
        .ifPresentOrElse(
            p -> {
              payment.put("amount", p.amount().toWire());
              payment.put("currency", p.amount().currency().code());
              payment.put("binding", a.terms().escrow().bindingType());
              var escrow = a.facts().escrow();
              var settlement = a.facts().settlement();
              if (settlement.isPresent()) {
                payment.put("status", settlement.get().escrowStatus().wireName());
                payment.setAll(settlement.get().toJson());
              } else if (escrow.isPresent()) {
                payment.setAll(escrow.get().toJson());
              } else {
                payment.put(
                    "status",
                    switch (a.state()) {
                      case PROPOSED, NEGOTIATING -> "not_yet_due";
                      case ACTIVE, DELIVERED, VERIFIED, DISPUTED, CLOSED ->
                          Enforcement.requiresFunding(a.terms())
                              ? EscrowStatus.UNFUNDED.wireName()
                              : "escrow_disabled";
                      case REJECTED, EXPIRED -> EscrowStatus.NOTHING_HELD.wireName();
                    });
              }
            },
            () -> payment.put("status", "no_payment_terms"));
    return o;
  }

  private static void copyIfPresent(Agreement a, Fact fact, ObjectNode into) {
    if (a.facts().has(fact)) {
      into.set(fact.wireName(), a.facts().get(fact));
    }
  }
}
