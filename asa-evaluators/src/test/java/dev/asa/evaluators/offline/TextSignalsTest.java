package dev.asa.evaluators.offline;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.asa.evaluators.text.Passages;
import dev.asa.evaluators.text.Sentences;
import dev.asa.evaluators.text.Structure;
import java.util.List;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;

/** The counted signals, each against a value worked out by hand. */
class TextSignalsTest {

  @Nested
  class CitationCounting {

    private static final String TEXT =
        """
        See Smith et al. (2024) and (Lee and Park, 2023). Also [1], [2-4], https://energy.gov/a and
        https://doi.org/10.1000/xyz123. In March 2024 the rules changed, as GDPR (2018) requires.

        ## References
        - Smith, A. et al. (2024). One.
        - Lee, B. and Park, C. (2023). Two.
        """;

    @Test
    void countsEachKindOnceAndOnlyWhatResolves() {
      Citations c = Citations.of(TEXT);
      assertThat(c.urls()).isEqualTo(1); // the doi.org link is a DOI, not a URL
      assertThat(c.dois()).isEqualTo(1);
      // [1] and [2] name the list's two entries; [3] and [4] name nothing.
      assertThat(c.numbered()).isEqualTo(2);
      // Smith 2024 and Lee 2023, each an entry; "March 2024" is a date and "GDPR (2018)" an
      // acronym.
      assertThat(c.authorYear()).isEqualTo(2);
      assertThat(c.referenceEntries()).isEqualTo(2);
      assertThat(c.notCounted()).isEqualTo(2);
      assertThat(c.hasReferenceSection()).isTrue();
    }

    @Test
    void sourcesAreTheLargestCountNotTheSum() {
      // max(URLs + DOIs = 2, numbered = 2, author-year = 2, entries = 2): the same source appears
      // several ways.
      assertThat(Citations.of(TEXT).sources()).isEqualTo(2);
    }

    @Test
    void plainProseCitesNothing() {
      Citations c =
          Citations.of("Heat pumps work in cold weather. In 2024 they sold well in Norway.");
      assertThat(c.sources()).isZero();
      assertThat(c.describe())
          .isEqualTo(
              "0 URLs, 0 DOIs, 0 numbered references [n], 0 author-year citations, no reference list");
    }

    @Test
    void repeatedUrlsCountOnce() {
      assertThat(Citations.of("https://a.org/x, https://a.org/x/ and https://b.org.").urls())
          .isEqualTo(2);
    }

    @Test
    void bareMarkersWithNoListCountNothing() {
      Citations c = Citations.of("Heat pumps work in cold weather. [1][2][3][4][5][6][7][8]");
      assertThat(c.sources()).isZero();
      assertThat(c.notCounted()).isEqualTo(8);
      assertThat(c.describe()).contains("8 citations not counted");
    }

    @Test
    void aListNothingCitesAndNothingLocatesCountsNothing() {
      Citations c =
          Citations.of(
              """
              Heat pumps work in cold weather.

              ## References
              1. Smith, A. (2019). Heat pumps. Journal of Heat.
              2. Jones, B. (2020). Cold climates. Energy Letters.
              """);
      assertThat(c.sources()).isZero();
      assertThat(c.hasReferenceSection()).isFalse();
    }

    @Test
    void tenCopiesOfOneSourceCountOnce() {
      String entry = "Smith, A. (2019). Heat pumps. https://energy.gov/heat-pumps\n";
      StringBuilder text = new StringBuilder("Heat pumps work [1][2][3][4][5][6][7][8][9][10].");
      text.append("\n\n## References\n");
      for (int i = 1; i <= 10; i++) {
        text.append(i).append(". ").append(entry);
      }
      Citations c = Citations.of(text.toString());
      assertThat(c.urls()).isEqualTo(1);
      assertThat(c.numbered()).isEqualTo(1);
      assertThat(c.referenceEntries()).isEqualTo(1);
      assertThat(c.sources()).isEqualTo(1);
    }

    @Test
    void linksRunningOneTwoThreeAreOneSourceAndExampleDomainsNone() {
      StringBuilder templated = new StringBuilder("Heat pumps work.\n\n## Sources\n");
      StringBuilder examples = new StringBuilder("Heat pumps work.\n\n## Sources\n");
      for (int i = 1; i <= 10; i++) {
        templated.append("- https://papers.org/paper").append(i).append('\n');
        examples.append("- https://example.com/paper").append(i * 7).append('\n');
      }
      assertThat(Citations.of(templated.toString()).sources()).isEqualTo(1);
      assertThat(Citations.of(examples.toString()).sources()).isZero();
      // Real sources of one shape do not run 1, 2, 3, and stay apart.
      Citations arxiv =
          Citations.of(
              "See https://arxiv.org/abs/2301.04567, https://arxiv.org/abs/2205.11916 and"
                  + " https://arxiv.org/abs/1706.03762.");
      assertThat(arxiv.urls()).isEqualTo(3);
    }
  }

  @Nested
  class ReadabilitySignals {

    @Test
    void syllablesByVowelGroups() {
      assertThat(Readability.syllables("cat")).isEqualTo(1);
      assertThat(Readability.syllables("sunny")).isEqualTo(2); // u, y
      assertThat(Readability.syllables("make")).isEqualTo(1); // silent e
      assertThat(Readability.syllables("table")).isEqualTo(2); // -le is sounded
      assertThat(Readability.syllables("free")).isEqualTo(1);
      assertThat(Readability.syllables("reading")).isEqualTo(2);
    }

    @Test
    void fleschReadingEaseByHand() {
      // 2 sentences, 11 words, 12 syllables (all one syllable except "sunny"):
      // 206.835 - 1.015 * 11/2 - 84.6 * 12/11 = 206.835 - 5.5825 - 92.2909 = 108.96
      Readability r = Readability.of("The cat sat on the mat. It was a sunny day.");
      assertThat(r.sentences()).isEqualTo(2);
      assertThat(r.words()).isEqualTo(11);
      assertThat(r.syllables()).isEqualTo(12);
      assertThat(r.averageSentenceLength()).isEqualTo(5.5);
      assertThat(r.fleschReadingEase()).isCloseTo(108.96, within(0.01));
    }

    @Test
    void abbreviationsDoNotEndSentences() {
      assertThat(Sentences.split("Smith et al. found it. See e.g. the appendix. Dr. Lee agreed."))
          .containsExactly("Smith et al. found it.", "See e.g. the appendix.", "Dr. Lee agreed.");
    }

    @Test
    void emojiAfterAStopStandBetweenSentences() {
      assertThat(
              Sentences.split(
                  "Giving up meat can be tough, but it's worth it! 💪 Let's dive in. 🌱👋 Hey"
                      + " there! 🤷\u200d♀️ Not everyone agrees. 👍🏽 Fine."))
          .containsExactly(
              "Giving up meat can be tough, but it's worth it!",
              "Let's dive in.",
              "Hey there!",
              "Not everyone agrees.",
              "Fine.");
      // An emoji before a small word opens no sentence.
      assertThat(Sentences.split("It works! 🎉 and then it stops.")).hasSize(1);
    }

    @Test
    void aListItemsNumberOpensItsSentence() {
      assertThat(
              Sentences.split(
                  "1. The Constitution was ratified in 1787.\n2) The Civil War ended in 1865. It"
                      + " was fought for four years.\n(3) Done in 1789. 10. Then more."))
          .containsExactly(
              "1. The Constitution was ratified in 1787.",
              "2) The Civil War ended in 1865.",
              "It was fought for four years.",
              "(3) Done in 1789.",
              "10. Then more.");
    }

    @Test
    void layoutIsNotScoredOnShortTexts() {
      assertThat(Writing.of("A short answer of a few words.").layout()).isNull();
      // 200 words in one paragraph, where ceil(200 / 180) = 2 are expected: half marks.
      String wall = "word ".repeat(199) + "end.";
      assertThat(Writing.of(wall).layout()).isEqualTo(50.0);
    }

    @Test
    void aListsItemsAreBlocksOfTheLayoutWithoutBlankLinesBetweenThem() {
      // An introduction and four numbered items, no blank line anywhere: five blocks a reader sees.
      String item = "word ".repeat(45) + "end.";
      String listed =
          "Here are the ways, each with its reason:\n1. "
              + item
              + "\n2. "
              + item
              + "\n3. "
              + item
              + "\n4. "
              + item;
      Writing w = Writing.of(listed);
      assertThat(w.structure().paragraphs()).isEqualTo(1);
      assertThat(w.structure().listItems()).isEqualTo(4);
      assertThat(w.layout()).isEqualTo(100.0);
      // The same words as one paragraph keep half marks.
      assertThat(Writing.of(listed.replaceAll("\\n\\d\\. ", " ")).layout()).isEqualTo(50.0);
    }

    @Test
    void aListOfNamesIsNotReadAsHardProse() {
      String list =
          "1. Machine Learning Theory\n2. Neural Networks\n3. Convolutional Neural Networks\n"
              + "4. Recurrent Neural Networks\n5. Generative Adversarial Networks";
      Writing names = Writing.of(list);
      assertThat(names.readability().hasProse()).isFalse();
      assertThat(names.readability().listItems()).isEqualTo(5);
      assertThat(names.words()).isEqualTo(19); // 14 words and the 5 item numbers
      assertThat(names.score()).isEqualTo(100.0); // no repetition, and nothing else to measure
      assertThat(names.describe()).contains("no prose to read, only short list items");

      // With prose around it, the prose is measured and the short items are left out of it.
      Readability mixed = Readability.of("You need these first.\n" + list + "\nStart with them.");
      assertThat(mixed.sentences()).isEqualTo(2);
      assertThat(mixed.words()).isEqualTo(7);
      assertThat(mixed.listItems()).isEqualTo(5);

      // A list item that is a sentence stays a sentence.
      Readability steps = Readability.of("1. Pour the water into the kettle and boil it.");
      assertThat(steps.sentences()).isEqualTo(1);
      assertThat(steps.listItems()).isZero();
    }

    @Test
    void structureCountsParagraphsHeadingsAndLists() {
      Structure s = Structure.of("# Title\n\nIntro text.\n\n- one\n- two\n1. three\n");
      assertThat(s.paragraphs()).isEqualTo(3);
      assertThat(s.headings()).isEqualTo(1);
      assertThat(s.listItems()).isEqualTo(3);
    }
  }

  @Nested
  class RepetitionSignals {

    @Test
    void repeatedSentencesAndTrigramsByHand() {
      // 13 words, 11 three-grams; the second sentence repeats 3 of them ("backups are important",
      // "are important for", "important for everyone"); 1 of 3 sentences is a repeat.
      Repetition r =
          Repetition.of(
              "Backups are important for everyone. Backups are important for everyone. Use a drive.");
      assertThat(r.sentences()).isEqualTo(3);
      assertThat(r.repeatedSentences()).isEqualTo(1);
      assertThat(r.trigrams()).isEqualTo(11);
      assertThat(r.repeatedTrigrams()).isEqualTo(3);
      assertThat(r.ratePercent())
          .isCloseTo(100.0 / 3, within(1e-9)); // the larger share: 1/3 > 3/11
    }

    @Test
    void longerProseIsAllowedMoreRepeatedThreeGramsButNoRepeatedSentence() {
      Repetition trigrams = new Repetition(40, 0, 600, 72); // 12% of three-grams seen before
      Readability prose = Readability.of("A plain sentence of prose.");
      Structure shape = Structure.of("A plain sentence of prose.");
      // At 150 words 12% is past the 8% of full marks; at 600 words the allowance is 6 points.
      assertThat(new Writing(prose, shape, trigrams, 150).repetitionScore())
          .isCloseTo(87.5, within(1e-9));
      assertThat(new Writing(prose, shape, trigrams, 600).trigramAllowance())
          .isCloseTo(6, within(1e-9));
      assertThat(new Writing(prose, shape, trigrams, 600).repetitionScore()).isEqualTo(100);
      // The allowance stops growing at 1,000 words, and repeated sentences get none.
      assertThat(new Writing(prose, shape, trigrams, 5_000).trigramAllowance())
          .isEqualTo(Writing.ALLOWANCE_MAX);
      Repetition sentences = new Repetition(40, 8, 600, 0); // a fifth of the sentences said twice
      assertThat(new Writing(prose, shape, sentences, 5_000).repetitionScore())
          .isCloseTo(62.5, within(1e-9));
      // A text said twice over is repetition at any length.
      String answer =
          "Certificates bind a public key to a name. A browser checks the chain up to a root it"
              + " trusts, then the dates, the host name and whether the certificate was revoked. ";
      Writing twice = Writing.of(answer.repeat(15));
      assertThat(twice.words()).isGreaterThan(400);
      assertThat(twice.repetitionScore()).isZero();
    }

    @Test
    void shortLinesRepeatInnocently() {
      assertThat(Repetition.of("Yes. No. Yes. No.").repeatedSentences()).isZero();
    }

    @Test
    void freshProseHasNoRepetition() {
      assertThat(
              Repetition.of(
                      "Each sentence here says something new. Nothing in this text comes twice.")
                  .ratePercent())
          .isZero();
    }
  }

  @Nested
  class RequestSplitting {

    @Test
    void sentencesClausesCitationAndFormAsks() {
      RequestParts p =
          RequestParts.of(
              "Summarize recent literature on federated learning privacy guarantees. "
                  + "Cover differential privacy, secure aggregation and known inference attacks, and note the open problems. "
                  + "Cite your sources. Keep it under 1,000 words.");
      assertThat(p.content())
          .containsExactly(
              "Summarize recent literature on federated learning privacy guarantees",
              "Cover differential privacy, secure aggregation and known inference attacks",
              "note the open problems");
      assertThat(p.citation()).containsExactly("Cite your sources");
      assertThat(p.form()).containsExactly("Keep it under 1,000 words");
      assertThat(p.asks()).isEqualTo(4);
    }

    @Test
    void eachItemOfAListAfterAColonIsAPartHoweverShort() {
      RequestParts p =
          RequestParts.of(
              "Explain how to set up a simple backup routine for a home computer: what to back up, "
                  + "how often, where to keep the copies, and how to check that the backups actually work.");
      assertThat(p.content())
          .containsExactly(
              "Explain how to set up a simple backup routine for a home computer",
              "what to back up",
              "how often",
              "where to keep the copies",
              "how to check that the backups actually work");
      // The example: before, "chain building" and "signature checks" joined the lead-in,
      // and "revocation" the SAN, so that neither could be found covered on its own.
      assertThat(
              RequestParts.of(
                      "Explain how a web browser validates an HTTPS server certificate: chain"
                          + " building, signature checks, the validity period, hostname matching"
                          + " against the SAN, and revocation.")
                  .content())
          .containsExactly(
              "Explain how a web browser validates an HTTPS server certificate",
              "chain building",
              "signature checks",
              "the validity period",
              "hostname matching against the SAN",
              "revocation");
    }

    @Test
    void aDateAfterAColonIsNoList() {
      assertThat(
              RequestParts.of(
                      "Convert the following date from the Gregorian calendar to the Julian"
                          + " calendar: November 29, 2020")
                  .content())
          .containsExactly(
              "Convert the following date from the Gregorian calendar to the Julian calendar,"
                  + " November 29, 2020");
    }

    @Test
    void aShortItemOfAListWithoutAColonJoinsThePreviousOne() {
      assertThat(
              RequestParts.of("Describe what to back up, how often, and where to keep the copies.")
                  .content())
          .containsExactly("Describe what to back up, how often", "where to keep the copies");
    }

    @Test
    void commasInBracketsDoNotSplit() {
      assertThat(
              RequestParts.of(
                      "Cover all four regions (North, South, East, West) and all twelve months.")
                  .content())
          .containsExactly(
              "Cover all four regions (North, South, East, West) and all twelve months");
    }

    @Test
    void bulletItemsArePartsOfTheirOwn() {
      assertThat(
              RequestParts.of("Write a report:\n- cover the running costs\n- list the main risks")
                  .content())
          .containsExactly("Write a report", "cover the running costs", "list the main risks");
    }

    @Test
    void aFormatWordInsideARealAskKeepsTheAsk() {
      RequestParts p = RequestParts.of("Summarize the survey results as JSON.");
      assertThat(p.content()).containsExactly("Summarize the survey results as JSON");
      assertThat(p.form()).isEmpty();
      assertThat(p.single()).isTrue();
    }

    @Test
    void keyTermsAreIdentifiersNumbersAcronymsAndNames() {
      KeyTerms t =
          KeyTerms.of(
              List.of(
                  "Produce a CSV with columns month, units_sold and revenue_eur for North and South in 2024"),
              "month,units_sold\n2024-01,North,5");
      // CSV is a format name and is ignored; "Produce" opens the sentence.
      assertThat(t.found()).containsExactly("units_sold", "North", "2024");
      assertThat(t.missing()).containsExactly("revenue_eur", "South");
      assertThat(t.share()).isEqualTo(0.6);
    }

    @Test
    void anAcronymIsFoundSpelledOutByTheWordsItsLettersBegin() {
      KeyTerms t =
          KeyTerms.of(
              List.of("hostname matching against the SAN", "OCSP stapling and the CRL"),
              "It matches the hostname against the Subject Alternative Name entries and checks the"
                  + " certificate revocation list.");
      assertThat(t.found()).containsExactly("SAN", "CRL");
      assertThat(t.missing()).containsExactly("OCSP");
      assertThat(t.spelledOut())
          .containsEntry("SAN", "subject alternative name")
          .containsEntry("CRL", "certificate revocation list");
      assertThat(t.describeSpelledOut()).contains("SAN as \"subject alternative name\"");
    }

    @Test
    void smallWordsAndTwoLetterAcronymsAreNotSpelledOut() {
      // "such as nitrogen" begins with s, a, n, but "as" is a small word.
      assertThat(KeyTerms.of(List.of("the SAN"), "gases such as nitrogen").missing())
          .containsExactly("SAN");
      // Two initials in a row happen by chance in any long text.
      assertThat(KeyTerms.of(List.of("the AI"), "an artificial intelligence").missing())
          .containsExactly("AI");
    }
  }

  @Nested
  class Chunking {

    @Test
    void aFencedCodeBlockIsOneBlockWhateverBlankLinesItHas() {
      String code =
          "```python\nimport os\n\ndef count(path):\n\n    return len(os.listdir(path))\n```";
      String text = "Here is the program, which counts the files:\n\n" + code + "\n\nRun it.";
      assertThat(Passages.blocks(text))
          .containsExactly("Here is the program, which counts the files:", code, "Run it.");
      // Never closed, it runs to the end of the text.
      assertThat(Passages.blocks("Text.\n\n```\na\n\nb")).containsExactly("Text.", "```\na\n\nb");
    }

    @Test
    void statementsAreListItemsWholeAndLongSentences() {
      String long1 =
          "The browser builds a chain from the leaf certificate through the intermediates to a"
              + " trusted root.";
      String item =
          "It matches the hostname against the subject alternative name entries, allowing a"
              + " wildcard only in the left-most label.";
      String text =
          "Intro line.\n\n"
              + long1
              + " Short one.\n\n1. "
              + item
              + "\n2. It checks revocation through OCSP stapling,\n   or through a"
              + " CRL that the issuer publishes. Then it is done with it.\n- Kale\n";
      assertThat(Passages.statements(text))
          .containsExactly(
              item,
              "It checks revocation through OCSP stapling, or through a CRL that the issuer"
                  + " publishes. Then it is done with it.",
              long1);
      // The list is still one passage: relevance reads the answer's units as they were.
      assertThat(Passages.of(text).passages()).hasSize(2);
    }

    @Test
    void statementsAreCapped() {
      String sentence =
          "This sentence has exactly fifteen words in it, all told, and then some more. ";
      StringBuilder many = new StringBuilder();
      for (int i = 0; i < 200; i++) {
        many.append("- ").append(i).append(' ').append(sentence).append('\n');
      }
      assertThat(Passages.statements(many.toString())).hasSize(Passages.MAX_STATEMENTS);
    }

    @Test
    void longParagraphsAreCutAtSentenceEnds() {
      String sentence = "This sentence has exactly ten words in it, all told. ";
      Passages p = Passages.of(sentence.repeat(40)); // 400 words, 40 sentences
      assertThat(p.passages()).hasSize(3); // 160 + 160 + 80 words
      assertThat(p.passages()).allMatch(s -> Sentences.wordCount(s) <= Passages.MAX_WORDS);
      assertThat(p.sampled()).isFalse();
    }

    @Test
    void aHeadingJoinsTheParagraphUnderIt() {
      Passages p =
          Passages.of(
              "# Costs\n\nRunning costs depend on the ratio of electricity to gas prices.\n\n"
                  + "Installation is the main barrier for most households today.");
      assertThat(p.passages())
          .containsExactly(
              "# Costs\nRunning costs depend on the ratio of electricity to gas prices.",
              "Installation is the main barrier for most households today.");
    }

    @Test
    void veryLongTextsAreSampledEvenly() {
      Passages p =
          Passages.of("A paragraph of ten words about one thing or another.\n\n".repeat(600));
      assertThat(p.total()).isEqualTo(600);
      assertThat(p.passages()).hasSize(Passages.MAX_PASSAGES);
      assertThat(p.sampled()).isTrue();
    }
  }
}
