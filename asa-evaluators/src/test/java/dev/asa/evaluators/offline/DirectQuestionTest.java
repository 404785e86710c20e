package dev.asa.evaluators.offline;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Which requests a right one-line answer can settle, and which call for more. */
class DirectQuestionTest {

  @ParameterizedTest
  @ValueSource(
      strings = {
        "What is the capital of Australia?",
        "Who wrote Hamlet?",
        "How many ounces are there in a pint?",
        "How do I reverse a list in Python?",
        "When is the next lunar eclipse?",
        "What does the phrase \"smaller fish to fry\" mean?",
        "Is Canberra the capital of Australia?",
      })
  void aShortQuestionForAFactOrAOneLineHowToIsDirect(String request) {
    assertThat(DirectQuestion.is(request)).isTrue();
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        // a form of work, not a question
        "Explain how a web browser validates an HTTPS server certificate.",
        "Write a short story about a lighthouse keeper.",
        "List three ways to save energy at home.",
        // a question that asks for reasons, a comparison, advice or an account of how
        "Why is the sky blue?",
        "What are the differences between Python and JavaScript?",
        "What are some tips for better sleep?",
        "How does a web browser validate an HTTPS server certificate?",
        "What is the best way to learn a new language?",
        // longer than a line's question, or more than one sentence
        "What would happen to the climate of Europe if the Gulf Stream stopped flowing tomorrow?",
        "I have a list of numbers. How do I reverse it in Python?",
        "What is the capital of Australia?\nAnd of New Zealand?",
        "",
      })
  void anythingThatCallsForMoreThanALineIsNot(String request) {
    assertThat(DirectQuestion.is(request)).isFalse();
  }

  @org.junit.jupiter.api.Test
  void onlyTheInstructionIsRead() {
    String review =
        "The hotel was clean and the staff were friendly, but the room was small, the walls were"
            + " thin, breakfast was cold on both mornings we stayed, and the lift was out of order"
            + " for the whole of our visit, which made the stairs a daily ordeal with our luggage.";
    // The review's many words do not make the question about it one that calls for an essay.
    assertThat(DirectQuestion.is("What is the sentiment of the review below?\n\n" + review))
        .isTrue();
  }
}
