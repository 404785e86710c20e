package dev.asa.client;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.asa.lifecycle.EventChain;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * An agreement's event log ({@code GET /agreements/{id}/events}), oldest first: the evidence trail,
 * each event pointing at the digest of the one before. The entries are read as recorded, even where
 * an event is unreadable or altered, since judging the log is {@link #firstBreak()}'s job, done
 * here rather than taken on the server's word.
 *
 * @param agreementId the agreement
 * @param events its events, oldest first
 * @param json the whole answer, a copy; the events' payloads are there
 */
public record EventLog(String agreementId, List<Entry> events, ObjectNode json) {

  private static final String WHAT = "an event log";

  /** Checks that nothing is null and keeps private copies. */
  public EventLog {
    Objects.requireNonNull(agreementId, "agreementId");
    events = List.copyOf(events);
    json = Objects.requireNonNull(json, "json").deepCopy();
  }

  /**
   * One event as recorded.
   *
   * @param seq its place in the log, from 1; 0 when unreadable
   * @param type what happened, e.g. {@code agreement.created}
   * @param actorRole who did it, e.g. {@code client}, {@code server}
   * @param actorAuthenticated whether the server checked the actor's signature, rather than took
   *     the role as claimed
   * @param at when, as recorded (an RFC 3339 time)
   * @param hash its digest, {@code sha256:...}
   */
  public record Entry(
      long seq, String type, String actorRole, boolean actorAuthenticated, String at, String hash) {

    /** Checks that nothing is null. */
    public Entry {
      Objects.requireNonNull(type, "type");
      Objects.requireNonNull(actorRole, "actorRole");
      Objects.requireNonNull(at, "at");
      Objects.requireNonNull(hash, "hash");
    }

    static Entry from(JsonNode e) {
      JsonNode actor = e.path("actor");
      return new Entry(
          e.path("seq").asLong(),
          e.path("type").asText(),
          actor.path("role").asText(),
          actor.path("authenticated").asBoolean(),
          e.path("at").asText(),
          e.path("hash").asText());
    }
  }

  /**
   * Reads a log.
   *
   * @param answer the body of {@code GET /agreements/{id}/events}
   * @return the view
   * @throws IllegalArgumentException if {@code agreement_id} or the {@code events} array is missing
   */
  public static EventLog from(JsonNode answer) {
    ObjectNode o = Members.object(answer, WHAT);
    return new EventLog(
        Members.text(o, "agreement_id", WHAT),
        Members.requiredObjects(o, "events", WHAT).stream().map(Entry::from).toList(),
        o);
  }

  /**
   * Checks the hash chain end to end, here: every event in order, each pointing at the digest of
   * the one before, and each one's digest matching its content.
   *
   * @return empty when the chain is intact, else where it first breaks
   */
  public Optional<String> firstBreak() {
    return EventChain.firstBreak(json);
  }

  /**
   * The whole answer, a copy: change it freely.
   *
   * @return the answer as received
   */
  @Override
  public ObjectNode json() {
    return json.deepCopy();
  }
}
