package dev.asa.agreement;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.asa.json.Json;
import java.math.BigDecimal;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.Objects;
import java.util.Optional;

/**
 * What the server knows about an agreement (state of negotiation, escrow, delivery, verification,
 * dispute, hardening, settlement), kept apart from the document the parties wrote. Immutable.
 *
 * <p>Only server code creates facts, and they are stored in a column of their own: nothing a
 * caller sends ever becomes a fact, so no request can claim that money is held or a negotiation
 * is over. This class is the one place that knows how each fact is laid out; decisions read the
 * typed accessors below, responses render {@link #toJson()}.
 */
public final class ServerFacts {

  public static final ServerFacts NONE = new ServerFacts(Json.object());

  /** The hardening cycle's status while the provider may re-deliver once. */
  public static final String HARDENING_OPEN = "open";

  private final ObjectNode facts;

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

  /** The text stored in the facts column. */
  public String toStored() {
    return Json.write(facts);
  }

  /** A copy of one fact, or a missing node. */
  public JsonNode get(Fact fact) {
    return facts.path(fact.wireName()).deepCopy();
  }

  public boolean has(Fact fact) {
    return facts.has(fact.wireName());
  }

  /** These facts with one replaced. */
  public ServerFacts with(Fact fact, JsonNode value) {
    Objects.requireNonNull(value, "value");
    ObjectNode copy = facts.deepCopy();
    copy.set(fact.wireName(), value.deepCopy());
    return new ServerFacts(copy);
  }

  public boolean isEmpty() {
    return facts.isEmpty();
  }

  /** A copy of every fact, as rendered under {@code metadata}. */
  public ObjectNode toJson() {
    return facts.deepCopy();
  }

  // ---- typed reads -------------------------------------------------------------------------

  public Optional<String> template() {
    return text(facts.path(Fact.TEMPLATE.wireName()));
  }

  public Optional<Instant> activatedAt() {
    return instant(facts.path(Fact.ACTIVATED_AT.wireName()));
  }

  /** The escrow's status, if the agreement holds money in escrow (it has escrow facts). */
  public Optional<EscrowStatus> escrowStatus() {
    return text(facts.path(Fact.ESCROW.wireName()).path("status")).map(EscrowStatus::fromWire);
  }

  /** When the client funded the escrow; empty while unfunded. */
  public Optional<Instant> fundedAt() {
    return instant(facts.path(Fact.ESCROW.wireName()).path("funded_at"));
  }

  /** When the latest deliverable arrived. */
  public Optional<Instant> deliveredAt() {
    return instant(facts.path(Fact.DELIVERABLE.wireName()).path("delivered_at"));
  }

  public Optional<String> deliverableHash() {
    return text(facts.path(Fact.DELIVERABLE.wireName()).path("content_hash"));
  }

  public Optional<String> verificationId() {
    return text(verification().path("verification_id"));
  }

  public Optional<Instant> verifiedAt() {
    return instant(verification().path("verified_at"));
  }

  public Optional<Instant> challengeWindowClosesAt() {
    return instant(verification().path("challenge_window_closes_at"));
  }

  /** The share of the amount the recorded verification releases to the provider. */
  public Optional<BigDecimal> releasePercent() {
    return number(verification().path("payment_release_percent"));
  }

  public Optional<BigDecimal> composite() {
    return number(verification().path("composite"));
  }

  /** The Shadow Scoring gate of the recorded verification ({@code pass}, {@code quarantine}, ...), or "". */
  public String shadowGate() {
    return verification().path("shadow").path("gate").asText("");
  }

  /** The hardening cycle's status, or "" when none was opened. */
  public String hardeningStatus() {
    return facts.path(Fact.SHADOW.wireName()).path("hardening").path("status").asText("");
  }

  private JsonNode verification() {
    return facts.path(Fact.VERIFICATION.wireName());
  }

  private static Optional<String> text(JsonNode node) {
    return node.isTextual() ? Optional.of(node.asText()) : Optional.empty();
  }

  private static Optional<BigDecimal> number(JsonNode node) {
    return node.isNumber() ? Optional.of(node.decimalValue()) : Optional.empty();
  }

  private static Optional<Instant> instant(JsonNode node) {
    if (!node.isTextual()) {
      return Optional.empty();
    }
    try {
      return Optional.of(Instant.parse(node.asText()));
    } catch (DateTimeParseException e) {
      throw new IllegalStateException("a stored fact is not an instant: " + node, e);
    }
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
