package dev.asa.server.agreements;

import com.fasterxml.jackson.databind.JsonNode;
import dev.asa.agreement.Agreement;
import dev.asa.server.store.Write;
import java.util.List;

/**
 * What a decision produced: the next agreement, the events that explain it, side writes, and an
 * optional response body (null: the agreement envelope). {@link UnitOfWork} commits it whole.
 */
record Change(
    Agreement next,
    List<EventLog.Draft> events,
    List<Write> writes,
    JsonNode response,
    int status) {
  Change(Agreement next, List<EventLog.Draft> events, List<Write> writes, JsonNode response) {
    this(next, events, writes, response, 200);
  }
}
