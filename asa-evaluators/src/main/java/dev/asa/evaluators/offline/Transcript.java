package dev.asa.evaluators.offline;

import dev.asa.evaluators.text.CodeFences;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * An answer that goes on to write the conversation's next turn: a question the client never asked
 * ("### Human: And what is OCSP stapling?"), then its own answer to it. A language model continuing
 * its chat transcript does this, and it is no part of the work asked: the client asked one thing.
 * Read as the answer, the made-up turns added on-topic words and raised a plain answer about HTTPS
 * certificates from 85.0 to 90.8, so a provider could pad any answer with questions of its own
 * choosing. So everything from the first line that opens a turn of the one asking is left out, and
 * the evidence quotes that line.
 *
 * <p>Only the labels chat transcripts use for the asker are read as a turn: "### Human:", "###
 * User:", "### Instruction:" and "### Input:" (one to four #), a bare "Human:" or "USER:", and the
 * chat templates' {@code <|user|>}, {@code <|im_start|>user} and {@code [INST]}. A bare "User:" or
 * "Question:" is ordinary text (a login form, an FAQ), and so is any label inside a fenced code
 * block. Nor is anything cut when the request itself asks for a dialogue, a script, an interview or
 * a role-play, or writes such labels: then the turns are the work.
 *
 * @param answer the answer up to the made-up turn, or the whole text when there is none
 * @param madeUpTurn the line that opens the made-up turn, null when there is none
 */
record Transcript(String answer, String madeUpTurn) {

  /** A line opening a turn of the one asking, as chat transcripts label it. */
  private static final Pattern ASKER_TURN =
      Pattern.compile(
          "^[ \\t]*(?:#{1,4}[ \\t]*(?:Human|User|USER|Instruction|Input)[ \\t]*:"
              + "|(?:Human|HUMAN|USER)[ \\t]*:"
              + "|<\\|(?:user|im_start\\|>[ \\t]*user)\\|?>?"
              + "|\\[INST\\])");

  /** A request whose work is itself a conversation, or that writes the labels it is made of. */
  private static final Pattern ASKS_FOR_TURNS =
      Pattern.compile(
          "(?i)\\b(?:dialog(?:ue)?s?|conversations?|chats?|chatbots?|scripts?|transcripts?"
              + "|interviews?|role-?plays?|exchanges?|screenplays?|skits?)\\b"
              + "|(?:Human|User|USER|Instruction|Input)[ \\t]*:|<\\||\\[INST\\]");

  static Transcript of(String request, String content) {
    if (content.indexOf(':') < 0 && content.indexOf('<') < 0 && content.indexOf('[') < 0) {
      return new Transcript(content, null);
    }
    if (ASKS_FOR_TURNS.matcher(request).find()) {
      return new Transcript(content, null);
    }
    boolean inCode = false;
    int at = 0;
    for (String line : content.split("\n", -1)) {
      boolean fence = CodeFences.isFence(line);
      inCode ^= fence;
      if (!fence && !inCode) {
        Matcher turn = ASKER_TURN.matcher(line);
        if (turn.find()) {
          return new Transcript(content.substring(0, at).strip(), line.strip());
        }
      }
      at += line.length() + 1;
    }
    return new Transcript(content, null);
  }

  boolean cut() {
    return madeUpTurn != null;
  }
}
