package dev.asa.evaluators.embedding;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The citations a text carries, counted by kind. Counting is all it does: whether a source exists,
 * is any good, or supports the sentence that cites it needs a judge that can read it.
 *
 * @param urls distinct web addresses (DOI links are counted as DOIs, not here)
 * @param dois distinct DOIs, bare or as doi.org links
 * @param numbered distinct numbered references, {@code [3]} or {@code [1, 4-6]}
 * @param authorYear distinct author-year citations: "Smith et al. (2024)", "(Smith and Lee, 2023)"
 * @param referenceEntries entries in a References / Bibliography / Sources section
 */
record Citations(int urls, int dois, int numbered, int authorYear, int referenceEntries) {

  private static final Pattern URL =
      Pattern.compile("https?://[^\\s<>()\\[\\]\"']+", Pattern.CASE_INSENSITIVE);
  private static final Pattern DOI = Pattern.compile("\\b10\\.\\d{4,9}/[^\\s<>\"'\\])]+");
  private static final Pattern NUMBERED =
      Pattern.compile("\\[(\\d{1,3}(?:\\s*[-–,]\\s*\\d{1,3})*)\\](?!\\()");
  private static final Pattern AUTHOR_YEAR =
      Pattern.compile(
          "\\b(\\p{Lu}[\\p{L}'-]+)(?:\\s+et\\s+al\\.?|\\s+(?:and|&)\\s+\\p{Lu}[\\p{L}'-]+)?,?\\s*\\(?((?:19|20)\\d{2})[a-z]?\\)?");
  private static final Pattern REFERENCE_HEADING =
      Pattern.compile(
          "(?im)^\\s*(?:#{1,6}\\s*)?(?:\\*\\*)?(references|bibliography|sources|works cited|citations|further reading)(?:\\*\\*)?\\s*:?\\s*$");
  private static final Pattern ENTRY =
      Pattern.compile("^\\s*(?:[-*+•]|\\[?\\d{1,3}[.)\\]]|\\p{Lu}[\\p{L}'-]+,)\\s*\\S.*");

  /** Capitalised words that look like an author before a year but are not. */
  private static final Set<String> NOT_AUTHORS =
      Set.of(
          "in",
          "since",
          "by",
          "from",
          "until",
          "during",
          "before",
          "after",
          "q1",
          "q2",
          "q3",
          "q4",
          "fy",
          "january",
          "february",
          "march",
          "april",
          "may",
          "june",
          "july",
          "august",
          "september",
          "october",
          "november",
          "december",
          "the",
          "of",
          "version",
          "python",
          "java",
          "section",
          "table",
          "figure",
          "year");

  static Citations of(String text) {
    Set<String> dois = new LinkedHashSet<>();
    Matcher d = DOI.matcher(text);
    while (d.find()) {
      dois.add(trimTrailingPunctuation(d.group()).toLowerCase(Locale.ROOT));
    }
    Set<String> urls = new LinkedHashSet<>();
    Matcher u = URL.matcher(text);
    while (u.find()) {
      String url = trimTrailingPunctuation(u.group());
      if (!DOI.matcher(url).find()) {
        urls.add(url.toLowerCase(Locale.ROOT).replaceAll("/+$", ""));
      }
    }
    Set<Integer> numbered = new LinkedHashSet<>();
    Matcher n = NUMBERED.matcher(text);
    while (n.find()) {
      for (String part : n.group(1).split(",")) {
        String[] range = part.strip().split("\\s*[-–]\\s*");
        int lo = Integer.parseInt(range[0]);
        int hi = range.length > 1 ? Integer.parseInt(range[1]) : lo;
        for (int i = lo; i <= Math.min(hi, lo + 50); i++) {
          numbered.add(i);
        }
      }
    }
    Set<String> authorYear = new LinkedHashSet<>();
    Matcher a = AUTHOR_YEAR.matcher(text);
    while (a.find()) {
      String author = a.group(1);
      String whole = a.group();
      // Without "et al.", a co-author or parentheses, "Word 2024" is usually a date ("March 2024").
      boolean cited =
          whole.contains("(")
              || whole.contains(" et al")
              || whole.contains(" and ")
              || whole.contains("&");
      // An all-capitals word before a year is usually an acronym ("GDPR (2018)"), not an author.
      boolean acronym = author.equals(author.toUpperCase(Locale.ROOT));
      if (cited && !acronym && !NOT_AUTHORS.contains(author.toLowerCase(Locale.ROOT))) {
        authorYear.add(author.toLowerCase(Locale.ROOT) + " " + a.group(2));
      }
    }
    return new Citations(
        urls.size(), dois.size(), numbered.size(), authorYear.size(), referenceEntries(text));
  }

  /** Lines that look like entries (a bullet, a number, "Surname,") after a reference heading. */
  private static int referenceEntries(String text) {
    Matcher h = REFERENCE_HEADING.matcher(text);
    if (!h.find()) {
      return 0;
    }
    int entries = 0;
    for (String line : text.substring(h.end()).split("\\n")) {
      if (line.isBlank()) {
        continue;
      }
      if (line.stripLeading().startsWith("#")) {
        break; // the next section
      }
      if (ENTRY.matcher(line).matches() || URL.matcher(line).find() || DOI.matcher(line).find()) {
        entries++;
      }
    }
    return entries;
  }

  private static String trimTrailingPunctuation(String s) {
    return s.replaceAll("[.,;:!?]+$", "");
  }

  /** Whether the text has a References / Bibliography / Sources heading. */
  boolean hasReferenceSection() {
    return referenceEntries > 0;
  }

  /**
   * How many distinct sources the text cites: the largest of the counts by kind, since one source
   * usually appears several ways (a [3] in the text, an entry and a DOI in the list), so adding
   * them would count it twice.
   */
  int sources() {
    return Math.max(Math.max(urls + dois, numbered), Math.max(authorYear, referenceEntries));
  }

  /**
   * "3 URLs, 2 DOIs, 5 numbered references [n], 1 author-year citation, a reference list of 6
   * entries"
   */
  String describe() {
    List<String> parts = new ArrayList<>();
    parts.add(plural(urls, "URL", "URLs"));
    parts.add(plural(dois, "DOI", "DOIs"));
    parts.add(plural(numbered, "numbered reference [n]", "numbered references [n]"));
    parts.add(plural(authorYear, "author-year citation", "author-year citations"));
    parts.add(
        referenceEntries == 0
            ? "no reference list"
            : "a reference list of " + plural(referenceEntries, "entry", "entries"));
    return String.join(", ", parts);
  }

  private static String plural(int n, String one, String many) {
    return n + " " + (n == 1 ? one : many);
  }
}
