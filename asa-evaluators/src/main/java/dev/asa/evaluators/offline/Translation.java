package dev.asa.evaluators.offline;

import dev.asa.evaluators.text.Sentences;

/**
 * A translation request split into its instruction (the first paragraph) and the source text (the
 * rest). all-MiniLM-L6-v2 reads English: a French sentence and its English translation score barely
 * above unrelated text, so a translation's completeness is measured without it, by length against
 * the source and by the source's numbers and names found in the translation.
 *
 * @param instruction the first paragraph of the request
 * @param source the text to translate
 */
record Translation(String instruction, String source) {

  /**
   * A translation into English runs at about 0.85 to 1.1 of the words of a Romance or Germanic
   * source; below 0.7 of them, something was left out. Credit grows linearly up to that ratio.
   */
  static final double FULL_LENGTH_RATIO = 0.7;

  /** Null when the request has no separate source text (a single paragraph). */
  static Translation of(String request) {
    String[] blocks = request.strip().split("\\n\\s*\\n", 2);
    if (blocks.length < 2 || Sentences.wordCount(blocks[1]) < 5) {
      return null;
    }
    return new Translation(blocks[0].strip(), blocks[1].strip());
  }

  double lengthRatio(String deliverable) {
    return (double) Sentences.wordCount(deliverable) / Math.max(1, Sentences.wordCount(source));
  }

  double lengthCredit(String deliverable) {
    return Math.min(1, lengthRatio(deliverable) / FULL_LENGTH_RATIO);
  }

  KeyTerms terms(String deliverable) {
    // Sentence by sentence, so that a capital opening a sentence is not taken for a name.
    return KeyTerms.of(Sentences.split(source), deliverable);
  }
}
