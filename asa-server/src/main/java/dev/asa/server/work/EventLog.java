package dev.asa.server.work;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.asa.lifecycle.Event;
import dev.asa.server.store.agreements.ChainHead;
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

  /** Chains the drafts after {@code head}, the newest event of the agreement's log. */
  public static List<EventRecord> chain(
      String agreementId, ChainHead head, List<Draft> drafts, Instant at) {
    List<EventRecord> out = new ArrayList<>(drafts.size());
    long seq = head.seq();
    String hash = head.hash();
    for (Draft d : drafts) {
      Event e =
          Event.after(
              seq, hash, agreementId, d.type().wireName(), d.actor().toJson(), at, d.payload());
      out.add(EventRecord.of(e));
      seq = e.seq();
      hash = e.hash();
    }
    return out;
  }
}
