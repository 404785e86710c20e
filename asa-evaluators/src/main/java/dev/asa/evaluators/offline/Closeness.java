package dev.asa.evaluators.offline;

import dev.asa.evaluators.embedding.Calibration;
import dev.asa.evaluators.embedding.Model;
import dev.asa.evaluators.text.ListMarkers;
import dev.asa.evaluators.text.Passages;
import dev.asa.evaluators.text.Sentences;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
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
 * raise its similarity (measured in docs/judge-record.md); and a concrete instance the model cannot
 * place ("an example of artificial intelligence is a robotic vacuum cleaner that maps a room")
 * reads as off topic without the request's words, as a woven sentence does.
 *
 * <p>A list of names is placed by the list as a whole ({@link #namedLists}): the model cannot tell
 * that "School Daze (1988)" answers a request for Spike Lee's films, but it can tell that the list
 * of them does. Each item is as close to the request as its list, if that is closer than the item
 * alone; and an item of a list that is off the request's topic as a whole is off topic however
 * short (a list of cheeses after an answer about certificates is neither steps nor content).
 *
 * @param sentences the answer's first {@value #MAX_SENTENCES} sentences, as read
 * @param toRequest for each, its cosine similarity to the request
 * @param borrowed each sentence that is on topic only through the request's words, as written, to
 *     the sentence as read, without them
 * @param listed each item of a list of names, as a sentence and as its line, to its list's cosine
 *     similarity to the request
 * @param tokens word pieces the model read
 */
record Closeness(
    List<String> sentences,
    double[] toRequest,
    Map<String, String> borrowed,
    Map<String, Double> listed,
    long tokens) {

  /**
   * Sentences read, at most: enough for any answer to show what it says of its own; a longer answer
   * is past the thin answers this is for. The statements of {@link Passages} stop at the same
   * number, so that they are sentences this measure has already embedded.
   */
  static final int MAX_SENTENCES = Passages.MAX_STATEMENTS;

  /**
   * A sentence of fewer words ("Yes.", "The end.") is never called off topic: too short for the
   * model to place.
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

  /** List items of names in a row, at least, that are placed as a list: fewer are no list. */
  static final int MIN_LIST_ITEMS = 3;

  /**
   * Lists placed, at most, each one more text for the model: as with {@link #MAX_SENTENCES}, a
   * deliverable cut into thousands of short lists must not buy thousands of model calls.
   */
  static final int MAX_LISTS = 12;

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
    List<List<String>> lists = namedLists(content);
    int firstList = texts.size();
    for (List<String> items : lists) {
      texts.add(String.join("\n", items));
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
    Map<String, Double> listed = new HashMap<>();
    for (int l = 0; l < lists.size(); l++) {
      double listToRequest = Model.cosine(v.get(0), v.get(firstList + l));
      for (String item : lists.get(l)) {
        String line = oneLine(item);
        listed.merge(line, listToRequest, Math::max);
        listed.merge(ListMarkers.withoutMarker(line), listToRequest, Math::max);
      }
    }
    for (int i = 0; i < toRequest.length; i++) {
      Double list = listed.get(read.get(i));
      if (list != null) {
        toRequest[i] = Math.max(toRequest[i], list);
      }
    }
    return new Closeness(
        List.copyOf(read),
        toRequest,
        Collections.unmodifiableMap(borrowed),
        Map.copyOf(listed),
        v.tokens());
  }

  /**
   * The answer's first {@value #MAX_LISTS} lists of names: runs of at least {@value
   * #MIN_LIST_ITEMS} lines that are list items too short to be sentences ({@link
   * Readability#isListItem}), blank lines between them allowed, each run's items stripped, in
   * order.
   */
  static List<List<String>> namedLists(String content) {
    List<List<String>> lists = new ArrayList<>();
    List<String> run = new ArrayList<>();
    for (String line : content.split("\n", -1)) {
      if (lists.size() == MAX_LISTS) {
        return lists;
      }
      String item = line.strip();
      if (Readability.isListItem(item)) {
        run.add(item);
      } else if (!item.isEmpty()) { // a blank line between items keeps the list whole
        endList(run, lists);
      }
    }
    endList(run, lists);
    return lists;
  }

  private static void endList(List<String> run, List<List<String>> lists) {
    if (run.size() >= MIN_LIST_ITEMS) {
      lists.add(List.copyOf(run));
    }
    run.clear();
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
   * off topic, unless it is an item of a list of names off topic as a whole; an item of a list on
   * topic never is.
   */
  boolean offTopic(String sentence) {
    Double list = listed.get(sentence);
    if (list != null && list > Calibration.PART_ZERO) {
      return false; // on topic as its list is
    }
    if (list == null && Sentences.wordCount(sentence) < MIN_WORDS) {
      return false; // "Yes.", "Done.": nothing for the model to place
    }
    for (int i = 0; i < sentences.size(); i++) {
      if (sentences.get(i).equals(sentence) && toRequest[i] > Calibration.PART_ZERO) {
        return false;
      }
    }
    return sentences.contains(sentence);
  }

  /**
   * Whether a line of the answer is a list item off the request's topic: an item of a list of names
   * off topic as a whole, or an item that is a sentence off topic by itself.
   */
  boolean offTopicItem(String line) {
    String item = oneLine(line);
    Double list = listed.get(item);
    if (list != null) {
      return list <= Calibration.PART_ZERO;
    }
    return offTopic(item) || offTopic(ListMarkers.withoutMarker(item));
  }

  /**
   * A list item as the sentence splitter gives it back: stripped, white space runs as one space.
   */
  private static String oneLine(String item) {
    return item.strip().replaceAll("\\s+", " ");
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
