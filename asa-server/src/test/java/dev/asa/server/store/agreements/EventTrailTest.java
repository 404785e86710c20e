package dev.asa.server.store.agreements;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.asa.json.Json;
import dev.asa.lifecycle.Event;
import dev.asa.lifecycle.EventChain;
import dev.asa.server.store.db.PackedText;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A packed trail gives back every field of every event, whatever the chain looks like. Actor and
 * payload are the store's own JSON texts (written compact by {@code Json.write}), which come back
 * character for character.
 */
class EventTrailTest {
  private static final Instant T = Instant.parse("2026-12-07T10:00:00.123Z");

  @Test
  void everyFieldComesBackAsItWasEvenWhereTheChainIsBroken() {
    List<EventRecord> events =
        List.of(
            new EventRecord("a-1", 1, "created", "{\"role\":\"client\"}", T, null, null, "h1"),
            new EventRecord(
                "a-1", 2, "funded", null, T.plusMillis(5), "{\"amount\":\"10.50\"}", "h1", "h2"),
            // A link that does not match the hash before it stays as it was stored: the check
            // that finds it must still find it.
            new EventRecord(
                "a-1",
                3,
                "verified",
                "null",
                T.plusMillis(9),
                "{\"x\":1500.50,\"n\":null}",
                "forged",
                "h3"),
            new EventRecord(
                "a-1", 4, "closed", "{\"é\":\"ü\"}", T.plusMillis(10), "[]", "h3", "h4"));
    List<EventRecord> back = EventTrail.unpack("a-1", EventTrail.pack(events));
    assertThat(back.get(0)).isEqualTo(events.get(0));
    assertThat(back.get(1)).isEqualTo(events.get(1));
    assertThat(back.get(2)).isEqualTo(events.get(2));
    assertThat(back.get(3)).isEqualTo(events.get(3));
  }

  @Test
  void aTrailOfAnotherFormatIsRefusedNamingTheAgreement() {
    byte[] other =
        PackedText.pack("{\"format\":3,\"events\":[]}", PackedText.Dictionary.VOCABULARY);
    assertThatThrownBy(() -> EventTrail.unpack("a-9", other))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("a-9")
        .hasMessageContaining("format 3");
  }

  @Test
  void aChainKeepsOnlyItsLastHashAndReadsBackWhole() {
    List<EventRecord> chain = chain("a-2", 7);
    byte[] packed = EventTrail.pack(chain);
    String text = PackedText.unpack(packed);
    assertThat(text).contains(chain.get(6).hash());
    for (EventRecord e : chain.subList(0, 6)) {
      assertThat(text).doesNotContain(e.hash());
    }
    List<EventRecord> back = EventTrail.unpack("a-2", packed);
    assertThat(back).isEqualTo(chain);
    assertThat(EventChain.firstBreak(back.stream().map(EventRecord::toCore).toList())).isEmpty();
  }

  @Test
  void aChangeToAnyPackedEventStillBreaksTheChain() {
    List<EventRecord> chain = chain("a-3", 5);
    String text = PackedText.unpack(EventTrail.pack(chain));
    for (int seq = 1; seq <= 5; seq++) {
      String changed = text.replace("\"step\":" + seq + "}", "\"step\":" + (seq + 10) + "}");
      assertThat(changed).isNotEqualTo(text);
      List<EventRecord> back =
          EventTrail.unpack("a-3", PackedText.pack(changed, PackedText.Dictionary.TRAIL));
      assertThat(EventChain.firstBreak(back.stream().map(EventRecord::toCore).toList()))
          .as("event %d changed", seq)
          .isPresent();
    }
  }

  @Test
  void aTrailOfTheFirstFormatWithEveryHashStillReads() {
    List<EventRecord> chain = chain("a-4", 3);
    StringBuilder text = new StringBuilder("{\"format\":1,\"events\":[");
    for (EventRecord e : chain) {
      text.append(e.seq() == 1 ? "" : ",")
          .append("{\"seq\":")
          .append(e.seq())
          .append(",\"type\":\"")
          .append(e.type())
          .append("\",\"actor\":")
          .append(e.actor())
          .append(",\"at\":")
          .append(e.at().toEpochMilli())
          .append(",\"payload\":")
          .append(e.payload())
          .append(e.seq() == 1 ? ",\"prev_hash\":\"" + e.prevHash() + "\"" : "")
          .append(",\"hash\":\"")
          .append(e.hash())
          .append("\"}");
    }
    text.append("]}");
    byte[] formatOne = PackedText.pack(text.toString(), PackedText.Dictionary.VOCABULARY);
    assertThat(EventTrail.unpack("a-4", formatOne)).isEqualTo(chain);
  }

  @Test
  void aTrailMissingAHashItCannotRecomputeIsRefused() {
    byte[] broken =
        PackedText.pack(
            "{\"format\":2,\"events\":[{\"seq\":1,\"type\":\"created\",\"at\":1}]}",
            PackedText.Dictionary.TRAIL);
    assertThatThrownBy(() -> EventTrail.unpack("a-5", broken))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("event 1")
        .hasMessageContaining("a-5");
  }

  /** A log the way the server appends it: each event chained to the one before by the core. */
  private static List<EventRecord> chain(String agreementId, int length) {
    List<EventRecord> records = new ArrayList<>();
    Event previous = null;
    for (int seq = 1; seq <= length; seq++) {
      Event e =
          Event.append(
              previous,
              agreementId,
              "step",
              Json.parseTrusted("{\"role\":\"client\",\"key\":\"k\"}"),
              T.plusMillis(seq),
              Json.parseTrusted("{\"amount\":\"10.50\",\"n\":1.0,\"step\":" + seq + "}"));
      records.add(EventRecord.of(e));
      previous = e;
    }
    return records;
  }
}
