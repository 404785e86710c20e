package dev.asa.evaluators.offline;

import dev.asa.evaluators.text.Sentences;
import java.util.regex.Pattern;

/**
 * Whether a request is a direct question, one a right answer can settle in a sentence: "What is the
 * capital of Australia?", "Who wrote Hamlet?", "How do I reverse a list in Python?". Every other
 * request (an essay, a plan, an explanation, a problem to work through, a role to play) calls for
 * an extended answer, and there people prefer the answer that says more of its own on the topic by
 * far more than any other signal the evaluator measures: so depth ({@link OwnContent#depth}) weighs
 * heavily there and lightly here, where the one-line answer is the right one.
 *
 * <p>Read narrowly, because the cost of each mistake differs: a direct question read as one that
 * calls for more holds a right one-line answer below the pass line; a request for more read as a
 * direct question only lets depth weigh as it did before. So it is a direct question only when its
 * instruction ({@link Material}: not the text it hands over) is one sentence of at most {@value
 * #MAX_WORDS} words, opens as a question ("what is", "who", "how many", "how do I", "is there") and
 * names nothing that asks for more: explaining, describing, comparing, reasons ("why"), advice,
 * ways, steps, examples, opinions, a piece of writing.
 *
 * <p>On the development sets, 63 of Auto-J's 1,019 requests, 32 of the corpus's 1,345, 7 of
 * FairEval's 66 and 2 of LLMEval²'s 200 are read as direct questions. Against heavy depth for every
 * request, simulated on the counts {@code asa judge-eval} recorded: Auto-J 4 pairs fewer right
 * (people there preferred the longer answer to some short how-to questions), FairEval 1 more,
 * LLMBar's Natural 1 more and its adversarial sets 2 more. It is kept for what a verdict means, not
 * for those pairs: a right one-line answer to a direct question passes.
 */
final class DirectQuestion {

  /** A question longer than this asks for more than a line, whatever its words. */
  static final int MAX_WORDS = 12;

  /** How a direct question opens. */
  private static final Pattern OPENS =
      Pattern.compile(
          "^\\W*(?:who|whom|whose|when|where|which"
              + "|what(?:'s|\\s+is|\\s+was|\\s+are|\\s+were|\\s+does|\\s+do|\\s+did)?"
              + "|how\\s+(?:many|much|old|long|far|tall|big|often|do\\s+i|do\\s+you|can\\s+i|to)"
              + "|is|are|was|were|does|do|did|can|could|will|has|have)\\b",
          Pattern.CASE_INSENSITIVE);

  /**
   * Words that ask for more than a line: an explanation, a comparison, advice, a piece of writing.
   */
  private static final Pattern ASKS_FOR_MORE =
      Pattern.compile(
          "\\b(?:explain\\w*|describe\\w*|discuss\\w*|elaborate|why|compare|contrast|differ\\w*"
              + "|analy[sz]\\w*|essay|story|poem|blog|article|letter|e-?mail|speech|script|plan"
              + "|guide|tips|advice|ways|steps|examples?|pros|cons|outline|detail\\w*|write"
              + "|compose|create|draft|develop|design|imagine|pretend|suggest\\w*|recommend\\w*"
              + "|brainstorm|ideas|evaluate|argue|persuade|convince|summari[sz]e|help|some|best"
              + "|work|works|affect|effect|impact|benefits?|advantages?|disadvantages?|improve"
              + "|strateg\\w*|should|would|think|opinion|feel)\\b",
          Pattern.CASE_INSENSITIVE);

  /**
   * The end of a sentence: a stop followed by a space or the end. Not {@link Sentences#split},
   * which ends a sentence only before a capital: a question typed in lower case ("what is x? and
   * y?") is two questions all the same.
   */
  private static final Pattern SENTENCE_END = Pattern.compile("[.?!](?:\\s|$)");

  private DirectQuestion() {}

  /** Whether the request's instruction is a direct question (see the class comment). */
  static boolean is(String request) {
    String instruction = Material.of(request).instruction().strip();
    if (instruction.isEmpty() || instruction.contains("\n")) {
      return false;
    }
    if (Sentences.wordCount(instruction) > MAX_WORDS) {
      return false;
    }
    if (SENTENCE_END.matcher(instruction).results().count() > 1) {
      return false;
    }
    return OPENS.matcher(instruction).find() && !ASKS_FOR_MORE.matcher(instruction).find();
  }
}
