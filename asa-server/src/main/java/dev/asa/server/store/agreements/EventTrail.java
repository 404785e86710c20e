package dev.asa.server.store.agreements;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.asa.json.Json;
import dev.asa.server.store.db.PackedText;
import dev.asa.server.store.db.PackedText.Dictionary;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * An ended agreement's whole event log as one stored value: a JSON text of the events, field for
 * field as their rows held them, packed as the store packs its other JSON ({@link PackedText}).
 *
 * <p>Why one value: an event row repeats the agreement id in the row and in the primary key's
 * index, and carries a row's and an index entry's overhead, about 360 bytes for seven events of
 * about 210 bytes of their own. Packed together, what events share (the actors, the payloads'
 * members, each hash repeated as the next event's previous hash) is stored once. Only an ended
 * agreement's log is packed: it no longer grows, so the one value is written once.
 *
 * <p>Actor and payload are kept as the JSON they are (not as escaped strings), written back as the
 * same compact text: the store's JSON keeps every number exact and every member in its order, and
 * the chain is checked on the JSON values, so it checks as it did from the rows. A hash repeated as
 * the next event's previous hash is written once.
 */
public final class EventTrail {
  private EventTrail() {}

  private static final int FORMAT = 1;

  public static byte[] pack(List<EventRecord> events) {
    ObjectNode trail = Json.object();
    trail.put("format", FORMAT);
    ArrayNode list = trail.putArray("events");
    String previousHash = null;
    boolean first = true;
    for (EventRecord e : events) {
      ObjectNode o = list.addObject().put("seq", e.seq()).put("type", e.type());
      if (e.actor() != null) {
        o.set("actor", Json.parseTrusted(e.actor()));
      }
      o.put("at", e.at().toEpochMilli());
      if (e.payload() != null) {
        o.set("payload", Json.parseTrusted(e.payload()));
      }
      // Each event's previous hash is the hash before it: written only where it is not.
      if (first || !Objects.equals(e.prevHash(), previousHash)) {
        o.put("prev_hash", e.prevHash());
      }
      o.put("hash", e.hash());
      previousHash = e.hash();
      first = false;
    }
    return PackedText.packSmallest(Json.write(trail), Dictionary.VOCABULARY);
  }

  /**
   * The events of a packed trail, in the order they were appended.
   *
   * @throws IllegalStateException if the value is not a trail this build can read
   */
  public static List<EventRecord> unpack(String agreementId, byte[] stored) {
    JsonNode trail = Json.parseTrusted(PackedText.unpack(stored));
    if (trail.path("format").asInt() != FORMAT) {
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
      String hash = e.path("hash").asText();
      events.add(
          new EventRecord(
              agreementId,
              e.path("seq").asLong(),
              e.path("type").asText(),
              json(e, "actor"),
              Instant.ofEpochMilli(e.path("at").asLong()),
              json(e, "payload"),
              e.has("prev_hash") ? text(e, "prev_hash") : previousHash,
              hash));
      previousHash = hash;
    }
    return events;
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
