package dev.asa.text;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class ControlCharactersTest {

  @Test
  void c0AndDelAreControlCharactersNothingElse() {
    for (int cp = 0; cp <= 0x1F; cp++) {
      assertThat(ControlCharacters.isControl(cp)).as("U+%04X", cp).isTrue();
    }
    assertThat(ControlCharacters.isControl(0x7F)).isTrue();
    for (int cp = 0x20; cp < 0x7F; cp++) {
      assertThat(ControlCharacters.isControl(cp)).as("U+%04X", cp).isFalse();
    }
    assertThat(ControlCharacters.isControl(0xA0)).isFalse();
    assertThat(ControlCharacters.isControl(0x1F600)).isFalse();
  }

  @Test
  void theFirstOneIsNamedWithItsIndex() {
    assertThat(ControlCharacters.problemWith("alice")).isNull();
    assertThat(ControlCharacters.problemWith("caf\u00E9 \uD83D\uDE00")).isNull();
    assertThat(ControlCharacters.problemWith("ali\u0000ce\n"))
        .contains("U+0000")
        .contains("index 3");
    assertThat(ControlCharacters.problemWith("x\u007F")).contains("U+007F").contains("index 1");
    assertThat(ControlCharacters.firstIn("\r\n")).hasValue(0);
  }
}
