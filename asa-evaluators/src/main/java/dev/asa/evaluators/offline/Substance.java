package dev.asa.evaluators.offline;

import dev.asa.evaluators.text.Sentences;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Substance against vagueness: among the sentences that are either concrete (a number, a name,
 * code, an example, a definition) or vague (a hedge or filler, "various", "in some ways", "it
 * depends", "basically", with nothing concrete), the share that are vague. A vague paragraph can
 * sit as close to the request in embedding space as a precise one, and similarity alone then ranks
 * them level.
 *
 * <p>Filler is vague too: a sentence with no word beyond the request's, function words and generic
 * ones ("The validity period is something that browsers may look at in some situations."). Each
 * part of a request restated in such a sentence lifted the vague HTTPS paragraph from 32.6
 * to 73.1, a pass; it now stays at 33, and at 61 when one sentence slips in a real word
 * ("website"). Measured on the development corpus: PandaLM unchanged (one pair each way), all 1,345
 * pairs one fewer right (LLMBar's GPTOut +2, GPTInst -2, Neighbor -1).
 *
 * <p>Plain sentences, neither, do not count either way: were they in the denominator, padding a
 * vague answer with bland sentences would dilute its vagueness and raise its score.
 *
 * <p>Only vagueness costs; concreteness earns nothing by itself. Measured on the development
 * corpus, rewarding concrete sentences picked the wrong answer of a pair more often than the right
 * one (84 right, 131 wrong: the adversarial answers are richly specific about the wrong thing),
 * while vague sentences marked the worse answer (29 right, 16 wrong); and a reward for numbers and
 * names would be one more thing to stuff. A concrete marker only keeps a sentence from counting as
 * vague, and a number alone does not keep a hedged one: two numbers added to the test topics' vague
 * sentences raised their score by up to 7 points, and reading them so changed no pair of the
 * corpus.
 *
 * @param sentences sentences counted
 * @param concrete sentences with at least one concrete marker
 * @param vague sentences with a hedge or filler phrase and no concrete marker
 */
record Substance(int sentences, int concrete, int vague) {

  /**
   * Concrete sentences the share of vague ones is read as if the answer had more: one hedge beside
   * nothing concrete is a sentence, not proof of a vague answer. Without it, fifteen sentences of
   * product copy, none with a number or a name and three with "a variety of", were wholly vague and
   * kept a quarter of their completeness (Auto-J, 22.3), as much as an answer of nothing but
   * hedges; with it, three vague sentences keep 44% and one 63%, and a fixed number, unlike a share
   * of the plain sentences, cannot be raised by padding. Measured with {@code asa judge-eval}: the
   * corpus +2 pairs (GPTInst, Neighbor), Auto-J +1 (3 gained, 2 lost), FairEval and LLMEval²
   * unchanged; at 2, FairEval and LLMEval² one pair each lower.
   */
  static final double BENEFIT_OF_DOUBT = 1;

  private static final Pattern NUMBER = Pattern.compile("(?<![\\p{L}])\\d+(?:[.,:]\\d+)*");

  /** Where a sentence may start inside what the splitter left as one. */
  private static final Pattern STOP = Pattern.compile("(?<=[.!?])\\s+");

  private static final Pattern CODE = Pattern.compile("`[^`]+`|[A-Za-z_]+\\([^)]*\\)|\\w+_\\w+");
  private static final Pattern EXAMPLE =
      Pattern.compile(
          "(?i)\\b(?:for example|for instance|e\\.g\\.|such as|namely|i\\.e\\.|specifically|is defined as|refers to|means that|consists of|because|therefore)\\b");

  /**
   * Hedges and filler phrases. Two are read literally in the places they are no hedge: "some ways"
   * after "are" or "include", or in a sentence ending with a colon ("Here are some ways X shapes
   * Y:"), which a list is about to name (the colon is what is left when "are" is one of the
   * request's words, which the sentence is read without); and "more or less" after "become"
   * ("traits become more or less common"), a comparison.
   */
  private static final Pattern HEDGE =
      Pattern.compile(
          "(?i)\\b(?:various|variety of|in (?:some|many|several|different) ways|(?<!\\b(?:are|include|includes|including)\\s)some (?:things|ways|aspects)(?![^.!?]*:\\s*$)|certain (?:things|aspects|ways)|it depends|depending on many|things like that|and so on|etc\\b|basically|generally speaking|in general|kind of|sort of|a lot of things|many things|stuff\\b|somehow|(?<!\\bbec[oa]me\\s|\\bbecomes\\s|\\bbecoming\\s)more or less|it is important to note|it is worth noting|plays? an? (?:important|key|crucial) role|there are many|in today's world|at the end of the day|needless to say)");

  /**
   * Words a sentence needs before it can be filler: a label ("Step 2:") and a bare answer ("Yes.",
   * "Paris.") are not.
   */
  static final int FILLER_WORDS = 3;

  /** Below this many sentences there is too little to count; the signal is not used. */
  static final int MIN_SENTENCES = 2;

  /**
   * @param asked the request's words: each sentence is read without them, so that a name or a
   *     number the request gave is not the answer's substance, and words of the request woven into
   *     a hedge ("in a various colour ways") neither hide it nor pass for names
   */
  static Substance of(String text, RequestWords asked) {
    List<String> sentences = Sentences.split(text);
    int concrete = 0;
    int vague = 0;
    for (int i = 0; i < sentences.size(); i++) {
      String written = sentences.get(i);
      // "Here are some ways X shapes Y:" before the list of them introduces it: made of the
      // request's words as it is, it is no filler. Only a sentence with one colon, at its end,
      // that is no list item itself, right before one: each filler sentence passed off as an
      // introduction needs a list item after it, read for substance in its turn, and lines of
      // filler run together ("...news:\n...news:") are no introduction.
      String stripped = written.strip();
      boolean introduces =
          stripped.indexOf(':') == stripped.length() - 1
              && !LIST_MARKER.matcher(written).lookingAt()
              && i + 1 < sentences.size()
              && LIST_MARKER.matcher(sentences.get(i + 1)).lookingAt();
      switch (reading(written, asked, introduces)) {
        case CONCRETE -> concrete++;
        case VAGUE -> vague++;
        case PLAIN -> {}
      }
    }
    return new Substance(sentences.size(), concrete, vague);
  }

  /**
   * Whether one sentence is vague: a hedge or filler phrase and, read without the request's words,
   * nothing concrete but numbers, as {@link #of} counts it.
   */
  static boolean vague(String written, RequestWords asked) {
    return reading(written, asked, false) == Reading.VAGUE;
  }

  private enum Reading {
    CONCRETE,
    VAGUE,
    PLAIN
  }

  /** What one sentence is, read without the request's words: the one place that decides it. */
  private static Reading reading(String written, RequestWords asked, boolean introduces) {
    String s = asked.takenOutOf(written);
    boolean hedged = hedged(written, s, asked);
    // A number alone does not make a hedge concrete: "it works more or less in 7 to 103" is as
    // vague as without them, and numbers are the cheapest marker to add.
    if (isConcrete(hedged ? NUMBER.matcher(s).replaceAll("") : s)) {
      return Reading.CONCRETE;
    }
    return hedged || (!introduces && filler(written, s, asked)) ? Reading.VAGUE : Reading.PLAIN;
  }

  /**
   * Filler: a sentence of {@value #FILLER_WORDS} words or more with nothing beyond the request's
   * words, function words and generic ones ({@link Facets#saysSomething}): "Signature checks are
   * also among the things that can matter depending on the case." names a part of the request and
   * says nothing of it. Not for a request that hands over its own text to rework, whose answer is
   * meant to be made of its words.
   */
  private static boolean filler(String written, String withoutContent, RequestWords asked) {
    return !asked.handsOverItsText()
        && Sentences.wordCount(written) >= FILLER_WORDS
        && !Facets.saysSomething(withoutContent);
  }

  /**
   * A hedge in the sentence read without the request's content words, or without every word of the
   * request: its small words woven in ("there in are do many factors") would break the phrase.
   */
  private static boolean hedged(String written, String withoutContent, RequestWords asked) {
    return HEDGE.matcher(withoutContent).find()
        || HEDGE.matcher(asked.everyWordTakenOutOf(written)).find();
  }

  /** A hedge or filler phrase ("various", "it depends", "basically") anywhere in the text. */
  static boolean hedged(String text) {
    return HEDGE.matcher(text).find();
  }

  /**
   * A list marker ("- ", "1. ") leading a sentence: neither a number nor, for the capital after it,
   * a name; otherwise "1. Look at it carefully." and "- Several things matter." would pass for
   * concrete and dilute the vagueness of the answer they pad.
   */
  private static final Pattern LIST_MARKER =
      Pattern.compile("^\\s*(?:[-*+•]|\\d{1,3}[.)]|#{1,6})(?:\\s+|$)");

  private static boolean isConcrete(String listSentence) {
    String sentence = LIST_MARKER.matcher(listSentence).replaceFirst("");
    if (NUMBER.matcher(sentence).find() || CODE.matcher(sentence).find()) {
      return true;
    }
    // "for example", "because": an example or a reason only with something after it ("for example
    // in some cases", "because of various reasons" are hedges dressed as examples).
    Matcher example = EXAMPLE.matcher(sentence);
    while (example.find()) {
      if (Facets.saysSomething(sentence.substring(example.end()))) {
        return true;
      }
    }
    for (String piece : STOP.split(sentence)) {
      if (hasName(piece)) {
        return true;
      }
    }
    return false;
  }

  /**
   * A capitalized word that is not where a sentence starts: not a function word ("It", "How"), and
   * not the first word after the small words that open a sentence ("In the Morning", "a
   * Basically"). The splitter leaves "factors. colour Basically it is" as one sentence, and a word
   * slipped in after the stop would otherwise make the next sentence's first word pass for a name.
   */
  private static boolean hasName(String sentence) {
    boolean opened = false;
    for (String word : Sentences.words(sentence)) {
      String lower = word.toLowerCase(Locale.ROOT);
      if (ScoredText.small(lower)) {
        continue;
      }
      if (opened && word.length() > 1 && Character.isUpperCase(word.charAt(0))) {
        return true;
      }
      opened = true;
    }
    return false;
  }

  boolean measurable() {
    return sentences >= MIN_SENTENCES;
  }

  /**
   * 0 to 1: vague sentences among the concrete and the vague ones, read with {@link
   * #BENEFIT_OF_DOUBT} concrete sentence more in the answer's favour; 0 when there are neither.
   */
  double vagueShare() {
    return concrete + vague == 0 ? 0 : vague / (concrete + vague + BENEFIT_OF_DOUBT);
  }

  String describe() {
    return String.format(
        Locale.ROOT,
        "%d of %d sentences concrete (numbers, names, code, examples, definitions), %d vague (hedges, filler)",
        concrete,
        sentences,
        vague);
  }
}
