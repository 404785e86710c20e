package dev.asa.server.store.agreements;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.asa.server.store.db.PackedText;
import java.time.Instant;
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
        PackedText.pack("{\"format\":2,\"events\":[]}", PackedText.Dictionary.VOCABULARY);
    assertThatThrownBy(() -> EventTrail.unpack("a-9", other))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("a-9")
        .hasMessageContaining("format 2");
  }
}
