package dev.asa.facts;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.asa.json.Json;
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
    JsonNode evidence) {

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

  public ObjectNode toJson() {
    ObjectNode o = Json.object();
    o.put("case_id", caseId);
    FactJson.put(o, "protocol", protocol);
    o.put("reason_code", reasonCode);
    FactJson.put(o, "filed_by", filedBy);
    o.put("filed_at", filedAt.toString());
    FactJson.put(o, "filed_with", filedWith);
    FactJson.put(o, "evidence", evidence);
    return o;
  }

  static DisputeFact fromJson(JsonNode o) {
    return new DisputeFact(
        FactJson.text(o, "case_id"),
        FactJson.text(o, "protocol"),
        FactJson.text(o, "reason_code"),
        FactJson.text(o, "filed_by"),
        FactJson.instant(o, "filed_at"),
        FactJson.text(o, "filed_with"),
        FactJson.node(o, "evidence"));
  }
}
