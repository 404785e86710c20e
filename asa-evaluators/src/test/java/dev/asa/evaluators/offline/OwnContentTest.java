package dev.asa.evaluators.offline;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.asa.evaluators.embedding.Model;
import dev.asa.evaluators.text.Sentences;
import java.util.List;
import org.junit.jupiter.api.Test;

/** What counts as an answer's own words, and what cannot buy any. */
class OwnContentTest {

  private static final String REQUEST =
      "Explain how a web browser validates an HTTPS server certificate.";

  /** Counted with every sentence fully on topic, to test the counting alone. */
  private static OwnContent onTopic(String request, String answer) {
    List<String> sentences = Sentences.split(answer);
    double[] close = new double[sentences.size()];
    java.util.Arrays.fill(close, 0.9);
    return OwnContent.count(request, sentences, close);
  }

  @Test
  void countsDistinctContentWordsBeyondTheRequest() {
    OwnContent own = onTopic(REQUEST, "The browser checks the chain to a trusted root.");
    // browser is the request's; the, to, a are function words: checks chain trusted root.
    assertThat(own.distinct()).isEqualTo(4);
    assertThat(own.words()).isEqualTo(4.0);
  }

  @Test
  void numbersAreWordsOfItsOwnOnlyWhereTheRequestDealsInNumbers() {
    String answer = "The browser checks the chain to a trusted root in 7 to 103, 1995 and 40.";
    assertThat(onTopic(REQUEST, answer).distinct()).isEqualTo(4);
    assertThat(onTopic("What is 14% of $47.50?", "It is $6.65, 14 cents a dime.").distinct())
        .isEqualTo(3); // 6.65, cents, dime: 14 is the request's
  }

  @Test
  void theRequestsOwnWordsAndRepetitionEarnNothing() {
    OwnContent thin = onTopic(REQUEST, "The browser checks the chain up to a trusted root.");
    OwnContent stuffed =
        onTopic(
            REQUEST,
            "The browser checks the chain up to a trusted root. Browser validates HTTPS server"
                + " certificate. The browser checks the chain up to a trusted root. Validating"
                + " certificates, explained.");
    assertThat(stuffed.words()).isEqualTo(thin.words());
  }

  @Test
  void aWordCountsByHowCloseItsSentenceIsToTheRequest() {
    List<String> sentences = List.of("Chains end at roots.", "Bread needs flour.");
    OwnContent own = OwnContent.count(REQUEST, sentences, new double[] {0.9, 0.1});
    assertThat(own.words()).isEqualTo(3.0); // chains end roots; bread needs flour earn nothing
    assertThat(own.distinct()).isEqualTo(6);
    OwnContent halfway =
        OwnContent.count(
            REQUEST,
            List.of("Chains end at roots."),
            new double[] {(OwnContent.SENTENCE_ZERO + OwnContent.SENTENCE_FULL) / 2});
    assertThat(halfway.words()).isCloseTo(1.5, within(1e-9));
  }

  @Test
  void aLooselyRelatedSentenceBringsWhatItNamesButNoNumbersOrGenericWords() {
    String sums = "What do 5 books at $20 and 3 at $30 cost?";
    double loose = (OwnContent.SENTENCE_ZERO + OwnContent.GENERIC_ZERO) / 2;
    // Between the two lines: "novels" and "shelf" name something; "also", "things", the numbers
    // and the letter "x" do not place the sentence on the topic.
    OwnContent own =
        OwnContent.count(
            sums,
            List.of("Also novels on a shelf, and things, 2 + 2 = 4 and 3 x 3 = 9."),
            new double[] {loose});
    double named =
        (loose - OwnContent.SENTENCE_ZERO) / (OwnContent.SENTENCE_FULL - OwnContent.SENTENCE_ZERO);
    assertThat(own.words()).isCloseTo(2 * named, within(1e-9));
    // At the generic line and above, they count as before.
    OwnContent close =
        OwnContent.count(sums, List.of("Also 2 + 2 = 4."), new double[] {OwnContent.SENTENCE_FULL});
    assertThat(close.words()).isEqualTo(3.0); // also, 2, 4
  }

  @Test
  void creditSaturatesAtFullAndDepthAtItsOwnLine() {
    assertThat(new OwnContent(0, 0, null, false).share()).isZero();
    assertThat(new OwnContent(5, 5, null, false).share()).isCloseTo(0.75, within(0.01));
    assertThat(new OwnContent(OwnContent.FULL, 10, null, false).share()).isEqualTo(1.0);
    assertThat(new OwnContent(400, 400, null, false).share()).isEqualTo(1.0);
    // Depth goes on past full credit, on the same scale, to its own line.
    assertThat(new OwnContent(OwnContent.FULL, 10, null, false).depth())
        .isCloseTo(0.61, within(0.01));
    assertThat(new OwnContent(25, 25, null, false).depth()).isCloseTo(0.83, within(0.01));
    assertThat(new OwnContent(OwnContent.DEPTH_FULL, 50, null, false).depth()).isEqualTo(1.0);
    assertThat(new OwnContent(400, 400, null, false).depth()).isEqualTo(1.0);
    // Reach goes on past depth, halfway at a third of its line.
    assertThat(new OwnContent(0, 0, null, false).reach()).isZero();
    assertThat(new OwnContent(OwnContent.DEPTH_FULL, 50, null, false).reach())
        .isCloseTo(0.29, within(0.01));
    assertThat(new OwnContent(OwnContent.REACH_FULL / 3.0, 100, null, false).reach())
        .isCloseTo(0.5, within(1e-9));
    assertThat(new OwnContent(OwnContent.REACH_FULL, 300, null, false).reach()).isEqualTo(1.0);
    assertThat(new OwnContent(1000, 1000, null, false).reach()).isEqualTo(1.0);
  }

  @Test
  void depthOfAnExtendedAnswerGoesOnToItsOwnLine() {
    // Where the request calls for more than a line, 50 words of its own are not yet full depth.
    assertThat(new OwnContent(OwnContent.DEPTH_FULL, 50, null, true).depth())
        .isCloseTo(0.69, within(0.01));
    assertThat(new OwnContent(150, 150, null, true).depth()).isCloseTo(0.88, within(0.01));
    assertThat(new OwnContent(OwnContent.EXTENDED_DEPTH_FULL, 300, null, true).depth())
        .isEqualTo(1.0);
    assertThat(new OwnContent(2000, 2000, null, true).depth()).isEqualTo(1.0);
  }

  @Test
  void whetherTheRequestCallsForAnExtendedAnswerIsReadFromItsInstruction() {
    assertThat(onTopic(REQUEST, "The browser checks the chain to a trusted root.").extended())
        .isTrue();
    assertThat(onTopic("What is the capital of Australia?", "Canberra, chosen in 1908.").extended())
        .isFalse();
  }

  /** Through the model: sentences of filler sit far from the request and bring no words. */
  @Test
  void fillerBringsNoWordsOfItsOwn() {
    String thin = "The browser checks the chain up to a trusted root.";
    String padded =
        thin
            + " As mentioned above, this matters a great deal. Everyone should know this, since it"
            + " comes up often in everyday life.";
    assertThat(
            OwnContent.of(REQUEST, Closeness.measure(REQUEST, padded, true, new Model.Memo()))
                .words())
        .isCloseTo(
            OwnContent.of(REQUEST, Closeness.measure(REQUEST, thin, true, new Model.Memo()))
                .words(),
            within(1e-6));
  }

  @Test
  void aVagueSentenceSaysNothingOfItsOwnWhateverDressesIt() {
    OwnContent own =
        onTopic(
            REQUEST,
            "It depends on many factors, because of certain reasons such as various details."
                + " The browser checks the chain to a trusted root.");
    assertThat(own.distinct()).isEqualTo(4); // checks chain trusted root
    // One sentence alone is too little to call vague, as for Substance.
    assertThat(onTopic(REQUEST, "It depends on many factors, such as the chain.").distinct())
        .isPositive();
  }

  @Test
  void aRequestToReworkItsOwnTextIsExempt() {
    for (String rework :
        List.of(
            "Paraphrase the following sentence: he is an excellent student.",
            "Please summarize this article: ...",
            "Make this more punchy: Get 1 guide every Sunday.")) {
      assertThat(onTopic(rework, "x").exemptBecause())
          .as(rework)
          .isEqualTo("the request asks for its own text reworked");
    }
    assertThat(onTopic("Explain why people summarize articles.", "x").exemptBecause()).isNull();
    assertThat(onTopic(REQUEST, "x").exemptBecause()).isNull();
  }

  @Test
  void aRequestForWordsPickedOutOfItsOwnTextIsExemptAndNoRewrite() {
    for (String pick :
        List.of(
            "Extract five keywords from the text.\n\nNatural language processing is ...",
            "Please List the key words from the following job requirements: ...",
            "Choose the three most important keywords from the given text. Text: ...",
            "Extract all the place names from the paragraph. The 2022 FIFA World Cup ...",
            "Identify the companies and key dates mentioned in the contract clause below.",
            "Given the following records of stock prices, extract the highest and lowest closing"
                + " prices for each month. Date,Open,High,Low,Close ...",
            "Create 10 keyword tuples summarizing this text: \"The coach has been ...\"",
            "Identify the countries, their capitals, and the languages spoken in the following"
                + " sentences. Output in JSON format.")) {
      assertThat(onTopic(pick, "x").exemptBecause())
          .as(pick)
          .isEqualTo("the request asks for words picked out of its own text");
      // Its words given back are the work, not a part left undone as in a rewrite.
      assertThat(OwnContent.rewritesItsOwnText(pick)).as(pick).isFalse();
    }
    for (String notPicking :
        List.of(
            "Write an essay on how capitalists extract surplus value from the workers.",
            "List a few popular songs from the given album.",
            "Find central ideas or themes in the provided text.",
            "Write a product description; use these keywords: silver, pendant.")) {
      assertThat(OwnContent.picksFromItsOwnText(notPicking)).as(notPicking).isFalse();
    }
    assertThat(OwnContent.rewritesItsOwnText("Rewrite this: he go to school.")).isTrue();
  }

  @Test
  void aRequestToImproveATextItHandsOverIsARework() {
    String text =
        "\n\nPhysics-based three-dimensional modeling, together with data-driven deep learning,"
            + " can be successfully exploited to extract knowledge to aid drug design and protein"
            + " engineering, and a huge number of interfaces are available as coordinate files.";
    for (String improve :
        List.of(
            "please improve the following text." + text,
            "Improve the quality of the following text." + text,
            "polish the paper below." + text,
            "refine this text for a scientific paper:" + text,
            "can you improve this message:" + text,
            "Could you help me to polish this abstract:" + text,
            "revise this:" + text)) {
      assertThat(onTopic(improve, "x").exemptBecause())
          .as(improve)
          .isEqualTo("the request asks for its own text reworked");
      assertThat(OwnContent.rewritesItsOwnText(improve)).as(improve).isTrue();
    }
    // Without a text to rework, "improve" asks for advice, and the answer for words of its own.
    for (String advice :
        List.of(
            "Improve my sleep: what should I change in my evening routine?",
            "Can you help me improve my public speaking?")) {
      assertThat(onTopic(advice, "x").exemptBecause()).as(advice).isNull();
      assertThat(OwnContent.rewritesItsOwnText(advice)).as(advice).isFalse();
    }
  }

  /**
   * "Summarise", "shorten" or "paraphrase" rework a text only when the request hands one over: "
   * Summarise the arguments for and against a four-day week" gives none, and a vague answer to it
   * scored 99.9, exempt from saying anything of its own.
   */
  @Test
  void aReworkVerbWithNoTextHandedOverAsksForSomethingNew() {
    for (String fresh :
        List.of(
            "Summarise the arguments for and against a four-day week.",
            "Summarize the causes of the First World War",
            "Paraphrase the main ideas of stoicism for a teenager.")) {
      assertThat(onTopic(fresh, "x").exemptBecause()).as(fresh).isNull();
      assertThat(OwnContent.reworksItsOwnText(fresh)).as(fresh).isFalse();
    }
    for (String handed :
        List.of(
            "Summarize the following post.\n\nWe moved in last May and the heating failed twice.",
            "Summarise this: the meeting moved to Tuesday.",
            "Paraphrase \"the cat sat on the mat\" in formal English.",
            "Shorten this email to two lines")) {
      assertThat(OwnContent.reworksItsOwnText(handed)).as(handed).isTrue();
    }
  }

  @Test
  void aRequestForAShortAnswerIsExempt() {
    for (String brief :
        List.of(
            "Name two countries that use the Euro. Answer in one word each.",
            "Describe photosynthesis briefly.",
            "Is the Earth flat? Answer yes or no.",
            "Summarise the plot in 20 words.",
            "Give me a short answer: what is TLS?")) {
      assertThat(onTopic("Tell me. " + brief, "x").exemptBecause())
          .as(brief)
          .isEqualTo("the request asks for a short answer");
    }
    assertThat(onTopic("Write a short story about a lighthouse.", "x").exemptBecause()).isNull();
  }

  /**
   * "A number", "a line" or "a sentence" asks for a short answer only as what the answer is to be
   * ("answer with a single number", "in one sentence"), and only in the request's instruction, not
   * in the text it hands over.
   */
  @Test
  void aShortAnswerIsAskedForOnlyByTheInstructionAndAsWhatTheAnswerIsToBe() {
    for (String brief :
        List.of(
            "Please answer with a single word what each row is.",
            "Can you summarize the bible in one sentence?",
            "Write a sentence explaining how eating healthy helps.",
            "Output should be a single sentence.",
            "Combine the two sentences into a single sentence.")) {
      assertThat(OwnContent.asksForAShortAnswer(brief)).as(brief).isTrue();
    }
    for (String notBrief :
        List.of(
            "When a number is divided by 10, the remainder is 4. What is the remainder when twice"
                + " the number is divided by 4?",
            "Return the results as a CSV string, with one line allocated for each month.",
            "If the endpoints of a line segment are (2, -2) and (10, 4), what is its length?",
            "Tell me a joke that involves a word-play with the word rain.",
            "Reply to this post:\n\nFor a number of reasons, I kept my brief notes short and my"
                + " concise answers shorter, which is how I have always written to friends and"
                + " family, and now my manager says my reports leave out what people need.")) {
      assertThat(OwnContent.asksForAShortAnswer(notBrief)).as(notBrief).isFalse();
    }
  }
}
