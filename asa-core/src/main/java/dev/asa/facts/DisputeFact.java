package dev.asa.facts;

import com.fasterxml.jackson.databind.JsonNode;
import java.time.Instant;
import java.util.Objects;

/**
 * A dispute filed by a challenge, a Shadow Scoring quarantine, an evaluator timeout the backup
 * could not score, or a low score the terms file automatically.
 *
 * @param filedWith the dispute protocol's endpoint, or {@code operator} when none is configured
 * @param evidence what the server attached (e.g. the shadow report), or null
 */
public record DisputeFact(
    String caseId,
    String protocol,
    String reasonCode,
    String filedBy,
    Instant filedAt,
    String filedWith,
    JsonNode evidence)
    implements TypedFact {

  public DisputeFact {
    Objects.requireNonNull(caseId, "caseId");
    Objects.requireNonNull(reasonCode, "reasonCode");
    Objects.requireNonNull(filedAt, "filedAt");
    evidence = evidence == null ? null : evidence.deepCopy();
  }

  public DisputeFact withEvidence(JsonNode e) {
    return new DisputeFact(caseId, protocol, reasonCode, filedBy, filedAt, filedWith, e);
  }

  @Override
  public JsonNode evidence() {
    return evidence == null ? null : evidence.deepCopy();
  }
}
