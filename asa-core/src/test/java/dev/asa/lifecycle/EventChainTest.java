package dev.asa.lifecycle;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.asa.crypto.Digest;
import dev.asa.json.Json;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class EventChainTest {
  private static List<Event> chain(int n) {
    List<Event> events = new ArrayList<>();
    Event prev = null;
    for (int i = 0; i < n; i++) {
      prev =
          Event.append(
              prev,
              "asa-x",
              "step" + i,
              Json.object().put("role", "client"),
              Instant.parse("2026-11-22T10:00:00Z").plusSeconds(i),
              Json.object().put("i", i));
      events.add(prev);
    }
    return events;
  }

  @Test
  void anIntactChainVerifiesAndStartsFromZero() {
    List<Event> events = chain(4);
    assertThat(EventChain.firstBreak(events)).isEmpty();
    assertThat(events.get(0).prevHash()).isEqualTo(Digest.ZERO);
    assertThat(events.get(1).prevHash()).isEqualTo(events.get(0).hash());
  }

  @Test
  void anEventChainedAfterTheHeadAloneIsTheEventChainedAfterThePreviousEvent() {
    List<Event> events = chain(3);
    Event last = events.get(2);
    Instant at = last.at().plusSeconds(1);
    ObjectNode actor = Json.object().put("role", "provider");
    ObjectNode payload = Json.object().put("i", 3);
    Event fromHead = Event.after(last.seq(), last.hash(), "asa-x", "step3", actor, at, payload);
    assertThat(fromHead).isEqualTo(Event.append(last, "asa-x", "step3", actor, at, payload));
    assertThat(Event.after(0, Digest.ZERO, "asa-x", "step0", actor, at, payload).seq()).isOne();
    List<Event> extended = new ArrayList<>(events);
    extended.add(fromHead);
    assertThat(EventChain.firstBreak(extended)).isEmpty();
  }

  @Test
  void editingRemovingOrReorderingAnEventBreaksTheChain() {
    List<Event> edited = new ArrayList<>(chain(4));
    Event e = edited.get(1);
    edited.set(
        1,
        new Event(
            e.agreementId(),
            e.seq(),
            e.type(),
            e.actor(),
            e.at(),
            Json.object().put("i", 99),
            e.prevHash(),
            e.hash()));
    assertThat(EventChain.firstBreak(edited)).get().asString().contains("event 2 was altered");

    List<Event> removed = new ArrayList<>(chain(4));
    removed.remove(2);
    assertThat(EventChain.firstBreak(removed)).isPresent();

    List<Event> swapped = new ArrayList<>(chain(4));
    swapped.add(1, swapped.remove(2));
    assertThat(EventChain.firstBreak(swapped)).isPresent();
  }

  @Test
  void theServedJsonShapeIsCheckedTheSameWay() {
    ObjectNode log = Json.object().put("agreement_id", "asa-x");
    ArrayNode arr = log.putArray("events");
    chain(3).forEach(ev -> arr.add(ev.toJson()));
    assertThat(EventChain.firstBreak(log)).isEmpty();
    ((ObjectNode) arr.get(2)).put("type", "forged");
    assertThat(EventChain.firstBreak(log)).isPresent();
    ((ObjectNode) arr.get(2)).put("at", "yesterday");
    assertThat(EventChain.firstBreak(log)).get().asString().contains("unreadable");
  }
}
