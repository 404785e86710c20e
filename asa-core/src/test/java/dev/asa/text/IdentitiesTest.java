package dev.asa.text;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class IdentitiesTest {

  /** Each way of writing "acme labs" differently that a reader would still read as "acme labs". */
  @ParameterizedTest(name = "{0}")
  @CsvSource(
      delimiter = '|',
      value = {
        "case                  | ACME Labs",
        "leading and trailing  | '  acme labs\t'",
        "inner spaces          | 'acme   labs'",
        "no-break space        | acme\u00A0labs",
        "ideographic space     | acme\u3000labs",
        "zero-width space      | acme labs\u200B",
        "zero-width non-joiner | ac\u200Cme labs",
        "zero-width joiner     | acme\u200D labs",
        "word joiner           | \u2060acme labs",
        "byte order mark       | \uFEFFacme labs",
        "soft hyphen           | ac\u00ADme la\u00ADbs",
        "bidi override         | \u202Eacme labs",
        "full-width forms      | \uFF21\uFF23\uFF2D\uFF25 \uFF2C\uFF41\uFF42\uFF53",
        "all at once           | ' \uFF21c\u200Bme\u00A0\u00A0LABS\uFEFF '",
      })
  void bypassFormsCompareEqual(String what, String written) {
    assertThat(Identities.comparable(written)).as(what).isEqualTo("acme labs");
    assertThat(Identities.same(written, "acme labs")).as(what).isTrue();
  }

  @Test
  void composedAndDecomposedFormsCompareEqual() {
    String nfc = "caf\u00E9 r\u00E9sum\u00E9";
    String nfd = "cafe\u0301 re\u0301sume\u0301";
    assertThat(Identities.same(nfc, nfd)).isTrue();
    assertThat(Identities.same("CAF\u00C9", nfd.substring(0, 5))).isTrue();
  }

  @Test
  void caseFoldingGoesBeyondLowerCase() {
    assertThat(Identities.same("Stra\u00DFe", "STRASSE")).isTrue(); // sharp s
    assertThat(Identities.same("\uFB01rm", "FIRM")).isTrue(); // the "fi" ligature
  }

  @Test
  void differentNamesStayDifferent() {
    assertThat(Identities.same("acme labs", "acme lab")).isFalse();
    assertThat(Identities.same("acme labs", "acmelabs")).isFalse();
    assertThat(Identities.same("acme-labs", "acme labs")).isFalse();
    assertThat(Identities.same(null, "x")).isFalse();
    assertThat(Identities.same(null, null)).isFalse();
  }

  /** Comparable form is a fixed point and ignores every added format character, on random names. */
  @Test
  void comparableIsStableUnderInsertedFormatCharacters() {
    long seed = System.nanoTime();
    System.out.println(
        "IdentitiesTest.comparableIsStableUnderInsertedFormatCharacters seed = " + seed);
    Random random = new Random(seed);
    int[] format = {0x200B, 0x200C, 0x200D, 0x2060, 0xFEFF, 0x00AD, 0x202A, 0x202E, 0x2066};
    for (int i = 0; i < 5_000; i++) {
      StringBuilder name = new StringBuilder();
      for (int n = 1 + random.nextInt(12); n > 0; n--) {
        int cp;
        do {
          cp = 0x20 + random.nextInt(0x3000);
        } while (Character.getType(cp) == Character.FORMAT || Character.isSurrogate((char) cp));
        name.appendCodePoint(cp);
      }
      String plain = name.toString();
      String c = Identities.comparable(plain);
      assertThat(Identities.comparable(c))
          .as("seed %d: fixed point of %s", seed, plain)
          .isEqualTo(c);
      StringBuilder noisy = new StringBuilder(plain);
      for (int k = random.nextInt(4); k >= 0; k--) {
        noisy.insert(
            random.nextInt(noisy.length() + 1),
            Character.toChars(format[random.nextInt(format.length)]));
      }
      if (random.nextBoolean()) {
        noisy.insert(0, ' ').append("  ");
      }
      assertThat(Identities.comparable(noisy.toString()))
          .as("seed %d: %s", seed, plain)
          .isEqualTo(c);
    }
  }
}
