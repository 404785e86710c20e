package dev.asa.evaluators.embedding;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The request's specific terms (identifiers such as {@code units_sold}, numbers, acronyms, and
 * capitalised names in mid-sentence such as "Enterprise" or "Route 14") and which of them the
 * deliverable contains as whole words. Similarity blurs exactly these: a CSV with two of the four
 * regions asked for reads as much like the request as one with all four.
 *
 * @param found terms present in the deliverable, in request order
 * @param missing terms absent from it
 */
record KeyTerms(List<String> found, List<String> missing) {

  static final int MAX_TERMS = 30;

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
    List<String> found = new ArrayList<>();
    List<String> missing = new ArrayList<>();
    for (String term : terms) {
      if (found.size() + missing.size() == MAX_TERMS) {
        break;
      }
      Pattern whole =
          Pattern.compile(
              "(?<![\\p{L}\\p{N}])"
                  + Pattern.quote(term.toLowerCase(Locale.ROOT))
                  + "(?![\\p{L}\\p{N}])");
      (whole.matcher(haystack).find() ? found : missing).add(term);
    }
    return new KeyTerms(List.copyOf(found), List.copyOf(missing));
  }

  private static void add(Set<String> terms, Matcher m) {
    while (m.find()) {
      if (!IGNORED.contains(m.group().toLowerCase(Locale.ROOT))) {
        terms.add(m.group());
      }
    }
  }

  int total() {
    return found.size() + missing.size();
  }

  /** Share found, 0 to 1. */
  double share() {
    return total() == 0 ? 0 : (double) found.size() / total();
  }
}
