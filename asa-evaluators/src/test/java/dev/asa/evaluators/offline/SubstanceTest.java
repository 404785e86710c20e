package dev.asa.evaluators.offline;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import org.junit.jupiter.api.Test;

/** Vague sentences counted by hand. */
class SubstanceTest {

  @Test
  void hedgesWithoutAnythingConcreteAreVague() {
    Substance s =
        substance(
            "Certificates are used and browsers check them in various ways. It depends on many"
                + " factors. Basically the browser trusts some things.");
    assertThat(s.sentences()).isEqualTo(3);
    assertThat(s.vague()).isEqualTo(3);
    // Three of three, read with one concrete sentence's benefit of the doubt: 3 / 4.
    assertThat(s.vagueShare()).isCloseTo(0.75, within(1e-9));
  }

  @Test
  void oneHedgeIsNotProofOfAVagueAnswer() {
    // Product copy has no numbers or names; one "a variety of" among its sentences is not a
    // wholly vague answer (it was: a share of 1, a quarter of its completeness kept).
    Substance one =
        substance(
            "This chain is made of polished sterling silver. It can be paired with a variety of"
                + " pendants. The clasp closes securely.");
    assertThat(one.vague()).isEqualTo(1);
    assertThat(one.concrete()).isZero();
    assertThat(one.vagueShare()).isCloseTo(0.5, within(1e-9));
    // More hedges, more vague; never less than one more hedge would make it.
    double share = 0;
    for (int n = 1; n <= 6; n++) {
      double next =
          substance("It works in various ways. ".repeat(n) + "The clasp closes.").vagueShare();
      assertThat(next).isGreaterThan(share);
      share = next;
    }
  }

  @Test
  void aConcreteMarkerKeepsAHedgedSentenceFromCountingAsVague() {
    Substance s =
        substance(
            "In general the chain is checked up to a root in the trust store, for example ISRG Root"
                + " X1. The hostname must match a subjectAltName entry (RFC 6125). Revocation is"
                + " checked in various ways.");
    assertThat(s.sentences()).isEqualTo(3);
    assertThat(s.concrete()).isEqualTo(2);
    assertThat(s.vague()).isEqualTo(1);
    assertThat(s.vagueShare()).isCloseTo(1 / 4.0, within(1e-9)); // 1 / (2 + 1 + 1)
  }

  @Test
  void numbersAloneDoNotKeepAHedgedSentenceFromCountingAsVague() {
    Substance s =
        substance(
            "It works in various ways in 7 to 103. Basically it depends, 3 or 4. It is more or"
                + " less checked since 1995 by Chrome. Browsers check 3 dates.");
    assertThat(s.sentences()).isEqualTo(4);
    assertThat(s.vague()).isEqualTo(2); // the third has a name, the fourth no hedge
    assertThat(s.concrete()).isEqualTo(2);
  }

  @Test
  void blandSentencesDoNotDiluteVagueness() {
    String vague = "It works in various ways. Basically it depends.";
    double before = substance(vague).vagueShare();
    double after = substance(vague + " The sky was grey. We walked home.").vagueShare();
    assertThat(after).isEqualTo(before).isCloseTo(2 / 3.0, within(1e-9));
  }

  @Test
  void plainSentencesAreNeitherConcreteNorVague() {
    Substance s = substance("The sky was grey. We walked home slowly.");
    assertThat(s.concrete()).isZero();
    assertThat(s.vague()).isZero();
    assertThat(s.vagueShare()).isZero();
  }

  @Test
  void aHedgeIsAWholeWordNotThePrefixOfOne() {
    // "stuff" is a hedge; "stuffed" and "stuffing" are food.
    assertThat(substance("You bring the snacks and stuff. We bring drinks and stuff.").vague())
        .isEqualTo(2);
    assertThat(substance("Serve the stuffed peppers hot. Keep the stuffing moist.").vague())
        .isZero();
  }

  /**
   * Read literally, two hedges are no hedge: "some ways" a list is about to name, and "more or
   * less" as a comparison. Vicuna's FairEval answer on natural selection, with no other vague
   * sentence, lost three quarters of its completeness to "traits become more or less common".
   */
  @Test
  void aListAnnouncedOrAComparisonIsNoHedge() {
    assertThat(
            substance(
                    "Here are some ways platforms shape the news: ranking and sharing. Traits become"
                        + " more or less common over generations.")
                .vague())
        .isZero();
    assertThat(
            substance("The check works in some ways. The result is more or less what you expect.")
                .vague())
        .isEqualTo(2);
  }

  @Test
  void oneSentenceIsTooLittleToMeasure() {
    assertThat(substance("It depends.").measurable()).isFalse();
    assertThat(substance("It depends. Basically stuff.").measurable()).isTrue();
  }

  @Test
  void theRequestsWordsWovenInNeitherHideAHedgeNorPassForNames() {
    String vague =
        "There are many Colour factors. Basically it Why is a natural Autumn process and so on.";
    Substance s = Substance.of(vague, RequestWords.of("Why do leaves change colour in autumn?"));
    assertThat(s.concrete()).isZero();
    assertThat(s.vague()).isEqualTo(2);
  }

  /**
   * A sentence of the request's words that introduces a list ("Here are some ways social media
   * platforms influence the way people consume and share news:") is no filler when the list
   * follows; at the end, with nothing after it, it is. As filler it had been the one vague sentence
   * of Vicuna's FairEval answer and cost it three quarters of its completeness.
   */
  @Test
  void aSentenceIntroducingWhatFollowsIsNoFiller() {
    RequestWords asked =
        RequestWords.of(
            "How do social media platforms influence the way people consume and share news?");
    String intro =
        "Here are some ways social media platforms influence the way people consume and share news:";
    String listed =
        intro
            + "\n1. Personalization: algorithms rank each feed by past clicks."
            + "\n2. Virality: outrage spreads faster than corrections.";
    assertThat(Substance.of(listed, asked).vague()).isZero();
    assertThat(Substance.of(listed + "\n" + intro, asked).vague()).isEqualTo(1);
    // Filler passed off as introductions, one after another, introduces no list: still filler.
    String chained =
        "Social media platforms influence the way people consume news:\n"
            + "Social media platforms influence the way people share news:\n"
            + "1. Personalization: algorithms rank each feed by past clicks.";
    assertThat(Substance.of(chained, asked).vague()).isEqualTo(1);
  }

  /**
   * A word slipped in after a stop keeps the splitter from parting two sentences ("factors. colour
   * Basically"); the next sentence's first word is still no name. Before, it made the merged hedge
   * concrete, and the request's words woven at random into the test topics' vague answers raised
   * one by up to 18.6 points.
   */
  @Test
  void aSentencesFirstWordIsNoNameWhenTheSplitterLeftItInside() {
    RequestWords asked = RequestWords.of("Why do leaves change colour in autumn?");
    for (String slipped : new String[] {"colour", "a", "in do", "autumn a"}) {
      String merged =
          "Nature is complicated and there are many factors. "
              + slipped
              + " Basically it is a natural process. It happens in various ways.";
      Substance s = Substance.of(merged, asked);
      assertThat(s.concrete()).as(merged).isZero();
      assertThat(s.vague()).as(merged).isEqualTo(2);
    }
    // A name after a sentence's first word still is one (one in first place never was).
    assertThat(substance("Basically it runs in the Krebs cycle. It works somehow.").concrete())
        .isEqualTo(1);
  }

  @Test
  void anExampleOrAReasonWithNothingAfterItIsAHedgeStill() {
    Substance s =
        substance(
            "It works in various ways, for example in some cases. Basically it depends, because of"
                + " various reasons. It is checked in various ways, for example by OCSP stapling.");
    assertThat(s.vague()).isEqualTo(2);
    assertThat(s.concrete()).isEqualTo(1); // OCSP stapling is an example
  }

  @Test
  void theRequestsSmallWordsWovenIntoAHedgeDoNotHideIt() {
    RequestWords asked = RequestWords.of("Why do leaves change colour in autumn?");
    assertThat(Substance.vague("Nature is complicated and there in are do many factors.", asked))
        .isTrue();
    assertThat(Substance.vague("Chlorophyll breaks down in the cold.", asked)).isFalse();
  }

  @Test
  void aSentenceThatNamesAPartAndSaysNothingOfItIsFiller() {
    RequestWords asked =
        RequestWords.of(
            "Explain how a web browser validates an HTTPS server certificate: chain building,"
                + " signature checks, the validity period, and revocation.");
    assertThat(
            Substance.vague(
                "Signature checks are also among the things that can matter depending on the case.",
                asked))
        .isTrue();
    assertThat(
            Substance.vague(
                "The validity period is something that browsers may look at in some situations.",
                asked))
        .isTrue();
    // One word of its own makes it a plain sentence; a short one is too little to call filler.
    assertThat(Substance.vague("Revocation is one of the aspects that depend on OCSP.", asked))
        .isFalse();
    assertThat(Substance.vague("Signature checks.", asked)).isFalse();
    // Bland but about something: neither concrete nor vague.
    assertThat(substance("The sky was grey. We walked home slowly.").vague()).isZero();
  }

  @Test
  void aRequestThatHandsOverItsTextIsAnsweredInItsWordsWithoutFiller() {
    String request = "Rewrite this sentence in the passive voice: the committee approved the plan.";
    assertThat(Substance.vague("The plan was approved by the committee.", RequestWords.of(request)))
        .isFalse();
    assertThat(
            Substance.vague(
                "The plan was approved by the committee.",
                RequestWords.of("Who approved the plan of the committee?")))
        .isTrue();
  }

  private static Substance substance(String text) {
    return Substance.of(text, RequestWords.of(""));
  }
}
