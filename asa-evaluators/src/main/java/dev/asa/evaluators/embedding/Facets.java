package dev.asa.evaluators.embedding;

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
  private static final Pattern CAUSE =
      Pattern.compile(
          "(?i)\\b(?:because|since|due to|as a result|so that|leads? to|causes?|caused by|therefore|thus|hence|which means|results? in|in order to)\\b");

  /** The facets the question calls for, or empty when its form is neither "how" nor "list". */
  static Optional<Facets> of(String question, String answer) {
    if (HOW.matcher(question).find()) {
      int items = count(ITEM, answer);
      int sequence = count(SEQUENCE, answer);
      int causes = count(CAUSE, answer);
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
      int items = count(ITEM, answer);
      return Optional.of(new Facets("list", "several items", items, items + " list items"));
    }
    return Optional.empty();
  }

  /**
   * Occurrences of the pattern, each distinct line (for list items) or sentence counted once, so
   * that repeating a step or a list item never raises the count.
   */
  private static int count(Pattern p, String text) {
    boolean lines = p == ITEM;
    Set<String> seen = new HashSet<>();
    int n = 0;
    for (String piece : lines ? List.of(text.split("\\n")) : Sentences.split(text)) {
      String key =
          piece.strip().toLowerCase(Locale.ROOT).replaceAll("[^\\p{L}\\p{N}]+", " ").strip();
      if (!seen.add(key)) {
        continue;
      }
      Matcher m = p.matcher(piece);
      while (m.find()) {
        n++;
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
