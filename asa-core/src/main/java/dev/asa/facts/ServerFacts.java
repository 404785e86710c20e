package dev.asa.facts;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.asa.json.Json;
import java.time.Instant;
import java.util.EnumSet;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.atomic.AtomicReferenceArray;

/**
 * What the server knows about an agreement (negotiation, escrow, delivery, verification, dispute,
 * hardening, settlement), kept apart from the document the parties wrote. Immutable.
 *
 * <p>Only server code creates facts, and they are stored in a column of their own: nothing a caller
 * sends ever becomes a fact, so no request can claim that money is held or a negotiation is over.
 * The facts decisions read back are typed records ({@link EscrowFact}, {@link DeliverableFact},
 * {@link VerificationFact}, {@link HardeningFact}, {@link DisputeFact}, {@link SettlementFact},
 * {@link CollateralFact}, {@link EvaluatorAssignmentFact}, {@link EvaluatorProposalsFact}, {@link
 * ProvenanceFact}), each with its one JSON form ({@link FactCodec}); the others (negotiation state,
 * ruling, threshold noise, backup evaluator) are recorded and rendered as their producers wrote
 * them.
 */
public final class ServerFacts {

  public static final ServerFacts NONE = new ServerFacts(Json.object());

  /** Facts with a typed record: written only through their typed "with" methods. */
  private static final Set<Fact> TYPED =
      EnumSet.of(
          Fact.ACTIVATED_AT,
          Fact.ESCROW,
          Fact.DELIVERABLE,
          Fact.VERIFICATION,
          Fact.SHADOW,
          Fact.DISPUTE,
          Fact.SETTLEMENT,
          Fact.COLLATERAL,
          Fact.TEMPLATE,
          Fact.ASSIGNED_EVALUATORS,
          Fact.EVALUATOR_PROPOSALS,
          Fact.PROVENANCE);

  private final ObjectNode facts;

  /**
   * Each typed fact as decoded the first time it was read, by the fact's ordinal (null: not read
   * yet). Why: a request asks the same agreement for its escrow, its funding time, its deliverable
   * several times, and each decode is a pass of Jackson's data binding (2.4% of a lifecycle's
   * samples). Safe to keep: the facts never change after construction (every "with" makes new
   * facts), and typed facts are immutable records; decoding twice in a race gives equal values.
   */
  private final AtomicReferenceArray<Optional<? extends TypedFact>> decoded =
      new AtomicReferenceArray<>(Fact.values().length);

  // The stored text, once written (racy on purpose: every thread writes the same String).
  private String stored;

  private ServerFacts(ObjectNode facts) {
    this.facts = facts;
  }

  /** Facts as this server stored them (its own column); an empty or null column is no facts. */
  public static ServerFacts fromStored(String json) {
    if (json == null || json.isEmpty()) {
      return NONE;
    }
    JsonNode node = Json.parseTrusted(json);
    if (!(node instanceof ObjectNode object)) {
      throw new IllegalStateException("stored agreement facts are not a JSON object: " + json);
    }
    return new ServerFacts(object);
  }

  /**
   * The text stored in the facts column, written once: a change stores it and its answer shows the
   * same text ({@code Agreement.toAnswerJson}).
   */
  public String toStored() {
    String text = stored;
    if (text == null) {
      text = Json.write(facts);
      stored = text;
    }
    return text;
  }

  /**
   * The facts' own node, for an answer that writes it out and drops it ({@code
   * Agreement.toAnswerJson}): not a copy, so it must never be changed; {@link #toJson} gives a copy
   * to change.
   */
  public ObjectNode forAnswer() {
    return facts;
  }

  /** A copy of one fact as rendered, or a missing node. */
  public JsonNode get(Fact fact) {
    return facts.path(fact.wireName()).deepCopy();
  }

  public boolean has(Fact fact) {
    return facts.has(fact.wireName());
  }

  /**
   * These facts with one untyped fact (negotiation, ruling, threshold noise, backup evaluator)
   * replaced.
   */
  public ServerFacts with(Fact fact, JsonNode value) {
    if (TYPED.contains(fact)) {
      throw new IllegalArgumentException(
          "the " + fact.wireName() + " fact has a typed record: use its own with method");
    }
    return set(fact, value);
  }

  public boolean isEmpty() {
    return facts.isEmpty();
  }

  /** A copy of every fact, as rendered under {@code metadata}. */
  public ObjectNode toJson() {
    return facts.deepCopy();
  }

  // ---- typed facts -------------------------------------------------------------------------

  public Optional<String> template() {
    JsonNode t = facts.path(Fact.TEMPLATE.wireName());
    return t.isTextual() ? Optional.of(t.asText()) : Optional.empty();
  }

  public ServerFacts withTemplate(String template) {
    return set(Fact.TEMPLATE, Json.mapper().getNodeFactory().textNode(template));
  }

  public Optional<Instant> activatedAt() {
    JsonNode t = facts.path(Fact.ACTIVATED_AT.wireName());
    return t.isTextual() ? Optional.of(Instant.parse(t.asText())) : Optional.empty();
  }

  public ServerFacts withActivatedAt(Instant at) {
    return set(Fact.ACTIVATED_AT, Json.mapper().getNodeFactory().textNode(at.toString()));
  }

  public Optional<EscrowFact> escrow() {
    return read(Fact.ESCROW, EscrowFact.class);
  }

  public ServerFacts withEscrow(EscrowFact escrow) {
    return set(Fact.ESCROW, FactCodec.write(escrow));
  }

  public Optional<DeliverableFact> deliverable() {
    return read(Fact.DELIVERABLE, DeliverableFact.class);
  }

  public ServerFacts withDeliverable(DeliverableFact deliverable) {
    return set(Fact.DELIVERABLE, FactCodec.write(deliverable));
  }

  public Optional<VerificationFact> verification() {
    return read(Fact.VERIFICATION, VerificationFact.class);
  }

  public ServerFacts withVerification(VerificationFact verification) {
    return set(Fact.VERIFICATION, FactCodec.write(verification));
  }

  /** The Shadow Scoring hardening cycle, if one was opened. */
  public Optional<HardeningFact> hardening() {
    JsonNode h = facts.path(Fact.SHADOW.wireName()).path("hardening");
    return h.isObject() ? Optional.of(FactCodec.read(h, HardeningFact.class)) : Optional.empty();
  }

  public ServerFacts withHardening(HardeningFact hardening) {
    ObjectNode shadow = Json.object();
    shadow.set("hardening", FactCodec.write(hardening));
    return set(Fact.SHADOW, shadow);
  }

  public Optional<DisputeFact> dispute() {
    return read(Fact.DISPUTE, DisputeFact.class);
  }

  public ServerFacts withDispute(DisputeFact dispute) {
    return set(Fact.DISPUTE, FactCodec.write(dispute));
  }

  public Optional<SettlementFact> settlement() {
    return read(Fact.SETTLEMENT, SettlementFact.class);
  }

  public ServerFacts withSettlement(SettlementFact settlement) {
    return set(Fact.SETTLEMENT, FactCodec.write(settlement));
  }

  /** The provider's staked collateral; empty until it is staked. */
  public Optional<CollateralFact> collateral() {
    return read(Fact.COLLATERAL, CollateralFact.class);
  }

  public ServerFacts withCollateral(CollateralFact collateral) {
    return set(Fact.COLLATERAL, FactCodec.write(collateral));
  }

  /** The pool evaluators assigned at activation; empty when the document names its evaluator. */
  public Optional<EvaluatorAssignmentFact> assignedEvaluators() {
    return read(Fact.ASSIGNED_EVALUATORS, EvaluatorAssignmentFact.class);
  }

  public ServerFacts withAssignedEvaluators(EvaluatorAssignmentFact assignment) {
    return set(Fact.ASSIGNED_EVALUATORS, FactCodec.write(assignment));
  }

  /** The evaluators each party proposed while negotiating (mutual selection); NONE before any. */
  public EvaluatorProposalsFact evaluatorProposals() {
    return read(Fact.EVALUATOR_PROPOSALS, EvaluatorProposalsFact.class)
        .orElse(EvaluatorProposalsFact.NONE);
  }

  public ServerFacts withEvaluatorProposals(EvaluatorProposalsFact proposals) {
    return set(Fact.EVALUATOR_PROPOSALS, FactCodec.write(proposals));
  }

  /** The CoC chains verified for the parties; NONE when no party has a chain-backed identity. */
  public ProvenanceFact provenance() {
    return read(Fact.PROVENANCE, ProvenanceFact.class).orElse(ProvenanceFact.NONE);
  }

  public ServerFacts withProvenance(ProvenanceFact provenance) {
    return set(Fact.PROVENANCE, FactCodec.write(provenance));
  }

  // ---- shorthands decisions use --------------------------------------------------------------

  public Optional<EscrowStatus> escrowStatus() {
    return escrow().map(EscrowFact::status);
  }

  /** When the client funded the escrow; empty while unfunded. */
  public Optional<Instant> fundedAt() {
    return escrow().map(EscrowFact::fundedAt);
  }

  public Optional<Instant> deliveredAt() {
    return deliverable().map(DeliverableFact::deliveredAt);
  }

  public Optional<String> deliverableHash() {
    return deliverable().map(DeliverableFact::contentHash);
  }

  public Optional<String> verificationId() {
    return verification().map(VerificationFact::verificationId);
  }

  public Optional<Instant> verifiedAt() {
    return verification().map(VerificationFact::verifiedAt);
  }

  /** Whether a hardening cycle waits for the provider's re-delivery. */
  public boolean hardeningOpen() {
    return hardening().map(HardeningFact::isOpen).orElse(false);
  }

  private <T extends TypedFact> Optional<T> read(Fact fact, Class<T> kind) {
    Optional<? extends TypedFact> known = decoded.get(fact.ordinal());
    if (known == null) {
      JsonNode node = facts.path(fact.wireName());
      known = node.isObject() ? Optional.of(FactCodec.read(node, kind)) : Optional.empty();
      decoded.set(fact.ordinal(), known);
    }
    return known.map(kind::cast);
  }

  private ServerFacts set(Fact fact, JsonNode value) {
    Objects.requireNonNull(value, "value");
    // The other facts' nodes are shared, not copied: no ServerFacts changes a node once it holds it
    // (get and toJson hand out copies, every "with" builds a new object), so sharing them is as
    // safe as sharing the typed facts already decoded from them, which come along too.
    ObjectNode copy = Json.object();
    copy.setAll(facts);
    // As the store will give it back (numbers as parsed, not as built), so a fact read again equals
    // the one written.
    copy.set(fact.wireName(), Json.parseTrusted(Json.write(value)));
    ServerFacts next = new ServerFacts(copy);
    for (int i = 0; i < decoded.length(); i++) {
      if (i != fact.ordinal()) {
        next.decoded.set(i, decoded.get(i));
      }
    }
    return next;
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof ServerFacts f && f.facts.equals(facts);
  }

  @Override
  public int hashCode() {
    return facts.hashCode();
  }

  @Override
  public String toString() {
    return "ServerFacts" + facts;
  }
}
