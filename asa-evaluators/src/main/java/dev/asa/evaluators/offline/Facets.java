package dev.asa.evaluators.offline;

import dev.asa.evaluators.text.ListMarkers;
import dev.asa.evaluators.text.Sentences;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What a single-part question calls for beyond its topic, from its form, and whether the
 * deliverable has it. A question of one sentence still asks for more than one thing: "Explain how X
 * works" calls for the steps or the mechanism, "list" or "give some examples" for several items.
 * Similarity alone cannot tell a detailed answer from a vague paragraph on the same topic, so
 * before this a single-part request earned full coverage from its one similarity.
 *
 * <p>Two forms are checked, each by a count stated in the evidence:
 *
 * <ul>
 *   <li><b>how</b> ("how does", "explain how", "steps to", "walk me through"): steps (list items or
 *       first / then / next / finally) or causal links (because, leads to, therefore), whichever is
 *       more; {@value #ENOUGH} for full credit;
 *   <li><b>list</b> ("list", "give some", "examples", "ideas", "tips", "ways to"): list items;
 *       {@value #ENOUGH} for full credit.
 * </ul>
 *
 * <p>An empty step ({@link #emptyStep}: a hedge, or nothing but generic words, "Then, think about
 * the details.") is neither a step nor an item.
 *
 * <p>Measured on the development corpus, three more forms were tried and left out, each lowering
 * agreement or changing nothing: "why" (reasons by causal links), "compare" (both sides by contrast
 * markers) and "what is" (a definition and an example).
 *
 * @param form the question's form, "how" or "list"
 * @param calledFor what that form calls for, for the evidence
 * @param count what was counted in the deliverable
 * @param counted what {@code count} counts, for the evidence
 */
record Facets(String form, String calledFor, int count, String counted) {

  /** Steps, causal links or items: this many earn full credit. */
  static final int ENOUGH = 3;

  private static final Pattern HOW =
      Pattern.compile(
          "(?i)\\b(?:how (?:does|do|is|are|can|to|did|would|should|could)|explain how|what (?:are )?the steps|steps? (?:to|for|involved)|process of|procedure|walk (?:me )?through)\\b");
  private static final Pattern LIST =
      Pattern.compile(
          "(?i)\\b(?:list|name (?:some|a few|\\d+)|give (?:me )?(?:some|a few|several|\\d+|three|five|ten)|examples|ideas|suggestions|tips|ways to)\\b");

  private static final Pattern SEQUENCE =
      Pattern.compile(
          "(?i)\\b(?:first(?:ly)?|second(?:ly)?|third(?:ly)?|then|next|after (?:that|this)|afterwards|finally|lastly|once|step \\d+|subsequently)\\b");
  private static final Pattern ITEM =
      Pattern.compile("(?m)^\\s*(?:[-*+•]|\\d{1,3}[.)]|#{1,6})\\s+\\S");

  /** A causal link; "since" followed by a number ("since 1995") is a time, not a cause. */
  private static final Pattern CAUSE =
      Pattern.compile(
          "(?i)\\b(?:because|since(?!\\s+\\d)|due to|as a result|so that|leads? to|causes?|caused by|therefore|thus|hence|which means|results? in|in order to)\\b");

  /** How a step begins: a list marker, or a sequence word ("First, ...", "Then ..."). */
  private static final Pattern STEP_START =
      Pattern.compile(
          "(?i)^\\s*(?:(?:[-*+•]|\\d{1,3}[.)]|#{1,6})\\s+|(?:first(?:ly)?|second(?:ly)?|third(?:ly)?|then|next|after (?:that|this)|afterwards|finally|lastly|subsequently)\\b)");

  /**
   * Words too general to carry the content of a step on any topic ("consider the situation", "keep
   * the important aspects in mind", a heading "## Overview"), compared by {@link ScoredText#stem}.
   * A step made of these and small words only says that there is a step, not what it is. The
   * function words beyond {@link ScoredText#small} ("may", "could", "another", "among") are here
   * too, so that filler ({@link Substance}) says nothing: "another thing that could matter".
   */
  private static final Set<String> GENERIC =
      Set.of(
          "thing", "stuff", "aspec", "facto", "detai", "situa", "circu", "matte", "issue", "point",
          "part", "parts", "consi", "think", "keep", "mind", "look", "looks", "take", "takes",
          "accou", "relev", "impor", "invol", "vario", "sever", "many", "some", "every", "toget",
          "come", "comes", "all", "other", "depen", "caref", "good", "well", "just", "also",
          "there", "here", "now", "way", "ways", "make", "makes", "sure", "step", "steps", "first",
          "secon", "third", "next", "final", "lastl", "after", "once", "subse", "use", "them",
          "they", "these", "those", "not", "have", "has", "was", "were", "been", "being", "get",
          "gets", "done", "do", "does", "did", "very", "really", "overa", "case", "cases", "reaso",
          "certa", "examp", "diffe", "somet", "anyth", "it's", "such", "overv", "intro", "concl",
          "summa", "backg", "may", "might", "could", "must", "shall", "among", "anoth", "each",
          "any", "both", "eithe", "neith", "more", "most", "less", "much", "one", "ones", "even",
          "still", "too", "yet", "only", "wheth", "while", "where", "whose", "whom", "upon",
          "withi", "witho", "betwe", "again", "alway", "never", "often", "usual", "typic");

  /**
   * An empty step: shaped like a step (a list line, or a sentence led by a sequence word) but a
   * hedge ({@link Substance#hedged}) or with no word beyond small and {@link #GENERIC} ones ("Then,
   * think about the details.", "- Several things matter here."). Empty steps are not counted as
   * steps or items, and {@link ScoredText} takes them out before anything is scored, so padding an
   * answer with them never raises a score. An honest short step ("First the compressor squeezes the
   * refrigerant.", "- Bake bread") names something and counts.
   */
  static boolean emptyStep(String sentence) {
    if (!STEP_START.matcher(sentence).find()) {
      return false;
    }
    return Substance.hedged(sentence) || !saysSomething(sentence);
  }

  /**
   * Whether the text has a word beyond small and {@link #GENERIC} ones and bare numbers: what
   * follows "for example" or "because" must, for there to be an example or a cause ("because of
   * various reasons", "for example in some cases" have none).
   */
  static boolean saysSomething(String text) {
    for (String w : Sentences.words(text)) {
      String lower = w.toLowerCase(Locale.ROOT);
      if (!lower.chars().allMatch(Character::isDigit)
          && !ScoredText.small(lower)
          && !generic(lower)) {
        return true;
      }
    }
    return false;
  }

  /**
   * A word too general to say anything on any topic ("things", "various", "reasons", "basically"),
   * by {@link #GENERIC} or as a hedge of {@link Substance}.
   */
  static boolean generic(String lowerCaseWord) {
    return GENERIC.contains(ScoredText.stem(lowerCaseWord)) || Substance.hedged(lowerCaseWord);
  }

  /** The facets the question calls for, or empty when its form is neither "how" nor "list". */
  static Optional<Facets> of(String question, String answer) {
    return of(question, answer, null);
  }

  /**
   * As {@link #of(String, String)}, with a step or causal link counted only in a sentence not off
   * the question's topic ({@link Closeness#offTopic}): "everyone should know this, since it comes
   * up often" links nothing the question asked about.
   *
   * @param closeness the answer's sentences against the question, or null to count them all
   */
  static Optional<Facets> of(String question, String answer, Closeness closeness) {
    if (HOW.matcher(question).find()) {
      int items = count(ITEM, answer, closeness);
      int sequence = count(SEQUENCE, answer, closeness);
      int causes = count(CAUSE, answer, closeness);
      int steps = Math.max(items, sequence);
      return Optional.of(
          new Facets(
              "how",
              "steps or a mechanism",
              Math.max(steps, causes),
              String.format(
                  Locale.ROOT,
                  "%d steps (list items or first/then/next/finally), %d causal links",
                  steps,
                  causes)));
    }
    if (LIST.matcher(question).find()) {
      int items = count(ITEM, answer, null);
      return Optional.of(new Facets("list", "several items", items, items + " list items"));
    }
    return Optional.empty();
  }

  /**
   * Occurrences of the pattern, each distinct line (for list items) or sentence counted once, so
   * that repeating a step or a list item never raises the count; an {@link #emptyStep} never
   * counts.
   */
  private static int count(Pattern p, String text, Closeness closeness) {
    boolean lines = p == ITEM;
    Set<String> seen = new HashSet<>();
    int n = 0;
    for (String piece : lines ? List.of(text.split("\\n")) : Sentences.split(text)) {
      // Without its list marker: an item repeated under a new number is the same item.
      String key =
          ListMarkers.withoutMarker(piece.strip())
              .toLowerCase(Locale.ROOT)
              .replaceAll("[^\\p{L}\\p{N}]+", " ")
              .strip();
      if (!seen.add(key)
          || emptyStep(piece.strip())
          || (closeness != null
              && (lines ? closeness.offTopicItem(piece) : closeness.offTopic(piece)))) {
        continue;
      }
      Matcher m = p.matcher(piece);
      while (m.find()) {
        // A causal link with nothing after it ("because of various reasons") links nothing.
        if (p != CAUSE || saysSomething(piece.substring(m.end()))) {
          n++;
        }
      }
    }
    return n;
  }

  /** 0 to 1: the count against {@value #ENOUGH}. */
  double share() {
    return Math.min(1, (double) count / ENOUGH);
  }

  String describe() {
    return String.format(
        Locale.ROOT,
        "a \"%s\" question calls for %s: %s, %.0f%% (%d for full credit)",
        form,
        calledFor,
        counted,
        100 * share(),
        ENOUGH);
  }
}
