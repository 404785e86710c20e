package dev.asa.evaluators.offline;

import static org.assertj.core.api.Assertions.assertThat;

import dev.asa.evaluators.embedding.Calibration;
import dev.asa.evaluators.embedding.Model;
import dev.asa.evaluators.text.Sentences;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Which sentences are off the request's topic, and the answer read without them. */
class ClosenessTest {

  private static final String ANSWER =
      "A compressor pumps refrigerant.\n\nAs mentioned above, this matters. The coils shed heat.";

  private static Closeness closeness(double... toRequest) {
    return new Closeness(Sentences.split(ANSWER), toRequest, Map.of(), Map.of(), 0);
  }

  @Test
  void aSentenceAtOrBelowTheLineWhereAPartEarnsNothingIsOffTopic() {
    Closeness c = closeness(0.53, Calibration.PART_ZERO, 0.41);
    assertThat(c.offTopicSentences()).containsExactly("As mentioned above, this matters.");
    assertThat(c.offTopic("A compressor pumps refrigerant.")).isFalse();
    assertThat(c.offTopic("A sentence it never measured.")).isFalse();
  }

  @Test
  void theAnswerWithoutThemKeepsItsLines() {
    assertThat(closeness(0.53, 0.01, 0.41).withoutOffTopic(ANSWER))
        .isEqualTo("A compressor pumps refrigerant.\n\n The coils shed heat.");
  }

  @Test
  void aSentenceTooShortToPlaceIsNeverOffTopic() {
    String answer = "Yes. It builds the chain to a root. Sure.";
    Closeness c =
        new Closeness(
            Sentences.split(answer), new double[] {0.05, 0.6, 0.05}, Map.of(), Map.of(), 0);
    assertThat(c.offTopicSentences()).isEmpty();
    assertThat(c.withoutOffTopic(answer)).isNull();
  }

  @Test
  void noneOrAllOffTopicLeavesNothingToReadAgain() {
    assertThat(closeness(0.53, 0.30, 0.41).withoutOffTopic(ANSWER)).isNull();
    assertThat(closeness(0.01, 0.02, 0.03).withoutOffTopic(ANSWER)).isNull();
  }

  @Test
  void aLongAnswerIsReadForItsFirstSentencesOnly() {
    StringBuilder many = new StringBuilder();
    for (int i = 0; i < Closeness.MAX_SENTENCES + 10; i++) {
      many.append("Sentence number ").append(i).append(" is here. ");
    }
    Closeness c =
        Closeness.measure("Count the sentences.", many.toString(), true, new Model.Memo());
    assertThat(c.sentences()).hasSize(Closeness.MAX_SENTENCES);
    assertThat(c.toRequest()).hasSize(Closeness.MAX_SENTENCES);
    assertThat(List.of(c.sentences().getFirst())).containsExactly("Sentence number 0 is here.");
  }

  @Test
  void aSentenceOnTopicOnlyThroughTheRequestsWordsIsReadWithoutThem() {
    String request = "Explain how a web browser validates an HTTPS server certificate.";
    String written =
        "Sourdough bread needs a lively starter, fed with flour and water before mixing.";
    String woven =
        "Sourdough browser bread needs a lively HTTPS starter, fed with certificate flour and water"
            + " before validates mixing.";
    Closeness c =
        Closeness.measure(
            request, woven + " The browser checks the chain to a root.", true, new Model.Memo());
    assertThat(c.borrowed()).containsOnlyKeys(woven);
    assertThat(c.borrowed().get(woven)).isEqualTo(written);
    assertThat(c.sentences().getFirst()).isEqualTo(written);
    assertThat(c.toRequest()[0]).isLessThanOrEqualTo(Closeness.BORROWED_LINE);
    assertThat(c.read(woven + " Fine.")).isEqualTo(written + " Fine.");
    // Not for a request to rework its own text, whose words the answer is meant to keep.
    assertThat(Closeness.measure(request, woven, false, new Model.Memo()).borrowed()).isEmpty();
  }

  @Test
  void aSentenceMostlyOfTheRequestsWordsIsReadAsWritten() {
    // Mostly the request's words: fewer than eight of its own.
    assertThat(
            Closeness.measure(
                    "Construct a sentence using the words \"effervescence\", \"hesitant\" and"
                        + " \"integrity\".",
                    "The hesitant effervescence of his words gave away his integrity.",
                    true,
                    new Model.Memo())
                .borrowed())
        .isEmpty();
  }

  @Test
  void aListOfNamesIsFoundWholeAndProseIsNoList() {
    String answer =
        "Films by release date:\n- She's Gotta Have It (1986)\n\n- School Daze (1988)\n"
            + "- Do the Right Thing (1989)\nThat is the start.\n1. Only\n2. Two";
    assertThat(Closeness.namedLists(answer))
        .containsExactly(
            List.of(
                "- She's Gotta Have It (1986)",
                "- School Daze (1988)",
                "- Do the Right Thing (1989)"));
    assertThat(
            Closeness.namedLists(
                "- The browser builds a chain up to a root in its store.\n"
                    + "- It checks every signature on the way.\n- It checks the dates."))
        .isEmpty();
  }

  @Test
  void aDeliverableCutIntoManyListsBuysNoMoreThanTwelveModelCalls() {
    String many = "- Red Leicester\n- Comté\n- Emmental\nAnd then:\n".repeat(5_000);
    assertThat(Closeness.namedLists(many)).hasSize(Closeness.MAX_LISTS);
  }

  @Test
  void anItemIsAsCloseAsItsListAndAnOffTopicListsItemsAreOffTopic() {
    Closeness offList = cheeses(0.02);
    assertThat(offList.offTopicItem("1. Red Leicester")).isTrue();
    assertThat(offList.offTopicItem("3. Emmental")).isFalse(); // not in a list: too short to place
    Closeness onList = cheeses(0.5);
    assertThat(onList.offTopicItem("1. Red Leicester")).isFalse();
    assertThat(onList.offTopic("Red Leicester")).isFalse();
  }

  /** Three cheeses, the first placed by a list this close to the request, as line and sentence. */
  private static Closeness cheeses(double listToRequest) {
    List<String> sentences = Sentences.split("1. Red Leicester\n2. Comté\n3. Emmental");
    return new Closeness(
        sentences,
        new double[sentences.size()],
        Map.of(),
        Map.of("1. Red Leicester", listToRequest, "Red Leicester", listToRequest),
        0);
  }
}
