package dev.asa.facts;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.asa.json.Json;
import java.math.BigDecimal;
import java.time.Instant;
import java.util.Objects;

/**
 * How an agreement's money was finally split; nothing changes it afterwards.
 *
 * @param reason why it settled ({@code verification_result}, {@code ruling}, a timer's name...)
 * @param amount the agreement's amount as a decimal string; null without payment terms
 * @param note why nothing moved, when nothing did
 * @param closedAt set when it closed (result or ruling); expiredAt when a dead-man's switch ended
 *     it
 * @param ruling the ruling that settled a dispute, or null
 * @param autoFiledDispute the dispute filed for a low score at closing, or null
 */
public record SettlementFact(
    Instant settledAt,
    String reason,
    BigDecimal releasePercent,
    boolean moneyMoved,
    String amount,
    String currency,
    String releasedToProvider,
    String refundedToClient,
    String note,
    String binding,
    Instant closedAt,
    Instant expiredAt,
    String verificationId,
    JsonNode ruling,
    JsonNode autoFiledDispute) {

  public SettlementFact {
    Objects.requireNonNull(settledAt, "settledAt");
    Objects.requireNonNull(reason, "reason");
    Objects.requireNonNull(releasePercent, "releasePercent");
    ruling = ruling == null ? null : ruling.deepCopy();
    autoFiledDispute = autoFiledDispute == null ? null : autoFiledDispute.deepCopy();
  }

  /** The settlement as the agreement closed on a verification result or a ruling. */
  public SettlementFact closed(
      Instant at, String verification, JsonNode rulingFact, JsonNode autoFiled) {
    return new SettlementFact(
        settledAt,
        reason,
        releasePercent,
        moneyMoved,
        amount,
        currency,
        releasedToProvider,
        refundedToClient,
        note,
        binding,
        at,
        expiredAt,
        verification,
        rulingFact,
        autoFiled);
  }

  /** The settlement as a dead-man's switch ended the agreement. */
  public SettlementFact expired(Instant at) {
    return new SettlementFact(
        settledAt,
        reason,
        releasePercent,
        moneyMoved,
        amount,
        currency,
        releasedToProvider,
        refundedToClient,
        note,
        binding,
        closedAt,
        at,
        verificationId,
        ruling,
        autoFiledDispute);
  }

  /** The escrow's status once settled. */
  public EscrowStatus escrowStatus() {
    return moneyMoved ? EscrowStatus.SETTLED : EscrowStatus.NOTHING_HELD;
  }

  @Override
  public JsonNode ruling() {
    return ruling == null ? null : ruling.deepCopy();
  }

  @Override
  public JsonNode autoFiledDispute() {
    return autoFiledDispute == null ? null : autoFiledDispute.deepCopy();
  }

  public ObjectNode toJson() {
    ObjectNode o = Json.object();
    o.put("settled_at", settledAt.toString());
    o.put("reason", reason);
    o.put("release_percent", releasePercent);
    FactJson.put(o, "amount", amount);
    FactJson.put(o, "currency", currency);
    FactJson.put(o, "released_to_provider", releasedToProvider);
    FactJson.put(o, "refunded_to_client", refundedToClient);
    o.put("money_moved", moneyMoved);
    FactJson.put(o, "note", note);
    FactJson.put(o, "binding", binding);
    FactJson.put(o, "closed_at", closedAt);
    FactJson.put(o, "expired_at", expiredAt);
    FactJson.put(o, "verification_id", verificationId);
    FactJson.put(o, "ruling", ruling);
    FactJson.put(o, "auto_filed_dispute", autoFiledDispute);
    return o;
  }

  static SettlementFact fromJson(JsonNode o) {
    return new SettlementFact(
        FactJson.instant(o, "settled_at"),
        FactJson.text(o, "reason"),
        FactJson.number(o, "release_percent"),
        o.path("money_moved").asBoolean(),
        FactJson.text(o, "amount"),
        FactJson.text(o, "currency"),
        FactJson.text(o, "released_to_provider"),
        FactJson.text(o, "refunded_to_client"),
        FactJson.text(o, "note"),
        FactJson.text(o, "binding"),
        FactJson.instant(o, "closed_at"),
        FactJson.instant(o, "expired_at"),
        FactJson.text(o, "verification_id"),
        FactJson.node(o, "ruling"),
        FactJson.node(o, "auto_filed_dispute"));
  }
}
