package dev.asa.evaluators.offline;

import dev.asa.evaluators.embedding.Calibration;
import dev.asa.evaluators.text.Sentences;
import dev.asa.evaluators.text.Structure;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Surface signals of how a text is written, and the score made of them. They say whether a text is
 * readable, laid out and free of repetition; not whether it is right, well argued or in the right
 * register, which needs a judge.
 *
 * <p>The score is a weighted mean of four parts, each 0 to 100:
 *
 * <ul>
 *   <li>ease (weight 0.25): Flesch reading ease 20 to 75 scores 100 (plain to technical prose),
 *       falling linearly to 0 at -20 (impenetrable) and at 115 (a list of one-syllable words);
 *   <li>sentence length (0.25): 8 to 25 words a sentence scores 100, falling to 0 at 2 and at 50;
 *   <li>layout (0.2): the blocks a reader sees (paragraphs, list items, headings) against one per
 *       180 words, capped at 100; left out of the mean for texts under 120 words, where one
 *       paragraph is right. A list's items count: an introduction and six numbered items written
 *       without blank lines between them had been one paragraph of 316 words, half marks, though a
 *       reader sees seven blocks (FairEval +1 pair, Auto-J +2, the corpus and LLMEval² unchanged);
 *   <li>repetition (0.3): repeated sentences up to 8% score 100, falling to 0 at 40%; repeated word
 *       three-grams the same, with an allowance for length ({@link #trigramAllowance}).
 * </ul>
 *
 * @param readability sentence, word and syllable counts
 * @param structure paragraphs, headings, list items
 * @param repetition repeated sentences and three-grams
 * @param words all the text's words, list items included
 */
record Writing(Readability readability, Structure structure, Repetition repetition, int words) {

  static final int LAYOUT_MIN_WORDS = 120;
  static final int WORDS_PER_PARAGRAPH = 180;

  static Writing of(String text) {
    return new Writing(
        Readability.of(text), Structure.of(text), Repetition.of(text), Sentences.wordCount(text));
  }

  double ease() {
    double f = readability.fleschReadingEase();
    return f < 20 ? band(f, -20, 20) : 100 - band(f, 75, 115);
  }

  double sentenceLength() {
    double a = readability.averageSentenceLength();
    return a < 8 ? band(a, 2, 8) : 100 - band(a, 25, 50);
  }

  /** Null when the text is too short for layout to matter. */
  Double layout() {
    if (words < LAYOUT_MIN_WORDS) {
      return null;
    }
    double expected = Math.ceil((double) words / WORDS_PER_PARAGRAPH);
    int blocks = structure.paragraphs() + structure.listItems() + structure.headings();
    return 100 * Math.min(1, blocks / expected);
  }

  /** Repetition, repeated sentences or three-grams, scores 100 up to this percentage. */
  static final double REPETITION_FULL = 8;

  /** Repetition scores 0 from this percentage. */
  static final double REPETITION_ZERO = 40;

  /** Past this many words, longer prose is allowed more repeated three-grams. */
  static final int ALLOWANCE_FROM_WORDS = 200;

  /** Percentage points of repeated three-grams allowed for each 100 words past that. */
  static final double ALLOWANCE_PER_100_WORDS = 1.5;

  /** The allowance at most, reached at 1,000 words. */
  static final double ALLOWANCE_MAX = 12;

  /**
   * How many more percentage points of repeated three-grams the text is allowed for its length.
   * Longer prose reuses more phrases without saying anything twice ("the certificate chain", "as
   * well as", a product's name): over the 2,038 answers of Auto-J's pairs the median share grows
   * from 3% at 100 to 200 words to 6% at 200 to 300, 10% at 500 and 14% at 600, so a fixed 8%
   * marked a long answer down for its length alone. Repeated sentences get no allowance: a
   * paragraph said twice is repetition at any length. Measured with {@code asa judge-eval}: the
   * development corpus unchanged in every category, Auto-J 59.4% to 60.2% (both halves up); 3
   * points per 100 words up to 20 measured the same.
   */
  double trigramAllowance() {
    return Math.min(
        ALLOWANCE_MAX, ALLOWANCE_PER_100_WORDS * Math.max(0, words - ALLOWANCE_FROM_WORDS) / 100.0);
  }

  double repetitionScore() {
    double allowance = trigramAllowance();
    double sentences =
        band(100 * repetition.repeatedSentenceShare(), REPETITION_FULL, REPETITION_ZERO);
    double trigrams =
        band(
            100 * repetition.repeatedTrigramShare(),
            REPETITION_FULL + allowance,
            REPETITION_ZERO + allowance);
    return 100 - Math.max(sentences, trigrams);
  }

  double score() {
    double sum = 0.3 * repetitionScore();
    double weight = 0.3;
    if (readability.hasProse()) {
      sum += 0.25 * ease() + 0.25 * sentenceLength();
      weight += 0.5;
    }
    Double layout = layout();
    if (layout != null) {
      sum += 0.2 * layout;
      weight += 0.2;
    }
    return sum / weight;
  }

  /** Linear 0 at {@code lo} to 100 at {@code hi}, clamped. */
  private static double band(double x, double lo, double hi) {
    return 100 * Calibration.ramp(x, lo, hi);
  }

  /** Each signal with its value and its part score. */
  String describe() {
    List<String> parts = new ArrayList<>();
    if (readability.hasProse()) {
      parts.add(
          String.format(
              Locale.ROOT,
              "Flesch reading ease %.0f (score %.0f; 20-75 is full marks)",
              readability.fleschReadingEase(),
              ease()));
      parts.add(
          String.format(
              Locale.ROOT,
              "%.1f words a sentence over %d sentences (score %.0f; 8-25 is full marks)",
              readability.averageSentenceLength(),
              readability.sentences(),
              sentenceLength()));
    } else {
      parts.add(
          "no prose to read, only short list items: reading ease and sentence length not scored");
    }
    if (readability.listItems() > 0 && readability.hasProse()) {
      parts.add(readability.listItems() + " short list items left out of reading ease");
    }
    Double layout = layout();
    String shape =
        structure.paragraphs()
            + " paragraphs, "
            + structure.headings()
            + " headings, "
            + structure.listItems()
            + " list items";
    parts.add(
        layout == null
            ? shape + " (layout not scored under " + LAYOUT_MIN_WORDS + " words)"
            : String.format(
                Locale.ROOT,
                "%s (layout score %.0f; a paragraph, list item or heading per %d words expected)",
                shape,
                layout,
                WORDS_PER_PARAGRAPH));
    parts.add(
        String.format(
            Locale.ROOT,
            "repetition %.1f%%: %d of %d sentences repeated, %.1f%% of word three-grams seen before (score %.0f; up to %.0f%% is full marks%s)",
            repetition.ratePercent(),
            repetition.repeatedSentences(),
            repetition.sentences(),
            100 * repetition.repeatedTrigramShare(),
            repetitionScore(),
            REPETITION_FULL,
            trigramAllowance() > 0
                ? String.format(
                    Locale.ROOT,
                    ", three-grams %.1f%% at %d words",
                    REPETITION_FULL + trigramAllowance(),
                    words)
                : ""));
    return String.join("; ", parts);
  }
}
