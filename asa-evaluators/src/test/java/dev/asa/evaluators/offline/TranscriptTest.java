package dev.asa.evaluators.offline;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** Where an answer starts writing the asker's next turn, by hand-checked cases. */
class TranscriptTest {

  private static final String REQUEST = "Explain how a browser validates a certificate.";

  @Test
  void theAnswerEndsWhereTheAskersNextTurnBegins() {
    String answer = "The browser builds a chain to a trusted root.";
    for (String turn :
        new String[] {
          "### Human: And what is OCSP stapling?",
          "## User: more please",
          "### Instruction: Explain OCSP.",
          "Human: What if it expired?",
          "USER: What if it expired?",
          "<|user|>\nWhat if it expired?",
          "<|im_start|>user\nWhat if it expired?",
          "[INST] What if it expired? [/INST]",
        }) {
      Transcript t =
          Transcript.of(REQUEST, answer + "\n\n" + turn + "\n\n### Assistant: It fails.");
      assertThat(t.answer()).as(turn).isEqualTo(answer);
      assertThat(t.madeUpTurn()).as(turn).isEqualTo(turn.lines().findFirst().orElseThrow().strip());
    }
    // A leading label for the one answering is no turn of the asker's.
    Transcript labelled = Transcript.of(REQUEST, "### Assistant: " + answer);
    assertThat(labelled.cut()).isFalse();
    // Opening with the asker's turn, it is all made up.
    assertThat(Transcript.of(REQUEST, "### Human: Why?\n### Assistant: Because.").answer())
        .isEmpty();
  }

  @Test
  void ordinaryLabelsCodeAndConversationsAskedForAreLeftAlone() {
    String[] ordinary = {
      "Log in as follows.\nUser: admin\nPassword: the one you chose",
      "Question: what is a root?\nAnswer: a self-signed certificate.",
      "Example:\n```\nHuman: hi\n### Human: hi\n```\nThat is the format.",
      "The human: a being who reads.", // not at a line's start as a label
    };
    for (String text : ordinary) {
      assertThat(Transcript.of(REQUEST, text)).isEqualTo(new Transcript(text, null));
    }
    String script = "Human: Hello, robot.\nRobot: Hello, human.";
    for (String request :
        new String[] {
          "Write a dialogue between a human and a robot.",
          "Write a short script for a play.",
          "Continue this conversation.",
          "Role-play a support agent.",
          "Reply in the form Human: ... AI: ...",
        }) {
      assertThat(Transcript.of(request, script).cut()).as(request).isFalse();
    }
  }
}
