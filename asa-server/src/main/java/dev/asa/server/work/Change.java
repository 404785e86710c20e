package dev.asa.server.work;

import com.fasterxml.jackson.databind.JsonNode;
import dev.asa.document.Agreement;
import dev.asa.server.store.Write;
import java.util.ArrayList;
import java.util.List;

/**
 * What a decision produced: the next agreement, the events that explain it, side writes, and an
 * optional response body (null: the agreement envelope). {@link UnitOfWork} commits it whole.
 */
public record Change(
    Agreement next,
    List<EventLog.Draft> events,
    List<Write> writes,
    JsonNode response,
    int status) {
  public Change(
      Agreement next, List<EventLog.Draft> events, List<Write> writes, JsonNode response) {
    this(next, events, writes, response, 200);
  }

  /**
   * This change with events that explain what led to it before its own, and writes that ride with
   * it after its own.
   */
  public Change with(List<EventLog.Draft> before, List<Write> moreWrites) {
    List<EventLog.Draft> allEvents = new ArrayList<>(before);
    allEvents.addAll(events);
    List<Write> allWrites = new ArrayList<>(writes);
    allWrites.addAll(moreWrites);
    return new Change(next, allEvents, allWrites, response, status);
  }

  /** The agreement as it is: a base for events and writes that change nothing else. */
  public static Change unchanged(Agreement a) {
    return new Change(a, List.of(), List.of(), null);
  }

  /** {@code change} with {@code before} ahead of its events. */
  public static Change prepending(List<EventLog.Draft> before, Change change) {
    return change.with(before, List.of());
  }
}
