package dev.asa.server.store.db;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.asa.server.store.db.PackedText.Dictionary;
import org.junit.jupiter.api.Test;

class StoredTextTest {
  private static final String TEXT = "{\"service\":{\"type\":\"research\"},\"n\":1}";

  @Test
  void aStoredValueReadsAsTheTextItWasPackedFrom() {
    StoredText fast = StoredText.stored(PackedText.pack(TEXT, Dictionary.VOCABULARY));
    StoredText smallest = StoredText.stored(PackedText.packSmallest(TEXT, Dictionary.VOCABULARY));
    StoredText unpacked = StoredText.stored(PackedText.unpacked(TEXT));

    assertThat(fast.text()).isEqualTo(TEXT);
    assertThat(fast.text()).as("unpacked once, then kept").isSameAs(fast.text());
    assertThat(fast).isEqualTo(smallest).isEqualTo(unpacked).isEqualTo(StoredText.of(TEXT));
    assertThat(fast).hasSameHashCodeAs(StoredText.of(TEXT));
    assertThat(StoredText.stored(null)).isNull();
  }

  @Test
  void theSameValueIsEqualToItselfWithoutBeingUnpacked() {
    byte[] corrupt = PackedText.pack(TEXT, Dictionary.VOCABULARY);
    corrupt[1] = 100; // unpacking it would fail
    StoredText read = StoredText.stored(corrupt);
    assertThat(read.equals(read)).isTrue();
    assertThatThrownBy(() -> read.equals(StoredText.of(TEXT)))
        .isInstanceOf(IllegalStateException.class);
  }

  @Test
  void theSameValueIsToldByIdentityWithoutUnpackingAndEqualTextsMadeApartAreNotIt() {
    byte[] corrupt = PackedText.pack(TEXT, Dictionary.VOCABULARY);
    corrupt[1] = 100; // unpacking it would fail
    StoredText read = StoredText.stored(corrupt);
    assertThat(read.isSameValueAs(read)).isTrue();
    assertThat(read.isSameValueAs(StoredText.of(TEXT))).isFalse();
    assertThat(StoredText.of(TEXT).isSameValueAs(StoredText.of(TEXT))).isFalse();
  }

  @Test
  void theBytesItWasReadFromAreItsOwn() {
    byte[] bytes = PackedText.unpacked(TEXT);
    StoredText read = StoredText.stored(bytes);
    bytes[1] = 'X'; // the caller's array changes after the read
    assertThat(read.text()).isEqualTo(TEXT);
  }

  @Test
  void aCorruptValueFailsWhenReadNotWhenHeld() {
    byte[] corrupt = PackedText.pack(TEXT, Dictionary.VOCABULARY);
    corrupt[1] = 100; // its length, a varint: more than the stream holds
    StoredText held = StoredText.stored(corrupt);
    assertThatThrownBy(held::text).isInstanceOf(IllegalStateException.class);
  }
}
