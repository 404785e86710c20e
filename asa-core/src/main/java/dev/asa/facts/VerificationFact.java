package dev.asa.facts;

import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
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
    @JsonProperty("payment_release_percent") BigDecimal releasePercent,
    String evaluationHash,
    Instant challengeWindowClosesAt,
    JsonNode releaseTiers,
    ObjectNode shadow)
    implements TypedFact {

  public VerificationFact {
    Objects.requireNonNull(verificationId, "verificationId");
    Objects.requireNonNull(verifiedAt, "verifiedAt");
    Objects.requireNonNull(releasePercent, "releasePercent");
    Objects.requireNonNull(challengeWindowClosesAt, "challengeWindowClosesAt");
    releaseTiers = releaseTiers == null ? null : releaseTiers.deepCopy();
    shadow = shadow == null ? null : shadow.deepCopy();
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
    return shadow == null ? null : shadow.deepCopy();
  }
}
