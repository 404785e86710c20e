package dev.asa.server.store.agreements;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.asa.json.Json;
import dev.asa.lifecycle.Event;
import dev.asa.server.store.db.PackedText;
import dev.asa.server.store.db.PackedText.Dictionary;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * An ended agreement's whole event log as one stored value: a JSON text of the events, field for
 * field as their rows held them, packed as the store packs its other JSON ({@link PackedText})
 * against a dictionary of its own ({@link Dictionary#TRAIL}).
 *
 * <p>Why one value: an event row repeats the agreement id in the row and in the primary key's
 * index, and carries a row's and an index entry's overhead, about 360 bytes for seven events of
 * about 210 bytes of their own. Packed together, what events share (the actors, the payloads'
 * members) is stored once. Only an ended agreement's log is packed: it no longer grows, so the one
 * value is written once.
 *
 * <p>Actor and payload are kept as the JSON they are (not as escaped strings), written back as the
 * same compact text: the store's JSON keeps every number exact and every member in its order, and
 * the chain is checked on the JSON values, so it checks as it did from the rows.
 *
 * <p>Hashes are most of what does not compress (32 random bytes each), so a trail keeps only the
 * ones that carry information: the last event's, which binds every event before it, and any that is
 * not what its event's content gives (a broken link stays broken, where it was). The others are
 * recomputed when the trail is read ({@link Event#digest}), as anyone checking the chain recomputes
 * them. Nothing the evidence needs is lost: a change to any packed event changes the recomputed
 * hash of every event after it, and the stored last hash no longer matches, so the chain check
 * still fails; what it can no longer say is which of the unchecked events was changed. A previous
 * hash equal to the hash before it is not written either.
 */
public final class EventTrail {
  private EventTrail() {}

  /** Format 2 may leave a hash out (format 1 wrote every one); both read the same. */
  private static final int FORMAT = 2;

  public static byte[] pack(List<EventRecord> events) {
    ObjectNode trail = Json.object();
    trail.put("format", FORMAT);
    ArrayNode list = trail.putArray("events");
    String previousHash = null;
    for (int i = 0; i < events.size(); i++) {
      EventRecord e = events.get(i);
      ObjectNode o = list.addObject().put("seq", e.seq()).put("type", e.type());
      if (e.actor() != null) {
        o.set("actor", Json.parseTrusted(e.actor()));
      }
      o.put("at", e.at().toEpochMilli());
      if (e.payload() != null) {
        o.set("payload", Json.parseTrusted(e.payload()));
      }
      if (i == 0 || !Objects.equals(e.prevHash(), previousHash)) {
        o.put("prev_hash", e.prevHash());
      }
      boolean last = i == events.size() - 1;
      if (last || !e.hash().equals(recomputed(e.agreementId(), o, e.prevHash()))) {
        o.put("hash", e.hash());
      }
      previousHash = e.hash();
    }
    return PackedText.packSmallest(Json.write(trail), Dictionary.TRAIL);
  }

  /**
   * The events of a packed trail, in the order they were appended.
   *
   * @throws IllegalStateException if the value is not a trail this build can read
   */
  public static List<EventRecord> unpack(String agreementId, byte[] stored) {
    JsonNode trail = Json.parseTrusted(PackedText.unpack(stored));
    int format = trail.path("format").asInt();
    if (format != 1 && format != FORMAT) {
      throw new IllegalStateException(
          "the event trail of agreement "
              + agreementId
              + " has format "
              + trail.path("format")
              + ", which this build cannot read: a newer server wrote it; run that version");
    }
    List<EventRecord> events = new ArrayList<>();
    String previousHash = null;
    for (JsonNode e : trail.path("events")) {
      String prevHash = e.has("prev_hash") ? text(e, "prev_hash") : previousHash;
      String hash = e.has("hash") ? e.path("hash").asText() : recomputed(agreementId, e, prevHash);
      if (hash == null) {
        throw new IllegalStateException(
            "event "
                + e.path("seq").asLong()
                + " of the trail of agreement "
                + agreementId
                + " has no hash");
      }
      events.add(
          new EventRecord(
              agreementId,
              e.path("seq").asLong(),
              e.path("type").asText(),
              json(e, "actor"),
              Instant.ofEpochMilli(e.path("at").asLong()),
              json(e, "payload"),
              prevHash,
              hash));
      previousHash = hash;
    }
    return events;
  }

  /**
   * The hash a trail event's content gives after {@code prevHash}, computed on the trail's own JSON
   * (parsed once), or null where it has none to give (no actor, payload or previous hash: never so
   * for an event the server appended).
   */
  private static String recomputed(String agreementId, JsonNode event, String prevHash) {
    JsonNode actor = event.get("actor");
    JsonNode payload = event.get("payload");
    if (actor == null || payload == null || prevHash == null) {
      return null;
    }
    return Event.digest(
        agreementId,
        event.path("seq").asLong(),
        event.path("type").asText(),
        actor,
        Instant.ofEpochMilli(event.path("at").asLong()),
        payload,
        prevHash);
  }

  /** A JSON member as the text it was stored as; null where the event had none. */
  private static String json(JsonNode event, String member) {
    JsonNode v = event.get(member);
    return v == null ? null : Json.write(v);
  }

  private static String text(JsonNode event, String member) {
    JsonNode v = event.get(member);
    return v == null || v.isNull() ? null : v.asText();
  }
}
