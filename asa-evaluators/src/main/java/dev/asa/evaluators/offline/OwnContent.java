package dev.asa.evaluators.offline;

import dev.asa.evaluators.embedding.Calibration;
import dev.asa.evaluators.text.Sentences;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * How much an answer says of its own: the distinct content words it adds beyond the request's, each
 * weighted by how on topic its sentence is. An answer of a few words, or one that gives the
 * request's own words back, can sit as close to the request in embedding space as a full answer
 * (closer, when it copies), and similarity alone then ranks it level or above; people do not.
 *
 * <p>The credit saturates at {@value #FULL} such words on a logarithmic scale (1 word 0.29, 3 words
 * 0.58, 5 words 0.75, 10 words 1): it tells a thin answer from a real one. Past it, depth ({@link
 * #depth}) goes on. For a direct question ({@link DirectQuestion}: "What is the capital of
 * Australia?") it goes on to {@value #DEPTH_FULL} words and weighs a tenth as much, so that of two
 * sufficient answers the one that says more of its own on the topic is ahead by a few points, never
 * by more, and a right one-line answer still passes. For every other request (an essay, a plan, an
 * explanation) it goes on to {@value #EXTENDED_DEPTH_FULL} words and weighs most of the score
 * ({@link EmbeddingEvaluator#EXTENDED_DEPTH_WEIGHT}), as it does for the people choosing between
 * two answers. Length with nothing of its own (repeated, off the topic, vague, the request's words)
 * earns nothing at all. Past depth, reach ({@link #reach}) goes on to {@value #REACH_FULL} words,
 * for completeness only and only for an answer close to the request. All chosen with {@code asa
 * judge-eval} (see {@link EmbeddingEvaluator#OWN_WEIGHT}, {@link EmbeddingEvaluator#DEPTH_WEIGHT}
 * and {@link EmbeddingEvaluator#REACH_WEIGHT}).
 *
 * <p>It cannot be gamed by what the other signals already refuse: words of the request (keyword
 * stuffing, restating the question) are not the answer's own; a repeated word counts once; a
 * function word ("the", "which") counts nothing; and a word counts by how close its sentence is to
 * the request ({@link Closeness}), from nothing at {@value #SENTENCE_ZERO} of similarity (numbers
 * and generic words at {@value #GENERIC_ZERO}) to in full at {@value #SENTENCE_FULL}, so that
 * filler ("as mentioned above, this matters a great deal") brings no words of its own. Sentences,
 * not passages: a filler sentence inside an on-topic paragraph would borrow the paragraph's
 * similarity. A vague sentence ({@link Substance#vague}: a hedge with nothing concrete) brings none
 * either, in an answer of two sentences or more: words dressing a hedge ("it depends on many
 * factors, because of various reasons") are not content. Measured on the development corpus: no
 * pick changed.
 *
 * <p>Three kinds of request are answered in few words of one's own by design, and the measure is
 * not applied to them: one that hands over its own text to rework ("paraphrase", "summarize",
 * "translate", "edit" ...), one that asks for words picked out of its own text ("extract the
 * keywords", "list the key words from the following"), and one that asks for a short answer ("in
 * one word", "briefly", "yes or no", "in 20 words").
 *
 * @param words the weighted count of distinct content words beyond the request
 * @param distinct how many distinct content words beyond the request, unweighted
 * @param exemptBecause why the measure does not apply to the request, or null when it does
 * @param extended whether the request calls for an extended answer rather than asking a direct
 *     question ({@link DirectQuestion}): depth is then full only from {@value #EXTENDED_DEPTH_FULL}
 *     words
 */
record OwnContent(double words, int distinct, String exemptBecause, boolean extended) {

  /** Weighted words at which an answer says enough of its own: full credit. */
  static final int FULL = 10;

  /**
   * Weighted words at which an answer's depth is full: past {@link #FULL}, an answer that says more
   * of its own on the request's topic still earns a little more ({@link
   * EmbeddingEvaluator#DEPTH_WEIGHT}), so that two sufficient answers are not left level and then
   * told apart by noise. 50 words: the same scale (1 word 0.18, 10 words 0.61, 25 words 0.83).
   */
  static final int DEPTH_FULL = 50;

  /**
   * Weighted words at which the depth of an answer to a request that calls for an extended answer
   * is full: an essay, a plan, an explanation, a problem worked through, a role played. There
   * people choosing between two answers prefer the one that says more of its own on the topic far
   * beyond 50 words (of the 829 of Auto-J's pairs of strong models' answers where both are counted,
   * the one with more such words is preferred 70.2% of the time), so depth goes on to here, on the
   * same logarithmic scale (50 words 0.69, 100 words 0.81, 150 words 0.88).
   */
  static final int EXTENDED_DEPTH_FULL = 300;

  /**
   * Weighted words of its own an extended answer is expected to say (in Auto-J's and FairEval's
   * answers, the median answer with 70 to 90 such words has 318 words; with 40 to 60, 199): at them
   * its scores stay as measured, below them depth costs, above them it earns, up to {@link
   * #EXTENDED_DEPTH_FULL} and never past 100 ({@link EmbeddingEvaluator#owned}). Without this par,
   * a right and complete 150-word explanation lost a fifth of its completeness to depth it had no
   * need of (71 to 50 in {@code FacetsTest}). Chosen on the counts {@code asa judge-eval} recorded
   * on the development sets, against no par: at 80 words as many pairs right on every set, to two;
   * at 50, Auto-J -0.7 points; at 30 and 20, Auto-J -2.7 and -3.8 and FairEval -12 and -21, where
   * two long answers both reach 100 and tie.
   */
  static final int EXTENDED_DEPTH_PAR = 80;

  /**
   * Weighted words at which an answer's reach is full ({@link #reach}): past depth, how much more
   * an answer on the request's topic says, on a scale that halves at a third of it (100 words) and
   * reaches a quarter at 41 words, so that of two long answers the fuller stays ahead.
   */
  static final int REACH_FULL = 300;

  /** Verbs that ask for a text's own words reworded, in {@link #REWRITE} and {@link #IMPROVE}. */
  private static final String REWORDING =
      "paraphrase|rewrite|re-write|rephrase|reword|edit|proofread|correct|fix";

  /**
   * Requests that open by asking for a text of theirs reworked. Read at the start only: "explain
   * why people summarize" asks for something new.
   */
  private static final Pattern REWRITE =
      Pattern.compile(
          "^\\W*(?:please\\s+)?(?:"
              + REWORDING
              + "|translate|convert|change|summari[sz]e|shorten|simplify|condense"
              + "|make (?:this|the|it)|turn (?:this|the)|transform)\\b",
          Pattern.CASE_INSENSITIVE);

  /**
   * Requests that open by asking for a text made better, "improve", "polish", "revise", "refine",
   * "spell check", or for any rework as a question ("can you improve this message: ...", "Could you
   * help me to polish this abstract: ..."). They rework a text only when they hand one over ({@link
   * #improves}): "improve my sleep" asks for advice. Without them, "please improve the following
   * text" held a conservative edit, made of the text's words by design, to saying words of its own
   * (completeness 50 against 88 for a freer rewrite of Auto-J's abstract), and a sentence given
   * back unchanged was no part left undone.
   */
  private static final Pattern IMPROVE =
      Pattern.compile(
          "^\\W*(?:(?:can|could|would|will) you\\s+)?(?:please\\s+)?(?:help me\\s+(?:to\\s+)?)?"
              + "(?:"
              + REWORDING
              + "|polish|improve|revise|revamp|refine|enhance|spell ?check"
              + "|make (?:this|the|it|my))\\b",
          Pattern.CASE_INSENSITIVE);

  /** What words are picked out of: "from the paragraph", "of the following claim". */
  private static final String TEXT =
      "(?:text|paragraphs?|passages?|articles?|claims?|records?|reviews?|contracts?|e-?mails?"
          + "|documents?|data|sentences?|conversation|transcript|report|listing|description|table"
          + "|post|story|essay|letter|message|content|clause|input)";

  /**
   * Requests that ask for words picked out of a text they hand over: keywords, names, entities, the
   * facts of a paragraph. The answer is made of the text's words by design ("1. Time management 2.
   * Prioritizing ..." for a job ad's key words), so it says little of its own and that is the work.
   * Read anywhere in the request, "Please list the key words from the following job requirements",
   * "Given the following records of stock prices, extract the highest and lowest closing prices",
   * "Create 10 keyword tuples summarizing this text", but narrowly: "extract surplus value from the
   * workers", "list a few songs from the given album" and "use these keywords" pick nothing out of
   * a text.
   */
  private static final Pattern PICK =
      Pattern.compile(
          // "extract the facts from the paragraph", "pull out ... of the following"
          "\\b(?:extract|pull out|pick out)\\b[^.?!\\n]{0,80}?\\b(?:from|of|in)\\s+(?:the\\s+)?"
              + "(?:following|given|provided|presented|above|below"
              + "|(?:this|these|that|an?|the)\\s+(?:\\w+\\s+){0,2}?"
              + TEXT
              + ")\\b"
              // "Given the following records of stock prices, extract the highest ..."
              + "|\\b(?:given|from|using|in)\\s+(?:the\\s+)?(?:following|provided|given|above|below)"
              + "\\s+(?:\\w+\\s+){0,2}?"
              + TEXT
              + "\\b[^.?!\\n]{0,40}?[.,;:]?\\s*(?:please\\s+)?(?:extract|pull out|pick out)\\b"
              // "choose the three most important keywords", "list the key words"
              + "|\\b(?:extract|list|identify|find|choose|select|pick|give me|create|generate"
              + "|make an?\\b[\\w\\s-]{0,30}?\\blist of)\\b[^.?!\\n]{0,40}?"
              + "\\b(?:key ?words?|key ?phrases?|key ?terms|(?:named )?entities|mentions)\\b"
              // "Identify the countries ... in the following sentences"
              + "|\\b(?:identify|list|name)\\b[^.?!\\n]{0,80}?\\b(?:in|from)\\s+(?:the\\s+)?"
              + "(?:following|given|provided|presented|above|below)\\s+(?:\\w+\\s+){0,2}?"
              + TEXT
              + "\\b"
              // "identify the companies ... mentioned in the contract clause below"
              + "|\\b(?:identify|list|find)\\b[^.?!\\n]{0,80}?\\b(?:mentioned|named|found) in\\b",
          Pattern.CASE_INSENSITIVE);

  /**
   * Reworking by picking out rather than rewriting: a summary may keep the text's own lead sentence
   * as it was, and that choice is the work.
   */
  private static final Pattern SELECT =
      Pattern.compile(
          "^\\W*(?:please\\s+)?(?:summari[sz]e|shorten|condense)\\b", Pattern.CASE_INSENSITIVE);

  /**
   * Requests that ask for a short answer, in their instruction ({@link #asksForAShortAnswer}).
   * Measured on the development corpus: exempting them raised every set or left it level (PandaLM
   * 69.1% to 69.4%, GPTOut 44.7% to 46.8%, Neighbor 48.5% to 50.0%).
   *
   * <p>"A number", "a line" or "a sentence" asks for one only as what the answer is to be ("answer
   * with a single word", "in one sentence", "write a sentence"). Read anywhere, as it first was,
   * "When a number is divided by 10, the remainder is 4. What is the remainder when twice the
   * number is divided by 4?" asked for a short answer, and the bare "The remainder ... is 2."
   * scored 100 beside a worked solution; so did "with one line allocated for each month" and "a
   * line segment", and "for a number of reasons" in a story the request tells. Measured with {@code
   * asa judge-eval}: Auto-J 1 pair gained (that remainder problem) and 2 lost, the corpus 1 lost
   * (GPTOut), each of the three won before through the misreading: a short answer to an advice
   * request whose story says "for a number of reasons", a reading-comprehension request whose
   * questions come before its text (which {@link Material} does not split), a reply that asks for
   * the question to a role-play prompt whose "concise" sits in what is read as its text.
   */
  private static final Pattern SHORT =
      Pattern.compile(
          "\\b(?:in|into|as|with|write|generate|construct|create|compose|give(?: me)?|produce"
              + "|provide|add|come up with|(?:should|must) be)\\s+(?:just\\s+|only\\s+)?"
              + "(?:one|single|1|a|a single) (?:word|sentence|line|phrase|number)\\b"
              + "(?![-\\w]|\\s+(?:of|for|per|segment|allocated|cell|changed)\\b)"
              + "|\\bbrief(?:ly)?\\b|\\bconcise(?:ly)?\\b|\\bkeep it short\\b"
              + "|\\bshort (?:answer|response|reply|phrase|title|name|list)\\b"
              + "|\\bin (?:\\d+|one|two|three|a few|less than \\w+|under \\w+|no more than \\w+"
              + "|at most \\w+) (?:words|sentences)\\b"
              + "|\\byes or no\\b|\\btrue or false\\b",
          Pattern.CASE_INSENSITIVE);

  /**
   * A sentence this close to the request, or less, brings no words of its own: the line below which
   * a sentence the request's words were woven into is read without them ({@link
   * Closeness#BORROWED_LINE}), so that such a sentence, about something else, buys nothing. The
   * sentences of a piece of writing sit between it and the line at which a part counts as covered
   * (0.30, the line first chosen here): a product description's "It's a versatile piece that will
   * complement a variety of outfits" is 0.15 to 0.30 from "write a description for a sterling
   * silver chain", and with the line at 0.30 76 distinct words of its own weighed 23. Measured with
   * {@code asa judge-eval} against 0.30: PandaLM +7 pairs (72.6%), Auto-J +6 (64.3%), Natural +1,
   * LLMBar's Neighbor -5 (its long answers to a nearby question gain as much), LLMEval² -1; 0.15
   * gained more (the corpus +10 to +12, Auto-J +2 to +6) but let an answer about bread with the
   * request's words woven in buy words again ({@code GamingResistanceTest}).
   */
  static final double SENTENCE_ZERO = 0.20;

  /**
   * Numbers and generic words ("also", "things", "various") count only from this closeness: neither
   * ties a loosely related sentence to the request, and appended to an answer, "Also 2 + 2 = 4, 3 x
   * 3 = 9" would otherwise buy it words of its own. Measured with {@code asa judge-eval} against
   * every word but numbers counted from 0.20: as many pairs right on the four sets, to one; generic
   * words left out at every closeness instead, Auto-J +5 and the corpus -6 (the adversarial sets).
   */
  static final double GENERIC_ZERO = 0.30;

  /** A sentence this close to the request, or closer, brings its words in full. */
  static final double SENTENCE_FULL = 0.45;

  /** Counts on the sentences' similarities to the request, measured once for all signals. */
  static OwnContent of(String request, Closeness closeness) {
    return count(request, closeness.sentences(), closeness.toRequest());
  }

  /** Counts with the similarities given: each sentence's to the request. */
  static OwnContent count(String request, List<String> sentences, double[] toRequest) {
    RequestWords asked = RequestWords.ofInstruction(request);
    Map<String, Double> own = new HashMap<>();
    // A number is content of the answer's own where the request deals in numbers; elsewhere it is
    // the cheapest word to add ("it works more or less in 7 to 103").
    boolean numbersCount = request.chars().anyMatch(Character::isDigit);
    for (int i = 0; i < sentences.size(); i++) {
      // A vague sentence (a hedge with nothing concrete) says nothing of its own, whatever words
      // dress it: "it depends on many factors, because of various reasons" adds no content. As for
      // Substance, one sentence alone is too little to call vague.
      if (sentences.size() >= Substance.MIN_SENTENCES && Substance.vague(sentences.get(i), asked)) {
        continue;
      }
      // A word that names something counts from SENTENCE_ZERO; a number, a letter alone ("3 x 3")
      // or a generic word ("also", "things") only from GENERIC_ZERO.
      double named = Calibration.ramp(toRequest[i], SENTENCE_ZERO, SENTENCE_FULL);
      double generic = Calibration.ramp(toRequest[i], GENERIC_ZERO, SENTENCE_FULL);
      for (String word : Sentences.words(sentences.get(i))) {
        String lower = word.toLowerCase(Locale.ROOT);
        boolean letters = lower.chars().anyMatch(Character::isLetter);
        if ((numbersCount || letters) && !ScoredText.small(lower) && !asked.contains(lower)) {
          boolean names = letters && lower.length() > 1 && !Facets.generic(lower);
          own.merge(ScoredText.stem(lower), names ? named : generic, Math::max);
        }
      }
    }
    double words = own.values().stream().mapToDouble(Double::doubleValue).sum();
    String exempt =
        picksFromItsOwnText(request)
            ? "the request asks for words picked out of its own text"
            : reworksItsOwnText(request)
                ? "the request asks for its own text reworked"
                : asksForAShortAnswer(request) ? "the request asks for a short answer" : null;
    return new OwnContent(words, own.size(), exempt, !DirectQuestion.is(request));
  }

  /**
   * Whether the request opens by handing over its own text to rework ("paraphrase this ..."), or
   * asks for words picked out of it ({@link #picksFromItsOwnText}).
   */
  static boolean reworksItsOwnText(String request) {
    return opensWithRework(request) || picksFromItsOwnText(request) || improves(request);
  }

  /**
   * Whether the request opens by asking for a text reworked ({@link #REWRITE}) and hands one over
   * ({@link Material#handsOverAny}): "Summarise the arguments for and against a four-day week"
   * gives no text to summarise, and is answered with words of one's own like any question.
   */
  private static boolean opensWithRework(String request) {
    return REWRITE.matcher(request).find() && Material.handsOverAny(request);
  }

  /**
   * Whether the request's instruction asks for a short answer: not the text it hands over, where "a
   * brief history" or "for a number of reasons" asks for nothing.
   */
  static boolean asksForAShortAnswer(String request) {
    return SHORT.matcher(Material.of(request).instruction()).find();
  }

  /** Whether the request asks for a text it hands over made better ({@link #IMPROVE}). */
  private static boolean improves(String request) {
    return IMPROVE.matcher(request).find() && Material.of(request).present();
  }

  /** Whether the request asks for words picked out of its own text ("extract the keywords"). */
  static boolean picksFromItsOwnText(String request) {
    return PICK.matcher(request).find();
  }

  /**
   * Whether the request hands over its own text to be rewritten word by word (rewrite, correct,
   * change, translate ...) rather than picked from (summarize, shorten): any of its text given back
   * as it was, whole or in part, is a part left undone.
   */
  static boolean rewritesItsOwnText(String request) {
    return (opensWithRework(request) || improves(request))
        && !SELECT.matcher(request).find()
        && !picksFromItsOwnText(request);
  }

  /** 0 to 1: {@code ln(1 + words) / ln(1 + FULL)}, capped at 1. */
  double share() {
    return Math.min(1, Math.log1p(words) / Math.log1p(FULL));
  }

  /**
   * 0 to 1: {@code ln(1 + words) / ln(1 + full)}, capped at 1, where full is {@link #DEPTH_FULL}
   * for a direct question and {@link #EXTENDED_DEPTH_FULL} for a request that calls for more.
   */
  double depth() {
    return Math.min(1, Math.log1p(words) / Math.log1p(depthFull()));
  }

  /**
   * Depth at {@link #EXTENDED_DEPTH_PAR} words for an extended answer, at full for a direct one.
   */
  double parDepth() {
    return extended ? Math.log1p(EXTENDED_DEPTH_PAR) / Math.log1p(EXTENDED_DEPTH_FULL) : 1;
  }

  /** The weighted words at which depth is full, for this request. */
  int depthFull() {
    return extended ? EXTENDED_DEPTH_FULL : DEPTH_FULL;
  }

  /** 0 to 1: {@code ln(1 + 3 words / REACH_FULL) / ln 4}, capped at 1 (see {@link #REACH_FULL}). */
  double reach() {
    return Math.min(1, Math.log1p(3 * words / REACH_FULL) / Math.log(4));
  }

  String describe() {
    return String.format(
        Locale.ROOT,
        "%d distinct content %s beyond the request's, %.1f once weighted by how on topic their"
            + " sentence is (full credit from %d, full depth from %d: %s)",
        distinct,
        distinct == 1 ? "word" : "words",
        words,
        FULL,
        depthFull(),
        extended ? "the request calls for an extended answer" : "the request is a direct question");
  }
}
