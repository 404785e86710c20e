package dev.asa.negotiation;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.asa.agreement.Role;
import dev.asa.json.Json;
import java.time.Instant;
import java.util.Objects;
import java.util.Optional;

/**
 * What the server keeps between messages, as the agreement's negotiation fact (outside the signed
 * terms; {@code metadata.negotiation} in responses), so that any node can take the next message.
 *
 * @param round the round of the last message taken
 * @param lastParty who sent it (the next message must come from the other party)
 * @param acceptedHash the agreement_hash accepted, or null: once set the terms are frozen
 * @param priceFlag the flag on the current price, or null
 * @param ended a reject or the round limit ended the negotiation
 */
public record NegotiationState(
    String negotiationId,
    int round,
    Role lastParty,
    Instant startedAt,
    Instant lastMessageAt,
    String acceptedHash,
    PriceFlag priceFlag,
    boolean ended) {

  public NegotiationState {
    Objects.requireNonNull(negotiationId, "negotiationId");
    Objects.requireNonNull(lastParty, "lastParty");
    Objects.requireNonNull(startedAt, "startedAt");
    Objects.requireNonNull(lastMessageAt, "lastMessageAt");
    if (round < 1) {
      throw new IllegalArgumentException("round must be >= 1");
    }
  }

  /** When a negotiation with no further message stalls (the server's timer then rejects it). */
  public Instant deadline(NegotiationPolicy policy) {
    return lastMessageAt.plusSeconds(policy.timeoutSeconds());
  }

  /** Whether the negotiation has stalled: still open and no message for {@code timeoutSeconds}. */
  public boolean stalled(Instant now, NegotiationPolicy policy) {
    return !ended && acceptedHash == null && !now.isBefore(deadline(policy));
  }

  public ObjectNode toJson() {
    ObjectNode o = Json.object();
    o.put("negotiation_id", negotiationId);
    o.put("round", round);
    o.put("last_party", lastParty.wireName());
    o.put("started_at", startedAt.toString());
    o.put("last_message_at", lastMessageAt.toString());
    if (acceptedHash != null) {
      o.put("accepted_hash", acceptedHash);
    }
    if (priceFlag != null) {
      o.set("price_flag", priceFlag.toJson());
    }
    o.put("ended", ended);
    return o;
  }

  /**
   * Reads what {@link #toJson} wrote; a missing or null node means no negotiation has started. The
   * node is server-owned, so a malformed one is a server fault (IllegalStateException).
   */
  public static Optional<NegotiationState> fromJson(JsonNode node) {
    if (node == null || node.isMissingNode() || node.isNull()) {
      return Optional.empty();
    }
    try {
      return Optional.of(
          new NegotiationState(
              text(node, "negotiation_id"),
              node.get("round").intValue(),
              Role.fromWire(text(node, "last_party")),
              Instant.parse(text(node, "started_at")),
              Instant.parse(text(node, "last_message_at")),
              node.hasNonNull("accepted_hash") ? node.get("accepted_hash").asText() : null,
              node.hasNonNull("price_flag") ? PriceFlag.fromJson(node.get("price_flag")) : null,
              node.path("ended").asBoolean(false)));
    } catch (RuntimeException e) {
      throw new IllegalStateException(
          "stored negotiation state does not read: " + e.getMessage(), e);
    }
  }

  private static String text(JsonNode node, String field) {
    JsonNode v = node.get(field);
    if (v == null || !v.isTextual()) {
      throw new IllegalArgumentException("missing " + field);
    }
    return v.asText();
  }

  NegotiationState next(int round, Role party, Instant now) {
    return new NegotiationState(
        negotiationId, round, party, startedAt, now, acceptedHash, priceFlag, ended);
  }

  NegotiationState withAcceptedHash(String hash) {
    return new NegotiationState(
        negotiationId, round, lastParty, startedAt, lastMessageAt, hash, priceFlag, ended);
  }

  NegotiationState withPriceFlag(PriceFlag flag) {
    return new NegotiationState(
        negotiationId, round, lastParty, startedAt, lastMessageAt, acceptedHash, flag, ended);
  }

  NegotiationState endedNow() {
    return new NegotiationState(
        negotiationId, round, lastParty, startedAt, lastMessageAt, acceptedHash, priceFlag, true);
  }
}
