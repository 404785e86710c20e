package dev.asa.lifecycle;

import com.fasterxml.jackson.databind.JsonNode;
import dev.asa.crypto.Digest;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/** Verifies an agreement's event log end to end. */
public final class EventChain {
  private EventChain() {}

  /** Empty when the chain is intact; otherwise a description of the first break. */
  public static Optional<String> firstBreak(List<Event> events) {
    String expectedPrev = Digest.ZERO;
    long expectedSeq = 1;
    for (Event e : events) {
      if (e.seq() != expectedSeq) {
        return Optional.of("event " + e.seq() + " found where " + expectedSeq + " was expected");
      }
      if (!e.prevHash().equals(expectedPrev)) {
        return Optional.of(
            "event " + e.seq() + " does not point at the digest of event " + (e.seq() - 1));
      }
      if (!e.isSelfConsistent()) {
        return Optional.of(
            "event " + e.seq() + " was altered: its digest does not match its content");
      }
      expectedPrev = e.hash();
      expectedSeq++;
    }
    return Optional.empty();
  }

  /**
   * Checks an event log as {@code GET /agreements/{id}/events} serves it: {@code {agreement_id,
   * events: [...]}}. Anyone holding that JSON can run this; it trusts nothing the server says about
   * validity.
   */
  public static Optional<String> firstBreak(JsonNode log) {
    String agreementId = log.path("agreement_id").asText();
    List<Event> events = new ArrayList<>();
    for (JsonNode e : log.path("events")) {
      try {
        events.add(Event.fromJson(agreementId, e));
      } catch (IllegalArgumentException ex) {
        return Optional.of(ex.getMessage());
      }
    }
    return firstBreak(events);
  }

  public static boolean verifies(List<Event> events) {
    return firstBreak(events).isEmpty();
  }
}
