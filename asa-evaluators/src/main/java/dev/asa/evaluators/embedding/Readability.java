package dev.asa.evaluators.embedding;

import java.util.List;
import java.util.Locale;

/**
 * Flesch reading ease and sentence length, from counts of sentences, words and syllables.
 *
 * <p>Syllables are estimated the usual way (runs of vowels, less a silent final "e", at least one a
 * word), so the ease is an estimate too; it is meant for English prose, and the evidence says so.
 */
record Readability(int sentences, int words, int syllables) {

  static Readability of(String text) {
    List<String> sentences = Sentences.split(text);
    int words = 0;
    int syllables = 0;
    for (String w : Sentences.words(text)) {
      if (w.chars().anyMatch(Character::isLetter)) {
        words++;
        syllables += syllables(w);
      }
    }
    return new Readability(sentences.size(), words, syllables);
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
