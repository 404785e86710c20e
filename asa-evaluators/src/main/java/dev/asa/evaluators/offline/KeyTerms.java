package dev.asa.evaluators.offline;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * The request's specific terms (identifiers such as {@code units_sold}, numbers, acronyms, and
 * capitalised names in mid-sentence such as "Enterprise" or "Route 14") and which of them the
 * deliverable contains as whole words. Similarity blurs exactly these: a CSV with two of the four
 * regions asked for reads as much like the request as one with all four.
 *
 * <p>An acronym of {@value #SPELLED_OUT_LETTERS} letters or more is also found spelled out: "SAN"
 * in "the subject alternative name entries", as an answer that explains a term is apt to write it.
 * The words must follow one another, each a content word whose initial is the next letter; with
 * three letters or more, words that do so by chance are rare, and writing them out is no cheaper
 * than writing the acronym.
 *
 * @param found terms present in the deliverable, in request order
 * @param missing terms absent from it
 * @param spelledOut each acronym found only spelled out, to the words that spell it
 */
record KeyTerms(List<String> found, List<String> missing, Map<String, String> spelledOut) {

  static final int MAX_TERMS = 30;

  /** The shortest acronym looked for spelled out: two initials in a row happen by chance. */
  static final int SPELLED_OUT_LETTERS = 3;

  private static final Pattern LETTERS = Pattern.compile("\\p{L}+");
  private static final Pattern ACRONYM_LETTERS = Pattern.compile("\\p{Lu}+");

  private static final Pattern IDENTIFIER =
      Pattern.compile("\\b[A-Za-z][A-Za-z0-9]*(?:_[A-Za-z0-9]+)+\\b|\\b[a-z]+[A-Z][A-Za-z0-9]*\\b");
  private static final Pattern NUMBER = Pattern.compile("(?<![\\d.,])\\d+(?:[.:]\\d+)?(?![\\d])");
  private static final Pattern ACRONYM = Pattern.compile("\\b[A-Z][A-Z0-9]{1,}\\b");
  private static final Pattern NAME = Pattern.compile("(?<=[\\s(\"'])\\p{Lu}\\p{Ll}+");

  /**
   * Names of languages and formats: a request says "in Python" or "as JSON", a good answer need
   * not.
   */
  private static final Set<String> IGNORED =
      Set.of(
          "python",
          "java",
          "javascript",
          "typescript",
          "go",
          "rust",
          "kotlin",
          "sql",
          "json",
          "csv",
          "yaml",
          "xml",
          "html",
          "markdown",
          "pdf",
          "english",
          "french",
          "spanish",
          "german",
          "italian",
          "portuguese",
          "chinese",
          "japanese",
          "i");

  static KeyTerms of(List<String> requestParts, String deliverable) {
    Set<String> terms = new LinkedHashSet<>();
    for (String part : requestParts) {
      add(terms, IDENTIFIER.matcher(part));
      add(terms, ACRONYM.matcher(part));
      add(terms, NAME.matcher(part));
      Matcher n = NUMBER.matcher(part);
      while (n.find()) {
        if (n.group().length() >= 2) { // single digits are as often "3 examples" as data
          terms.add(n.group());
        }
      }
    }
    String haystack = deliverable.toLowerCase(Locale.ROOT);
    List<String> words = null; // the deliverable's words, read once an acronym needs them
    List<String> found = new ArrayList<>();
    List<String> missing = new ArrayList<>();
    Map<String, String> spelledOut = new LinkedHashMap<>();
    for (String term : terms) {
      if (found.size() + missing.size() == MAX_TERMS) {
        break;
      }
      Pattern whole =
          Pattern.compile(
              "(?<![\\p{L}\\p{N}])"
                  + Pattern.quote(term.toLowerCase(Locale.ROOT))
                  + "(?![\\p{L}\\p{N}])");
      if (whole.matcher(haystack).find()) {
        found.add(term);
        continue;
      }
      String spelled = null;
      if (term.length() >= SPELLED_OUT_LETTERS && ACRONYM_LETTERS.matcher(term).matches()) {
        words = words != null ? words : letterWords(haystack);
        spelled = spelledOut(term.toLowerCase(Locale.ROOT), words);
      }
      if (spelled != null) {
        found.add(term);
        spelledOut.put(term, spelled);
      } else {
        missing.add(term);
      }
    }
    return new KeyTerms(
        List.copyOf(found), List.copyOf(missing), Collections.unmodifiableMap(spelledOut));
  }

  /** The runs of letters, lower case: "public-key" is two words here, as its initials are two. */
  private static List<String> letterWords(String lowerCase) {
    List<String> words = new ArrayList<>();
    Matcher m = LETTERS.matcher(lowerCase);
    while (m.find()) {
      words.add(m.group());
    }
    return words;
  }

  /** The first run of content words whose initials spell the acronym, or null. */
  private static String spelledOut(String acronym, List<String> words) {
    int n = acronym.length();
    for (int start = 0; start + n <= words.size(); start++) {
      int k = 0;
      while (k < n
          && words.get(start + k).charAt(0) == acronym.charAt(k)
          && !ScoredText.small(words.get(start + k))) {
        k++;
      }
      if (k == n) {
        return String.join(" ", words.subList(start, start + n));
      }
    }
    return null;
  }

  private static void add(Set<String> terms, Matcher m) {
    while (m.find()) {
      if (!IGNORED.contains(m.group().toLowerCase(Locale.ROOT))) {
        terms.add(m.group());
      }
    }
  }

  /** What the evidence says of the terms found only spelled out: {@code SAN as "subject ..."}. */
  String describeSpelledOut() {
    return spelledOut.entrySet().stream()
        .map(e -> e.getKey() + " as \"" + e.getValue() + "\"")
        .collect(Collectors.joining(", "));
  }

  int total() {
    return found.size() + missing.size();
  }

  /** Share found, 0 to 1. */
  double share() {
    return total() == 0 ? 0 : (double) found.size() / total();
  }
}
