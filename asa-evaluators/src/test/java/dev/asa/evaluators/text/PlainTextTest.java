package dev.asa.evaluators.text;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** Text as a reader sees it: what looks like a word is read as that word. */
class PlainTextTest {

  @Test
  void formatCharactersAreTakenOut() {
    assertThat(PlainText.of("vari\u200Bous ways, basi\u00ADcally, it dep\u2060ends\u200D"))
        .isEqualTo("various ways, basically, it depends");
  }

  @Test
  void compatibilityFormsAreReadAsTheirLetters() {
    assertThat(PlainText.of("ｖａｒｉｏｕｓ ﬁlter")).isEqualTo("various filter");
  }

  @Test
  void lookAlikeLettersInsideALatinWordAreReadAsLatin() {
    // Cyrillic а and о, Greek ο, inside English words.
    assertThat(PlainText.of("v\u0430rious b\u0430sic\u0430lly c\u03bfmplicated"))
        .isEqualTo("various basically complicated");
  }

  @Test
  void aWordOfLookAlikesOnlyIsReadAsLatinBesideALatinWord() {
    assertThat(PlainText.of("for \u0430 number of reasons")).isEqualTo("for a number of reasons");
    String russian = "Кошка и собака, а также то";
    assertThat(PlainText.of(russian)).isEqualTo(russian);
  }

  @Test
  void aWordOfAnotherScriptIsLeftAsWritten() {
    String russian = "Сертификат проверяется браузером";
    String greek = "Το πιστοποιητικό ελέγχεται";
    assertThat(PlainText.of(russian)).isEqualTo(russian);
    assertThat(PlainText.of(greek)).isEqualTo(greek);
    assertThat(PlainText.of("The word ρόλος is Greek.")).isEqualTo("The word ρόλος is Greek.");
  }

  @Test
  void aLongRunOfLettersIsReadInOnePass() {
    String run = "a".repeat(200_000) + "\u0430";
    long start = System.nanoTime();
    assertThat(PlainText.of(run)).isEqualTo("a".repeat(200_001));
    // Linear: a pattern that looked ahead from each letter would take minutes here.
    // (The bound tells milliseconds from minutes, with room for a loaded machine.)
    assertThat(System.nanoTime() - start).isLessThan(20_000_000_000L);
  }
}
