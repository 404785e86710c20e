package dev.asa.evaluators.embedding;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Each of the answer's sentences against the request, from one call to the model: what tells a
 * sentence about the question from a generic one ("this matters a great deal") that any answer
 * could carry. Passages are too coarse for that: a filler sentence inside an on-topic paragraph
 * borrows the paragraph's similarity.
 *
 * <p>A sentence that is on the request's topic only through the request's own words is read without
 * them ({@link #borrowed}): the words of the question woven into an answer about something else
 * ("Sourdough browser bread needs a certificate lively starter") make it look on topic to the
 * model, and taking them out gives back the sentence as it would have been written. A sentence
 * about the question keeps its topic without them ("The browser builds a chain up to a trusted
 * root" still speaks of chains and roots) and is read as written. A sentence with fewer than
 * {@value #MIN_OWN_WORDS} content words of its own is always read as written. What this leaves
 * open: the request's words woven into a sentence already on its topic, or into a short one, still
 * raise its similarity (measured in the README); and a concrete instance the model cannot place
 * ("an example of artificial intelligence is a robotic vacuum cleaner that maps a room") reads as
 * off topic without the request's words, as a woven sentence does.
 *
 * @param sentences the answer's first {@value #MAX_SENTENCES} sentences, as read
 * @param toRequest for each, its cosine similarity to the request
 * @param borrowed each sentence that is on topic only through the request's words, as written, to
 *     the sentence as read, without them
 * @param tokens word pieces the model read
 */
record Closeness(
    List<String> sentences, double[] toRequest, Map<String, String> borrowed, long tokens) {

  /**
   * Sentences read, at most: enough for any answer to show what it says of its own; a longer answer
   * is past the thin answers this is for.
   */
  static final int MAX_SENTENCES = 48;

  /**
   * A sentence of fewer words is never called off topic: the splitter leaves a list's "1." as a
   * sentence of its own, and taking those out would take the list apart.
   */
  static final int MIN_WORDS = 3;

  /**
   * A sentence that comes this close to the request without the request's own words, or less, and
   * closer with them, is read without them. Chosen with {@code asa judge-eval} on the development
   * corpus: 0.15 (where a part of the request earns nothing) left a woven sentence at 0.15 to 0.20
   * lifting an off-topic answer; 0.25 cost PandaLM up to 0.6 points and LLMBar's Manual set 2 to 4
   * (measured beside other own-word rules than {@link #MIN_OWN_WORDS}).
   */
  static final double BORROWED_LINE = 0.20;

  /**
   * Content words of its own a sentence needs before it can be read without the request's: one with
   * fewer is mostly the request's words, as an answer drawn from the request's own text (a span of
   * the article it quotes, the label it offers, a sentence built from the words it gives) is by
   * design; only a sentence with a body of its own can be shown to be about something else. Chosen
   * with the harness: at 5, PandaLM 68.2% and Natural 63.0%; at 8, 69.6% and 65.0%.
   */
  static final int MIN_OWN_WORDS = 8;

  /**
   * @param content the answer, with restatements and words to the evaluator already taken out
   * @param unweave whether a sentence on topic only through the request's words is read without
   *     them: not for a request that hands over its own text to rework, whose words the answer is
   *     meant to keep
   * @param memo the evaluation's embeddings, so that a text it has read is not read again
   */
  static Closeness measure(String request, String content, boolean unweave, Model.Memo memo) {
    List<String> sentences = Sentences.split(content);
    if (sentences.size() > MAX_SENTENCES) {
      sentences = List.copyOf(sentences.subList(0, MAX_SENTENCES));
    }
    RequestWords asked = RequestWords.of(request);
    // One call to the model: the request, each sentence, and each sentence that could be woven
    // read without the request's words.
    List<String> texts = new ArrayList<>(1 + 2 * sentences.size());
    texts.add(request);
    texts.addAll(sentences);
    int[] without = new int[sentences.size()];
    for (int i = 0; i < sentences.size(); i++) {
      String sentence = sentences.get(i);
      String rest = asked.takenOutOf(sentence);
      boolean couldBeWoven = unweave && !rest.equals(sentence) && ownWords(rest) >= MIN_OWN_WORDS;
      without[i] = couldBeWoven ? texts.size() : -1;
      if (couldBeWoven) {
        texts.add(rest);
      }
    }
    Model.Vectors v = memo.embed(texts);
    List<String> read = new ArrayList<>(sentences);
    double[] toRequest = new double[sentences.size()];
    Map<String, String> borrowed = new LinkedHashMap<>();
    for (int i = 0; i < toRequest.length; i++) {
      toRequest[i] = Model.cosine(v.get(0), v.get(1 + i));
      if (without[i] < 0) {
        continue;
      }
      double withoutThem = Model.cosine(v.get(0), v.get(without[i]));
      if (withoutThem <= BORROWED_LINE && withoutThem < toRequest[i]) {
        borrowed.put(sentences.get(i), texts.get(without[i]));
        read.set(i, texts.get(without[i]));
        toRequest[i] = withoutThem;
      }
    }
    return new Closeness(
        List.copyOf(read), toRequest, Collections.unmodifiableMap(borrowed), v.tokens());
  }

  private static int ownWords(String text) {
    int n = 0;
    for (String word : Sentences.words(text)) {
      n += ScoredText.small(word.toLowerCase(Locale.ROOT)) ? 0 : 1;
    }
    return n;
  }

  /**
   * The answer as it is read: each sentence on topic only through the request's words without them.
   */
  String read(String content) {
    String out = content;
    for (Map.Entry<String, String> e : borrowed.entrySet()) {
      out = out.replace(e.getKey(), e.getValue());
    }
    return out;
  }

  /**
   * Whether a sentence of the answer is off the request's topic (at or below {@link
   * Calibration#PART_ZERO}, where a part of the request earns nothing). A sentence past the first
   * {@value #MAX_SENTENCES}, not measured, or of fewer than {@value #MIN_WORDS} words is not called
   * off topic.
   */
  boolean offTopic(String sentence) {
    if (Sentences.wordCount(sentence) < MIN_WORDS) {
      return false; // "1." of a numbered list, "Yes.": nothing for the model to place
    }
    for (int i = 0; i < sentences.size(); i++) {
      if (sentences.get(i).equals(sentence) && toRequest[i] > Calibration.PART_ZERO) {
        return false;
      }
    }
    return sentences.contains(sentence);
  }

  /** The answer's sentences off the request's topic, in order. */
  List<String> offTopicSentences() {
    return sentences.stream().filter(this::offTopic).toList();
  }

  /**
   * The answer without its sentences off the request's topic, or null when none is off topic, or
   * every one is (an answer about something else has nothing better to be read as).
   */
  String withoutOffTopic(String content) {
    List<String> off = offTopicSentences();
    if (off.isEmpty() || off.size() == sentences.size()) {
      return null;
    }
    String on = content;
    for (String sentence : off) {
      on = on.replace(sentence, "");
    }
    return on;
  }
}
