package dev.asa.evaluators.offline;

import dev.asa.evaluators.text.Sentences;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * How much of a text says again what it already said.
 *
 * @param sentences sentences counted
 * @param repeatedSentences sentences identical (ignoring case, spacing and punctuation) to an
 *     earlier one
 * @param trigrams word three-grams counted
 * @param repeatedTrigrams three-grams that already occurred earlier in the text
 */
record Repetition(int sentences, int repeatedSentences, int trigrams, int repeatedTrigrams) {

  static Repetition of(String text) {
    List<String> sentences = Sentences.split(text);
    Set<String> seen = new HashSet<>();
    int repeatedSentences = 0;
    for (String s : sentences) {
      String key = normalise(s);
      // Very short lines ("Yes.", a table rule) repeat innocently.
      if (key.split(" ").length >= 4 && !seen.add(key)) {
        repeatedSentences++;
      }
    }
    List<String> words = Sentences.words(text.toLowerCase(Locale.ROOT));
    Set<String> grams = new HashSet<>();
    int trigrams = 0;
    int repeatedTrigrams = 0;
    for (int i = 0; i + 2 < words.size(); i++) {
      trigrams++;
      if (!grams.add(words.get(i) + " " + words.get(i + 1) + " " + words.get(i + 2))) {
        repeatedTrigrams++;
      }
    }
    return new Repetition(sentences.size(), repeatedSentences, trigrams, repeatedTrigrams);
  }

  private static String normalise(String sentence) {
    return String.join(" ", Sentences.words(sentence.toLowerCase(Locale.ROOT)));
  }

  /** Share of sentences that repeat an earlier one, 0 to 1. */
  double repeatedSentenceShare() {
    return sentences == 0 ? 0 : (double) repeatedSentences / sentences;
  }

  /**
   * Share of word three-grams seen earlier in the text, 0 to 1. Ordinary prose sits near 0.02 to
   * 0.08.
   */
  double repeatedTrigramShare() {
    return trigrams == 0 ? 0 : (double) repeatedTrigrams / trigrams;
  }

  /** The repetition rate reported: the larger of the two shares, as a percentage. */
  double ratePercent() {
    return 100 * Math.max(repeatedSentenceShare(), repeatedTrigramShare());
  }
}
