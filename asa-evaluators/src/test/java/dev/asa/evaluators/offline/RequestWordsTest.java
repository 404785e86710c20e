package dev.asa.evaluators.offline;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** The request's words, and a sentence read without them. */
class RequestWordsTest {

  private static final RequestWords TLS =
      RequestWords.of("Explain how a web browser validates an HTTPS server certificate.");

  @Test
  void contentWordsOfTheRequestAreItsWordsByStemAndFunctionWordsNever() {
    assertThat(TLS.contains("Browsers")).isTrue();
    assertThat(TLS.contains("validating")).isTrue();
    assertThat(TLS.contains("how")).isFalse();
    assertThat(TLS.contains("sourdough")).isFalse();
  }

  @Test
  void wordsWovenInAtRandomAreTakenOutWithTheSpaceBeforeThem() {
    assertThat(
            TLS.takenOutOf(
                "Sourdough browser bread needs a certificate lively starter, fed with HTTPS flour."))
        .isEqualTo("Sourdough bread needs a lively starter, fed with flour.");
    assertThat(TLS.takenOutOf("Certificate checks how bread rises."))
        .isEqualTo("checks how bread rises.");
  }
}
