package dev.asa.evaluators.offline;

import static org.assertj.core.api.Assertions.assertThat;

import dev.asa.agreement.MetricType;
import dev.asa.evaluators.Deliverable;
import dev.asa.evaluators.Evaluation;
import dev.asa.evaluators.EvaluationTask;
import dev.asa.scoring.DimensionInput;
import java.math.BigDecimal;
import java.time.Instant;
import org.junit.jupiter.api.Test;

/** The parts a single-part question calls for, counted by hand; and the HTTPS example. */
class FacetsTest {

  private static final String HTTPS =
      "Explain how a web browser validates an HTTPS server certificate";

  /** Six steps citing three RFCs; written for this test. */
  private static final String DETAILED =
      """
      When the TLS handshake delivers the server's certificate chain, the browser checks it in six steps.

      1. It builds a chain from the leaf certificate through any intermediates to a root in its trust store, following the issuer and authority key identifier fields (RFC 5280, section 6).
      2. It verifies each signature in the chain with the issuer's public key, so a forged or altered certificate fails.
      3. It checks that the current time lies between notBefore and notAfter for every certificate in the chain.
      4. It matches the hostname in the address bar against the subject alternative name entries, allowing a wildcard only in the left-most label (RFC 6125).
      5. It checks revocation, for example through a stapled OCSP response (RFC 6960) or a CRLite filter, and applies the basic constraints and key usage extensions.
      6. Chrome and Safari then require signed certificate timestamps showing the certificate was logged in Certificate Transparency; if any step fails, the page is blocked with an error such as NET::ERR_CERT_DATE_INVALID.
      """;

  /** About 60 vague words on the same topic; written for this test. */
  private static final String VAGUE =
      "Certificates are used and browsers check them in various ways. Basically the browser looks"
          + " at the certificate and decides whether it trusts it, and there are many things that"
          + " can be checked. It depends on the browser and the website. In general, if something"
          + " looks wrong, the browser will show a warning, and otherwise the connection is secure"
          + " and so on.";

  @Test
  void aHowQuestionCallsForStepsOrAMechanism() {
    Facets steps = Facets.of(HTTPS, DETAILED).orElseThrow();
    assertThat(steps.form()).isEqualTo("how");
    assertThat(steps.count()).isGreaterThanOrEqualTo(6);
    assertThat(steps.share()).isEqualTo(1.0);

    Facets none = Facets.of(HTTPS, VAGUE).orElseThrow();
    assertThat(none.count()).isZero();
    assertThat(none.share()).isZero();
    assertThat(none.describe()).contains("steps or a mechanism").contains("0%");
  }

  @Test
  void sequenceWordsAndCausalLinksCountAsSteps() {
    Facets f =
        Facets.of(
                "How does a refrigerator keep food cold?",
                "First the compressor squeezes the refrigerant. Then it condenses outside the box."
                    + " Finally it evaporates inside, which absorbs heat.")
            .orElseThrow();
    assertThat(f.count()).isEqualTo(3);
    Facets causes =
        Facets.of(
                "How does a refrigerator keep food cold?",
                "The refrigerant evaporates at low pressure, because evaporation absorbs heat; it"
                    + " therefore cools the box.")
            .orElseThrow();
    assertThat(causes.count()).isEqualTo(2);
    assertThat(causes.share()).isCloseTo(2 / 3.0, org.assertj.core.api.Assertions.within(1e-9));
    Facets time =
        Facets.of(
                "How does a refrigerator keep food cold?",
                "Fridges have worked this way since 1920, since the gas is safe.")
            .orElseThrow();
    assertThat(time.count()).as("'since 1920' is a time, not a cause").isEqualTo(1);
  }

  @Test
  void repeatingAStepOrAnItemNeverRaisesTheCount() {
    String q = "How does a refrigerator keep food cold?";
    String once =
        "First the compressor squeezes the refrigerant. Then it condenses outside the box.";
    int original = Facets.of(q, once).orElseThrow().count();
    assertThat(original).isEqualTo(2);
    assertThat(
            Facets.of(
                    q,
                    once + " Then it condenses outside the box. THEN it condenses outside the box!")
                .orElseThrow()
                .count())
        .isEqualTo(original);
    String list = "- Bake bread\n- Visit a museum\n";
    assertThat(
            Facets.of(
                    "Give me some ideas for a rainy weekend.",
                    list + "- Bake bread\n- bake bread.\n")
                .orElseThrow()
                .count())
        .isEqualTo(2);
    // A numbered list repeats an item under a new number: the same item all the same.
    assertThat(
            Facets.of(
                    "List a few popular songs from the given album.",
                    "1. \"Rehab\"\n2. \"Valerie\"\n3. \"Rehab\"\n4) \"Valerie\"\n5. Rehab")
                .orElseThrow()
                .count())
        .isEqualTo(2);
  }

  @Test
  void aHeadingThatNamesNoPartIsNoStep() {
    String answer = "The browser checks the chain up to a trusted root.";
    assertThat(
            Facets.of(HTTPS, answer + "\n\n## Overview\n\n## Background\n\n### Conclusion\n")
                .orElseThrow()
                .count())
        .isZero();
    assertThat(
            Facets.of(HTTPS, "## Chain building\n\n## Signatures\n\n## Revocation\n\n" + answer)
                .orElseThrow()
                .count())
        .isEqualTo(3);
  }

  @Test
  void aCausalLinkWithNothingAfterItLinksNothing() {
    String q = "How does a refrigerator keep food cold?";
    assertThat(
            Facets.of(q, "It keeps food cold because of various reasons, therefore it is good.")
                .orElseThrow()
                .count())
        .isZero();
    assertThat(
            Facets.of(q, "It stays cold because the compressor pumps heat out of the box.")
                .orElseThrow()
                .count())
        .isEqualTo(1);
  }

  @Test
  void emptyStepsAndBulletsAreNotCounted() {
    String q = "How does a refrigerator keep food cold?";
    String honest =
        "First the compressor squeezes the refrigerant. Then it condenses outside the box.";
    String filler =
        "\nFirst, consider the situation.\nThen, think about the details.\n"
            + "- Several things matter here.\n- It depends on the circumstances.\n"
            + "1. Look at it carefully.\n";
    assertThat(Facets.of(q, honest + filler).orElseThrow().count()).isEqualTo(2);
    assertThat(Facets.emptyStep("Next, keep the important aspects in mind.")).isTrue();
    assertThat(Facets.emptyStep("- Various factors are involved.")).isTrue();
    assertThat(Facets.emptyStep("- Bake bread")).isFalse();
    assertThat(Facets.emptyStep("Finally it evaporates inside, which absorbs heat.")).isFalse();
    // Not shaped like a step: left to Substance and the rest.
    assertThat(Facets.emptyStep("Several things matter here.")).isFalse();
  }

  @Test
  void aListQuestionCallsForItems() {
    Facets f =
        Facets.of("Give me some ideas for a rainy weekend.", "- Bake bread\n- Visit a museum\n")
            .orElseThrow();
    assertThat(f.form()).isEqualTo("list");
    assertThat(f.count()).isEqualTo(2);
    assertThat(
            Facets.of("Give me some ideas for a rainy weekend.", "Read a book.")
                .orElseThrow()
                .count())
        .isZero();
  }

  @Test
  void otherFormsCallForNothingCounted() {
    assertThat(Facets.of("Why is the sky blue?", "Rayleigh scattering.")).isEmpty();
    assertThat(Facets.of("Write a haiku about autumn.", "Leaves fall.")).isEmpty();
  }

  /**
   * The example: a detailed six-step answer must outscore a 60-word vague paragraph. Before
   * {@link Facets} both earned full similarity credit as "a single part"; the vague answer lost
   * only to {@link Substance}.
   */
  @Test
  void aDetailedStepByStepAnswerOutscoresAVagueParagraph() throws Exception {
    DimensionInput good = completeness(DETAILED);
    DimensionInput vague = completeness(VAGUE);
    assertThat(good.score()).isGreaterThan(vague.score());
    assertThat(good.score()).isGreaterThan(new BigDecimal("70"));
    assertThat(good.evidence()).contains("calls for steps or a mechanism").contains("100%");
    assertThat(vague.evidence())
        .contains("calls for steps or a mechanism")
        .contains("0 steps")
        .contains("scaled by 0.50")
        .doesNotContain("completeness 100");
  }

  /**
   * The multi-part example: each step covers one named part in other words ("the subject
   * alternative name entries" for "the SAN"), and a list as one passage blurred it: "hostname
   * matching against the SAN, revocation" (0.23) and "the validity period" (0.25) were reported not
   * covered, and SAN missing.
   */
  @Test
  void eachNamedPartIsFoundCoveredByTheStepThatCoversIt() throws Exception {
    String parts =
        "Explain how a web browser validates an HTTPS server certificate: chain building,"
            + " signature checks, the validity period, hostname matching against the SAN, and"
            + " revocation.";
    DimensionInput good = completeness(parts, DETAILED);
    assertThat(good.evidence())
        .contains("6 of 6 parts of the request covered")
        .doesNotContain("not covered")
        .contains("SAN as \"subject alternative name\"");
    // 71 from its coverage, its terms and its substance; scaled by 0.92 for how far a 150-word
    // answer reaches (EmbeddingEvaluator.REACH_WEIGHT).
    assertThat(good.score()).isGreaterThan(new BigDecimal("60"));
    assertThat(good.evidence()).contains("how far it reaches");
    DimensionInput vague = completeness(parts, VAGUE);
    assertThat(vague.evidence()).contains("not covered: \"chain building\"");
    assertThat(vague.score()).isLessThan(new BigDecimal("10"));
  }

  private static DimensionInput completeness(String answer) throws Exception {
    return completeness(HTTPS, answer);
  }

  private static DimensionInput completeness(String request, String answer) throws Exception {
    Evaluation e =
        new EmbeddingEvaluator()
            .evaluate(
                EvaluationTask.of(
                    Deliverable.of(answer, "markdown", Instant.parse("2026-03-26T15:00:00Z")),
                    request,
                    "general",
                    EmbeddingEvaluatorTest.criteria(
                        EmbeddingEvaluatorTest.dim("completeness", MetricType.PERCENTAGE, null))));
    return e.dimensions().get("completeness");
  }
}
