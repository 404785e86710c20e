package dev.asa.coc;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.asa.crypto.Digest;
import dev.asa.json.Jcs;
import dev.asa.json.Json;
import java.util.Objects;

/**
 * The {@code data} of the anchor entry a party appends to its own CoC chain once an agreement is
 * verified, ruled or closed (whitepaper 9.1): hashes only, never content, so a public chain reveals
 * nothing of the work. It is the JCS text of an object, so it is one exact string the server can
 * compute again and compare byte for byte; the hashes in it are ASA's ({@code sha256:}), since the
 * data is ours: the chain's own {@code data_hash} covers the string as CoC does.
 *
 * @param agreementHash the agreement's hash (its signed terms)
 * @param deliverableDigest the digest of the delivered content, or null when nothing was delivered
 * @param evaluationHash the hash of the recorded evaluation, or null when none was recorded
 * @param eventLogHead the hash of the event that made the agreement verified, ruled or closed (not
 *     the log's latest event, which moves on, e.g. with each recorded anchoring)
 */
public record AnchorData(
    Digest agreementHash, Digest deliverableDigest, Digest evaluationHash, Digest eventLogHead) {

  /** The anchor entry's CoC event type. */
  public static final String TYPE = "anchor";

  /** Names the format inside the data, so a reader of a chain knows what the hashes are. */
  public static final String FORMAT = "asa-anchor/1";

  public AnchorData {
    Objects.requireNonNull(agreementHash, "agreementHash");
    Objects.requireNonNull(eventLogHead, "eventLogHead");
  }

  /** The exact string the party's entry must hold as its {@code data}. */
  public String data() {
    ObjectNode o = Json.object();
    o.put("format", FORMAT);
    o.put("agreement_hash", agreementHash.toString());
    if (deliverableDigest != null) {
      o.put("deliverable_digest", deliverableDigest.toString());
    }
    if (evaluationHash != null) {
      o.put("evaluation_hash", evaluationHash.toString());
    }
    o.put("event_log_head", eventLogHead.toString());
    return Jcs.canonicalString(o);
  }

  /** What {@code GET /agreements/{id}/anchor} answers: {@code {"type": "anchor", "data": ...}}. */
  public ObjectNode toEntryTemplate() {
    ObjectNode o = Json.object();
    o.put("type", TYPE);
    o.put("data", data());
    return o;
  }
}
