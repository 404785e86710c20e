package dev.asa.evaluators.embedding;

import java.util.ArrayList;
import java.util.List;

/**
 * Each of the answer's sentences against the request, from one call to the model: what tells a
 * sentence about the question from a generic one ("this matters a great deal") that any answer
 * could carry. Passages are too coarse for that: a filler sentence inside an on-topic paragraph
 * borrows the paragraph's similarity.
 *
 * @param sentences the answer's first {@value #MAX_SENTENCES} sentences
 * @param toRequest for each, its cosine similarity to the request
 * @param tokens word pieces the model read
 */
record Closeness(List<String> sentences, double[] toRequest, long tokens) {

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
   * @param content the answer, with restatements and words to the evaluator already taken out
   */
  static Closeness measure(String request, String content) {
    List<String> sentences = Sentences.split(content);
    if (sentences.size() > MAX_SENTENCES) {
      sentences = List.copyOf(sentences.subList(0, MAX_SENTENCES));
    }
    List<String> texts = new ArrayList<>(1 + sentences.size());
    texts.add(request);
    texts.addAll(sentences);
    Model.Vectors v = Model.embed(texts);
    double[] toRequest = new double[sentences.size()];
    for (int i = 0; i < toRequest.length; i++) {
      toRequest[i] = Model.cosine(v.get(0), v.get(1 + i));
    }
    return new Closeness(sentences, toRequest, v.tokens());
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
