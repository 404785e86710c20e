package dev.asa.evaluators.offline;

import dev.asa.evaluators.text.Sentences;
import java.util.HashSet;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The request's content words, by stem ({@link ScoredText#stem}): the words a keyword stuffer
 * weaves into an answer, and the words an answer's own content is counted beyond ({@link
 * OwnContent}). Function words ({@link ScoredText#small}) are never among them; the request's own
 * are kept apart, only to read a phrase without every word the request could have lent it ({@link
 * #everyWordTakenOutOf}).
 */
final class RequestWords {

  private final Set<String> stems;
  private final Set<String> smallWords;
  private final boolean handsOverItsText;

  private RequestWords(Set<String> stems, Set<String> smallWords, boolean handsOverItsText) {
    this.stems = stems;
    this.smallWords = smallWords;
    this.handsOverItsText = handsOverItsText;
  }

  /**
   * A request that hands over a text ({@link Material}) and asks for a summary of it: "Can you
   * please write a short note summarizing the research paper titled ...", then the paper. A summary
   * is made of its text's words by design.
   */
  private static final Pattern SUMMARY =
      Pattern.compile(
          "(?i)\\b(?:summar(?:y|ies|i[sz]e[sd]?|i[sz]ing)|sum up|tl;?dr|key points|main points"
              + "|main findings)\\b");

  /**
   * Whether the request hands over a text and asks for a summary of it, or for words picked out of
   * it ({@link OwnContent#picksFromItsOwnText}: "Identify the countries, their capitals and the
   * languages spoken in the following sentences. Output in JSON format."). Either answer is made of
   * the text's words by design.
   */
  static boolean summarizes(String request) {
    Material m = Material.of(request);
    return m.present()
        && (SUMMARY.matcher(m.instruction()).find() || OwnContent.picksFromItsOwnText(request));
  }

  /**
   * The words an answer is held not to give back as its own: the request's, or, when the request
   * hands over a text to summarize ({@link #summarizes}), its instruction's alone. Read against the
   * whole request, a faithful summary's sentences were filler and it said "little of its own"
   * (completeness 5 for a 258-word summary of a paper).
   */
  static RequestWords ofInstruction(String request) {
    if (!summarizes(request)) {
      return of(request);
    }
    RequestWords words = of(Material.of(request).instruction());
    return new RequestWords(words.stems, words.smallWords, OwnContent.reworksItsOwnText(request));
  }

  static RequestWords of(String request) {
    Set<String> stems = new HashSet<>();
    Set<String> smallWords = new HashSet<>();
    for (String word : Sentences.words(request)) {
      String lower = word.toLowerCase(Locale.ROOT);
      if (ScoredText.small(lower)) {
        smallWords.add(lower);
      } else {
        stems.add(ScoredText.stem(lower));
      }
    }
    return new RequestWords(
        Set.copyOf(stems), Set.copyOf(smallWords), OwnContent.reworksItsOwnText(request));
  }

  /**
   * Whether the request hands over its own text to rework ("paraphrase this ..."): an answer made
   * of its words is then the work, not a restatement.
   */
  boolean handsOverItsText() {
    return handsOverItsText;
  }

  /** Whether a word of the answer is a content word of the request's. */
  boolean contains(String word) {
    String lower = word.toLowerCase(Locale.ROOT);
    return !ScoredText.small(lower) && stems.contains(ScoredText.stem(lower));
  }

  /**
   * The text with the request's content words taken out, each with the space before it; the rest,
   * punctuation included, as it was.
   */
  String takenOutOf(String text) {
    return takenOutOf(text, false);
  }

  /**
   * As {@link #takenOutOf(String)}, with the request's small words ("how", "do", "in") taken out
   * too: what a phrase of the answer reads like without anything the request could have lent it.
   */
  String everyWordTakenOutOf(String text) {
    return takenOutOf(text, true);
  }

  private String takenOutOf(String text, boolean smallToo) {
    StringBuilder out = new StringBuilder(text.length());
    Matcher m = Sentences.WORD.matcher(text);
    int from = 0;
    while (m.find()) {
      if (contains(m.group())
          || (smallToo && smallWords.contains(m.group().toLowerCase(Locale.ROOT)))) {
        int start = m.start();
        while (start > from && text.charAt(start - 1) == ' ') {
          start--;
        }
        out.append(text, from, start);
        from = m.end();
      }
    }
    return out.append(text, from, text.length()).toString().strip();
  }
}
