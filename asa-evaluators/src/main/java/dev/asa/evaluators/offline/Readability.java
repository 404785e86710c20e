package dev.asa.evaluators.offline;

import dev.asa.evaluators.text.ListMarkers;
import dev.asa.evaluators.text.Sentences;
import java.util.Locale;

/**
 * Flesch reading ease and sentence length, from counts of sentences, words and syllables.
 *
 * <p>Syllables are estimated the usual way (runs of vowels, less a silent final "e", at least one a
 * word), so the ease is an estimate too; it is meant for English prose, and the evidence says so.
 *
 * <p>Short list items that are not sentences ("2. Neural Networks", "- Flour, 200 g") are left out:
 * a formula for prose reads a list of names as very short, very hard sentences, and would mark down
 * the plainest layout there is. A text that is only such a list has no prose to measure.
 *
 * @param sentences the sentences measured
 * @param words their words
 * @param syllables their syllables
 * @param listItems list items left out as not sentences
 */
record Readability(int sentences, int words, int syllables, int listItems) {

  /**
   * A list item of at most this many words (its number included) and without a full stop is a name,
   * not a sentence.
   */
  static final int LIST_ITEM_WORDS = 8;

  static Readability of(String text) {
    StringBuilder prose = new StringBuilder();
    int listItems = 0;
    for (String line : text.split("\n", -1)) {
      if (isListItem(line.strip())) {
        listItems++;
        prose.append('\n'); // a blank line keeps the sentences on either side apart
      } else {
        prose.append(line).append('\n');
      }
    }
    int sentences = 0;
    int words = 0;
    int syllables = 0;
    for (String sentence : Sentences.split(prose.toString())) {
      int before = words;
      for (String w : Sentences.words(sentence)) {
        if (w.chars().anyMatch(Character::isLetter)) {
          words++;
          syllables += syllables(w);
        }
      }
      sentences += words > before ? 1 : 0; // no word of letters ("42.", "1."): no sentence
    }
    return new Readability(sentences, words, syllables, listItems);
  }

  /** A list item that is a name rather than a sentence: "2. Neural Networks", "- Flour, 200 g". */
  static boolean isListItem(String line) {
    return ListMarkers.LIST_MARKER.matcher(line).find()
        && Sentences.wordCount(line) <= LIST_ITEM_WORDS
        && !line.matches(".*[.!?][\"')\\]]*$");
  }

  /** Whether there is prose to measure: not only list items, not nothing. */
  boolean hasProse() {
    return sentences > 0 && words > 0;
  }

  /**
   * Vowel groups, "y" counting as a vowel after the first letter, less a silent final "e"; at least
   * 1.
   */
  static int syllables(String word) {
    String w = word.toLowerCase(Locale.ROOT).replaceAll("[^a-z]", "");
    if (w.isEmpty()) {
      return 1;
    }
    int groups = 0;
    boolean inVowel = false;
    for (int i = 0; i < w.length(); i++) {
      char c = w.charAt(i);
      boolean vowel = "aeiou".indexOf(c) >= 0 || (c == 'y' && i > 0);
      if (vowel && !inVowel) {
        groups++;
      }
      inVowel = vowel;
    }
    // "make", "rule": the final e is silent; "table", "free": it is not.
    if (w.length() > 2 && w.endsWith("e") && !w.endsWith("le") && !w.endsWith("ee") && groups > 1) {
      groups--;
    }
    return Math.max(1, groups);
  }

  double averageSentenceLength() {
    return sentences == 0 ? 0 : (double) words / sentences;
  }

  /** 206.835 - 1.015 (words / sentences) - 84.6 (syllables / words); 0 for no words. */
  double fleschReadingEase() {
    if (words == 0 || sentences == 0) {
      return 0;
    }
    return 206.835 - 1.015 * words / sentences - 84.6 * syllables / words;
  }
}
