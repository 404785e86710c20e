package dev.asa.server.work;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.asa.access.Judging;
import dev.asa.agreement.Escrow;
import dev.asa.agreement.Money;
import dev.asa.agreement.Party;
import dev.asa.agreement.Role;
import dev.asa.document.Agreement;
import dev.asa.facts.EscrowStatus;
import dev.asa.facts.Fact;
import dev.asa.facts.FactCodec;
import dev.asa.json.Json;
import dev.asa.lifecycle.Action;
import dev.asa.lifecycle.Lifecycle;
import dev.asa.lifecycle.State;
import dev.asa.server.escrow.Enforcement;
import dev.asa.server.store.agreements.AgreementRow;
import dev.asa.server.store.db.StoredText;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;

/** How agreements look on the wire and in the store. */
public final class Views {
  private Views() {}

  /**
   * The stored row of an agreement: the document (without its status, which is the row's state) and
   * facts, and the columns listings query by, all read from the agreement here and nowhere else.
   */
  public static AgreementRow row(Agreement a, long version, Instant createdAt, Instant updatedAt) {
    return row(a, StoredText.of(a.toStoredText()), version, createdAt, updatedAt);
  }

  /**
   * The stored row of an agreement after a change: where the change left the document as it was but
   * for its status (a change of state or of facts, most changes), the document's stored text is the
   * previous row's, so that it is neither written as JSON again nor packed again ({@link
   * dev.asa.server.store.agreements.AgreementStore} leaves the column as it is).
   */
  static AgreementRow rowAfter(
      Agreement next,
      long version,
      Instant updatedAt,
      AgreementRow previousRow,
      Agreement previous) {
    StoredText document =
        next.sameDocumentButStatus(previous)
            ? previousRow.storedDocument()
            : StoredText.of(next.toStoredText());
    return row(next, document, version, previousRow.createdAt(), updatedAt);
  }

  private static AgreementRow row(
      Agreement a, StoredText document, long version, Instant createdAt, Instant updatedAt) {
    var p = a.terms().parties();
    Optional<Money> amount = a.terms().escrow().paymentTerms().map(Escrow.Payment::amount);
    return new AgreementRow(
        a.id(),
        version,
        a.state(),
        document,
        StoredText.of(a.facts().toStored()),
        a.terms().service().type(),
        p.client().identity().value(),
        p.provider().identity().value(),
        // The named evaluator, or the pool's primary once assigned (null before): listed by party.
        a.evaluators().stream().findFirst().map(e -> e.identity().value()).orElse(null),
        createdAt,
        updatedAt,
        amount.map(Money::toWire).orElse(null),
        amount.map(m -> m.currency().code()).orElse(null));
  }

  /** {@code GET /agreements/{id}}: the document plus what a reader needs to act on it. */
  public static ObjectNode envelope(Agreement a, long version) {
    ObjectNode o = Json.object();
    o.put("agreement_id", a.id());
    o.put("state", a.state().name());
    o.put("version", version);
    o.put("agreement_hash", a.hash().toString());
    o.set("allowed_actions", allowed(a));
    o.set("agreement", a.toAnswerJson());
    return o;
  }

  /**
   * One agreement of a listing: the row's columns, and beside each party's identity the display
   * name the agreement gives it ({@code client_display_name}...), left out where it gives none. The
   * names come from the agreement as read from the row's own document and facts: no query more.
   */
  static ObjectNode summary(AgreementRow row, Agreement a) {
    var parties = a.terms().parties();
    ObjectNode o = Json.object();
    o.put("agreement_id", row.id());
    o.put("state", row.state().name());
    o.put("version", row.version());
    o.put("service_type", row.serviceType());
    o.put("client", row.clientIdentity());
    putName(o, "client_display_name", parties.client().displayName());
    o.put("provider", row.providerIdentity());
    putName(o, "provider_display_name", parties.provider().displayName());
    o.put("evaluator", row.evaluatorIdentity());
    // The evaluator the column names (see row): the named one, or the pool's primary.
    putName(
        o,
        "evaluator_display_name",
        a.evaluators().stream().findFirst().map(Party::displayName).orElse(null));
    o.put("created_at", row.createdAt().toString());
    o.put("updated_at", row.updatedAt().toString());
    o.put("amount", row.amount());
    o.put("currency", row.currency());
    return o;
  }

  /** A name the agreement gives, or nothing: absent rather than null, as the document has it. */
  private static void putName(ObjectNode o, String member, String name) {
    if (name != null) {
      o.put(member, name);
    }
  }

  /**
   * A page of a listing: {@code {items: [summary...], next_cursor}} (null on the last page).
   *
   * @param read the agreement of a row (parsed, or from the cache)
   */
  public static ObjectNode page(
      List<AgreementRow> rows, Function<AgreementRow, Agreement> read, String nextCursor) {
    ObjectNode out = Json.object();
    ArrayNode items = out.putArray("items");
    rows.forEach(row -> items.add(summary(row, read.apply(row))));
    out.put("next_cursor", nextCursor);
    return out;
  }

  /**
   * {@code GET /agreements/counts}: {@code {counts: {STATE: n, ...}, total, complete}}, every state
   * present (zero included) in the order of the lifecycle.
   */
  public static ObjectNode counts(Map<State, Long> byState, boolean complete) {
    ObjectNode out = Json.object();
    ObjectNode counts = out.putObject("counts");
    long total = 0;
    for (State state : State.values()) {
      long n = byState.getOrDefault(state, 0L);
      counts.put(state.name(), n);
      total += n;
    }
    out.put("total", total);
    out.put("complete", complete);
    return out;
  }

  /**
   * What a caller may ask for now; the server's own moves (expire, escalate...) are not offered.
   * The state allows funding, staking and delivery alike, but the money decides which can succeed:
   * an escrow that must be funded is funded first and only once, and a collateral the terms ask for
   * is staked first and only once, so {@code fund} and {@code stake_collateral} are offered until
   * each is held and {@code deliver} once both are (the commands refuse the others with 409).
   */
  static ArrayNode allowed(Agreement a) {
    boolean awaitsFunding = Enforcement.requiresFunding(a.terms()) && !Enforcement.isFunded(a);
    boolean awaitsStake = Enforcement.requiresCollateral(a.terms()) && !Enforcement.isStaked(a);
    ArrayNode arr = Json.mapper().createArrayNode();
    for (Action action : Lifecycle.offered(a.state())) {
      boolean possible =
          switch (action) {
            case FUND -> awaitsFunding;
            case STAKE_COLLATERAL -> awaitsStake;
            case DELIVER -> !awaitsFunding && !awaitsStake;
            default -> true;
          };
      if (possible) {
        arr.add(action.wireName());
      }
    }
    return arr;
  }

  /** {@code GET /agreements/{id}/status}: where the agreement, and the money, stand. */
  public static ObjectNode status(Agreement a, long version, Instant now) {
    ObjectNode o = Json.object();
    o.put("agreement_id", a.id());
    o.put("state", a.state().name());
    o.put("version", version);
    o.put("agreement_hash", a.hash().toString());
    o.set("allowed_actions", allowed(a));
    // Who gives the verdict, so a party (and the console) knows whether asking the server's
    // built-in evaluator can succeed: only where the terms make it the judge.
    Judging judging = Judging.of(a);
    o.putObject("judged_by")
        .put("builtin", judging instanceof Judging.BuiltIn)
        .put("because", judging.because());
    ObjectNode sigs = o.putObject("signatures");
    sigs.put("client", a.isSignedBy(Role.CLIENT));
    sigs.put("provider", a.isSignedBy(Role.PROVIDER));
    ObjectNode deadlines = o.putObject("deadlines");
    a.terms().expiry().ifPresent(e -> deadlines.put("expires_at", e.toString()));
    // The window is open only while the result waits in VERIFIED: a challenge, a quarantine or
    // the close ends it before its time.
    Deadlines.window(a)
        .ifPresent(w -> {
          deadlines.put("challenge_window_closes_at", w.closesAt().toString());
          deadlines.put("challenge_window_open", a.state() == State.VERIFIED && w.isOpenAt(now));
        });
    copyIfPresent(a, Fact.ACTIVATED_AT, o);
    copyIfPresent(a, Fact.DELIVERABLE, o);
    copyIfPresent(a, Fact.VERIFICATION, o);
    copyIfPresent(a, Fact.DISPUTE, o);
    copyIfPresent(a, Fact.RULING, o);
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
                payment.setAll(FactCodec.write(settlement.get()));
              } else if (escrow.isPresent()) {
                payment.setAll(FactCodec.write(escrow.get()));
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
    if (Enforcement.requiresCollateral(a.terms())) {
      // The provider's stake: where it stands (the escrow view adds its transfers and balance).
      o.set(
          "collateral",
          a.facts()
              .collateral()
              .map(FactCodec::write)
              .orElseGet(() -> {
                Money stake = a.terms().escrow().collateralTerms().orElseThrow().amount();
                return Json.object()
                    .put("status", a.state().isFinal() ? "not_staked" : "awaiting")
                    .put("amount", stake.toWire())
                    .put("currency", stake.currency().code());
              }));
    }
    return o;
  }

  private static void copyIfPresent(Agreement a, Fact fact, ObjectNode into) {
    if (a.facts().has(fact)) {
      into.set(fact.wireName(), a.facts().get(fact));
    }
  }
}
