package dev.asa.server.work;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.asa.lifecycle.Event;
import dev.asa.server.store.agreements.EventRecord;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/** Converts between the core's hash-chained {@link Event} and the stored {@link EventRecord}. */
public final class EventLog {
  private EventLog() {}

  /** An event about to be written: what happened, who did it, the details. */
  public record Draft(EventType type, Actor actor, ObjectNode payload) {}

  public static Event toCore(EventRecord r) {
    return r.toCore();
  }

  /** Chains the drafts after {@code last} (null for a new agreement). */
  public static List<EventRecord> chain(
      String agreementId, Event last, List<Draft> drafts, Instant at) {
    List<EventRecord> out = new ArrayList<>(drafts.size());
    Event previous = last;
    for (Draft d : drafts) {
      Event e =
          Event.append(
              previous, agreementId, d.type().wireName(), d.actor().toJson(), at, d.payload());
      out.add(EventRecord.of(e));
      previous = e;
    }
    return out;
  }
}
