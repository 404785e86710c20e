package dev.asa.lifecycle;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.asa.crypto.Digest;
import dev.asa.json.Jcs;
import dev.asa.json.Json;
import java.time.Instant;
import java.util.Objects;

/**
 * One entry of an agreement's append-only, hash-chained log. Each event carries the digest of the
 * previous one ({@link Digest#ZERO} for the first), so that removing, reordering or editing any
 * event breaks every digest after it.
 *
 * <p>{@code hash = sha256(JCS({agreement_id, seq, type, actor, at, payload, prev_hash}))}, with
 * {@code at} in RFC 3339 UTC with millisecond precision. Anyone can recompute it.
 */
public record Event(
    String agreementId,
    long seq,
    String type,
    JsonNode actor,
    Instant at,
    JsonNode payload,
    String prevHash,
    String hash) {

  public Event {
    Objects.requireNonNull(agreementId, "agreementId");
    Objects.requireNonNull(type, "type");
    Objects.requireNonNull(actor, "actor");
    Objects.requireNonNull(at, "at");
    Objects.requireNonNull(payload, "payload");
    Objects.requireNonNull(prevHash, "prevHash");
    Objects.requireNonNull(hash, "hash");
  }

  /** Chains a new event after {@code previous} (null for the first event of an agreement). */
  public static Event append(
      Event previous,
      String agreementId,
      String type,
      JsonNode actor,
      Instant at,
      JsonNode payload) {
    return previous == null
        ? after(0, Digest.ZERO, agreementId, type, actor, at, payload)
        : after(previous.seq(), previous.hash(), agreementId, type, actor, at, payload);
  }

  /**
   * Chains a new event after the one numbered {@code previousSeq} whose hash is {@code
   * previousHash} (0 and {@link Digest#ZERO} for the first event): all a new event takes from the
   * one before it, so a writer need not read that event's content.
   */
  public static Event after(
      long previousSeq,
      String previousHash,
      String agreementId,
      String type,
      JsonNode actor,
      Instant at,
      JsonNode payload) {
    Objects.requireNonNull(previousHash, "previousHash");
    if (previousSeq < 0) {
      throw new IllegalArgumentException("an event number is never negative: " + previousSeq);
    }
    long seq = previousSeq + 1;
    Instant millis = Instant.ofEpochMilli(at.toEpochMilli());
    String hash = digest(agreementId, seq, type, actor, millis, payload, previousHash);
    return new Event(agreementId, seq, type, actor, millis, payload, previousHash, hash);
  }

  /**
   * The hash an event with this content has: what {@link #append} gives it, and what anyone
   * checking the chain recomputes.
   */
  public static String digest(
      String agreementId,
      long seq,
      String type,
      JsonNode actor,
      Instant at,
      JsonNode payload,
      String prev) {
    ObjectNode body = Json.object();
    body.put("agreement_id", agreementId);
    body.put("seq", seq);
    body.put("type", type);
    body.set("actor", actor);
    body.put("at", at.toString());
    body.set("payload", payload);
    body.put("prev_hash", prev);
    return Digest.sha256(Jcs.canonicalize(body)).toString();
  }

  /** Whether this event's own hash matches its content (not whether it follows its predecessor). */
  public boolean isSelfConsistent() {
    return hash.equals(digest(agreementId, seq, type, actor, at, payload, prevHash));
  }

  /**
   * Reads an event as {@link #toJson} writes it (the agreement id is not part of each event's
   * JSON).
   *
   * @throws IllegalArgumentException when a member is missing or its time unreadable
   */
  public static Event fromJson(String agreementId, JsonNode e) {
    try {
      return new Event(
          agreementId,
          e.path("seq").asLong(),
          e.path("type").asText(),
          e.path("actor"),
          Instant.parse(e.path("at").asText()),
          e.path("payload"),
          e.path("prev_hash").asText(),
          e.path("hash").asText());
    } catch (java.time.format.DateTimeParseException | NullPointerException ex) {
      throw new IllegalArgumentException(
          "event " + e.path("seq").asText() + " is unreadable: " + ex.getMessage(), ex);
    }
  }

  public ObjectNode toJson() {
    ObjectNode o = Json.object();
    o.put("seq", seq);
    o.put("type", type);
    o.set("actor", actor.deepCopy());
    o.put("at", at.toString());
    o.set("payload", payload.deepCopy());
    o.put("prev_hash", prevHash);
    o.put("hash", hash);
    return o;
  }
}
