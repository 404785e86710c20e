package dev.asa.facts;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.asa.json.Json;
import java.math.BigDecimal;
import java.time.Instant;
import java.util.Objects;

/**
 * The recorded verification, summarised: what enforcement and the challenge window need. The full
 * section 5.2 result is stored on its own (the verifications table).
 *
 * @param result PASS or FAIL
 * @param releaseTiers the applied release tiers (threshold noise, dynamic tiers), or null
 * @param shadow the Shadow Scoring summary (gate, score, seal), or null without a seal
 */
public record VerificationFact(
    String verificationId,
    Instant verifiedAt,
    String result,
    BigDecimal composite,
    BigDecimal releasePercent,
    String evaluationHash,
    Instant challengeWindowClosesAt,
    JsonNode releaseTiers,
    ObjectNode shadow) {

  public VerificationFact {
    Objects.requireNonNull(verificationId, "verificationId");
    Objects.requireNonNull(verifiedAt, "verifiedAt");
    Objects.requireNonNull(releasePercent, "releasePercent");
    Objects.requireNonNull(challengeWindowClosesAt, "challengeWindowClosesAt");
    releaseTiers = releaseTiers == null ? null : releaseTiers.deepCopy();
    shadow = FactJson.copy(shadow);
  }

  /** The Shadow Scoring gate ({@code pass}, {@code quarantine}, ...), or "" without a seal. */
  public String shadowGate() {
    return shadow == null ? "" : shadow.path("gate").asText("");
  }

  @Override
  public JsonNode releaseTiers() {
    return releaseTiers == null ? null : releaseTiers.deepCopy();
  }

  @Override
  public ObjectNode shadow() {
    return FactJson.copy(shadow);
  }

  public ObjectNode toJson() {
    ObjectNode o = Json.object();
    o.put("verification_id", verificationId);
    o.put("verified_at", verifiedAt.toString());
    FactJson.put(o, "result", result);
    FactJson.put(o, "composite", composite);
    o.put("payment_release_percent", releasePercent);
    FactJson.put(o, "evaluation_hash", evaluationHash);
    o.put("challenge_window_closes_at", challengeWindowClosesAt.toString());
    FactJson.put(o, "release_tiers", releaseTiers);
    FactJson.put(o, "shadow", shadow);
    return o;
  }

  static VerificationFact fromJson(JsonNode o) {
    JsonNode shadow = o.get("shadow");
    return new VerificationFact(
        FactJson.text(o, "verification_id"),
        FactJson.instant(o, "verified_at"),
        FactJson.text(o, "result"),
        FactJson.number(o, "composite"),
        FactJson.number(o, "payment_release_percent"),
        FactJson.text(o, "evaluation_hash"),
        FactJson.instant(o, "challenge_window_closes_at"),
        FactJson.node(o, "release_tiers"),
        shadow instanceof ObjectNode s ? s : null);
  }
}
