package dev.asa.evaluators.offline;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The citations a text carries, counted by kind, and only those that lead somewhere: a marker
 * ({@code [3]}, "Smith et al. (2024)") counts when it resolves to an entry of the text's reference
 * list, a link or a DOI counts as itself, and an entry of the list counts when the text cites it or
 * it carries a link or a DOI. A source given twice, or ten entries that differ only by a number
 * running 1, 2, 3 ({@code https://site.org/paper1} ... {@code paper10}), count once, and a link to
 * a domain reserved for examples ({@code example.com}, {@code .test}, RFC 2606) counts for nothing.
 * Counted as marks, eight bare markers "[1][2]...[8]" after one sentence took {@code
 * source_quality} from 0 to 100 and the composite from 77.6 to 97.2.
 *
 * <p>Counting is all it does: whether a source exists, is any good, or supports the sentence that
 * cites it needs a judge that can read it.
 *
 * @param urls distinct web addresses (DOI links are counted as DOIs, not here)
 * @param dois distinct DOIs, bare or as doi.org links
 * @param numbered distinct sources cited by a numbered marker, {@code [3]} or {@code [1, 4-6]},
 *     that resolves to an entry of the reference list
 * @param authorYear distinct sources cited "Smith et al. (2024)" or "(Smith and Lee, 2023)" whose
 *     author and year an entry of the reference list carries
 * @param referenceEntries distinct entries of a References / Bibliography / Sources section that
 *     the text cites or that carry a link or a DOI
 * @param notCounted citations and entries that resolve to nothing, repeat another, follow a
 *     template or point at an example domain
 */
record Citations(
    int urls, int dois, int numbered, int authorYear, int referenceEntries, int notCounted) {

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

  /** The number an entry of a list is given: "[3] ...", "3. ...", "3) ...". */
  private static final Pattern ENTRY_NUMBER =
      Pattern.compile("^\\s*(?:[-*+•]\\s*)?\\[?(\\d{1,3})[.)\\]]");

  /** A bullet or number before an entry, left out of what the entry says. */
  private static final Pattern ENTRY_MARK =
      Pattern.compile("^\\s*(?:[-*+•]\\s*)?(?:\\[?\\d{1,3}[.)\\]])?\\s*");

  private static final Pattern DIGITS = Pattern.compile("\\d+");

  /** Hosts reserved for examples and tests (RFC 2606, RFC 6761): never where a source lives. */
  private static final Pattern EXAMPLE_HOST =
      Pattern.compile(
          "(?i)^https?://(?:[^/:?#]*\\.)?(?:example\\.(?:com|org|net)|[^/:?#]+\\.(?:example|test|invalid|localhost)|localhost)(?:[/:?#]|$)");

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
    Matcher heading = REFERENCE_HEADING.matcher(text);
    boolean listed = heading.find();
    String prose = listed ? text.substring(0, heading.start()) : text;
    List<Entry> entries = listed ? entries(text.substring(heading.end())) : List.of();
    int notCounted = 0;

    Set<String> dois = new LinkedHashSet<>();
    Matcher d = DOI.matcher(text);
    while (d.find()) {
      dois.add(trimTrailingPunctuation(d.group()).toLowerCase(Locale.ROOT));
    }
    List<String> urls = new ArrayList<>();
    Matcher u = URL.matcher(text);
    while (u.find()) {
      String url = trimTrailingPunctuation(u.group());
      if (DOI.matcher(url).find()) {
        continue;
      }
      if (EXAMPLE_HOST.matcher(url).find()) {
        notCounted++;
        continue;
      }
      urls.add(url.toLowerCase(Locale.ROOT).replaceAll("/+$", ""));
    }
    int distinctUrls = distinct(urls);
    notCounted += urls.size() - distinctUrls;

    // Markers in the prose, each resolved to the entry it names, and counted by that entry's
    // source: [1] and [2] citing the same source twice are one source.
    Set<String> byNumber = new LinkedHashSet<>();
    Matcher n = NUMBERED.matcher(prose);
    while (n.find()) {
      for (String part : n.group(1).split(",")) {
        String[] range = part.strip().split("\\s*[-–]\\s*");
        int lo = Integer.parseInt(range[0]);
        int hi = range.length > 1 ? Integer.parseInt(range[1]) : lo;
        for (int i = lo; i <= Math.min(hi, lo + 50); i++) {
          Entry entry = numbered(entries, i);
          if (entry == null) {
            notCounted++;
          } else {
            byNumber.add(entry.source());
            entry.cited = true;
          }
        }
      }
    }
    Set<String> byAuthor = new LinkedHashSet<>();
    Matcher a = AUTHOR_YEAR.matcher(prose);
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
        Entry entry = byAuthorAndYear(entries, author, a.group(2));
        if (entry == null) {
          notCounted++;
        } else {
          byAuthor.add(entry.source());
          entry.cited = true;
        }
      }
    }
    // An entry counts when the prose cites it or it carries a link or a DOI to follow; a list
    // that nothing cites and nothing locates is text anyone can make up.
    Set<String> grounded = new LinkedHashSet<>();
    for (Entry entry : entries) {
      if (entry.cited || entry.locates()) {
        grounded.add(entry.source());
      }
    }
    notCounted += entries.size() - grounded.size();
    return new Citations(
        distinctUrls, dois.size(), byNumber.size(), byAuthor.size(), grounded.size(), notCounted);
  }

  /** An entry of the reference list, and whether the prose cites it. */
  private static final class Entry {
    final String line;
    final Integer number;

    /** What the entry says, with its repeats and its templated siblings made one (see below). */
    String source;

    boolean cited;

    Entry(String line) {
      this.line = line;
      Matcher m = ENTRY_NUMBER.matcher(line);
      this.number = m.find() ? Integer.parseInt(m.group(1)) : null;
      this.source = said(line);
    }

    String source() {
      return source;
    }

    /** Whether the entry carries something to follow to its source: a link or a DOI. */
    boolean locates() {
      if (DOI.matcher(line).find()) {
        return true;
      }
      Matcher u = URL.matcher(line);
      while (u.find()) {
        if (!EXAMPLE_HOST.matcher(u.group()).find()) {
          return true;
        }
      }
      return false;
    }

    static String said(String line) {
      return ENTRY_MARK
          .matcher(line)
          .replaceFirst("")
          .toLowerCase(Locale.ROOT)
          .replaceAll("[\\s.,;:]+", " ")
          .strip();
    }
  }

  /** Lines that look like entries (a bullet, a number, "Surname,") after a reference heading. */
  private static List<Entry> entries(String list) {
    List<Entry> entries = new ArrayList<>();
    for (String line : list.split("\\n")) {
      if (line.isBlank()) {
        continue;
      }
      if (line.stripLeading().startsWith("#")) {
        break; // the next section
      }
      if (ENTRY.matcher(line).matches() || URL.matcher(line).find() || DOI.matcher(line).find()) {
        entries.add(new Entry(line));
      }
    }
    List<String> said = entries.stream().map(e -> e.source).toList();
    Map<String, String> templates = templated(said);
    for (Entry e : entries) {
      e.source = templates.getOrDefault(e.source, e.source);
    }
    return entries;
  }

  /** The entry a marker [n] names: the one numbered n, or in an unnumbered list the n-th. */
  private static Entry numbered(List<Entry> entries, int n) {
    for (Entry e : entries) {
      if (e.number != null && e.number == n) {
        return e;
      }
    }
    boolean unnumbered = entries.stream().allMatch(e -> e.number == null);
    return unnumbered && n >= 1 && n <= entries.size() ? entries.get(n - 1) : null;
  }

  /** The entry that names this author and year, or null. */
  private static Entry byAuthorAndYear(List<Entry> entries, String author, String year) {
    String surname = author.toLowerCase(Locale.ROOT);
    for (Entry e : entries) {
      String line = e.line.toLowerCase(Locale.ROOT);
      if (line.contains(surname) && line.contains(year)) {
        return e;
      }
    }
    return null;
  }

  /**
   * How many distinct sources the texts name, once those that differ only by a number running 1, 2,
   * 3 are made one ({@link #templated}).
   */
  private static int distinct(List<String> texts) {
    Map<String, String> templates = templated(texts);
    Set<String> sources = new LinkedHashSet<>();
    for (String t : texts) {
      sources.add(templates.getOrDefault(t, t));
    }
    return sources.size();
  }

  /**
   * Texts of one template, the same once each run of digits is read as "#", whose numbers run
   * consecutively (paper1, paper2, paper3 ...), mapped to that template: three or more such are one
   * source made many by counting, not many sources. Real sources of one shape (arXiv ids, years of
   * one report) do not run 1, 2, 3 and stay apart.
   */
  private static Map<String, String> templated(List<String> texts) {
    Map<String, Set<String>> byTemplate = new HashMap<>();
    for (String t : new LinkedHashSet<>(texts)) {
      byTemplate.computeIfAbsent(DIGITS.matcher(t).replaceAll("#"), k -> new TreeSet<>()).add(t);
    }
    Map<String, String> out = new HashMap<>();
    for (Map.Entry<String, Set<String>> group : byTemplate.entrySet()) {
      if (group.getValue().size() >= 3 && runsConsecutively(group.getValue())) {
        group.getValue().forEach(t -> out.put(t, "template " + group.getKey()));
      }
    }
    return out;
  }

  /** Whether the last numbers of the texts, sorted, are consecutive integers. */
  private static boolean runsConsecutively(Set<String> texts) {
    long[] last = new long[texts.size()];
    int i = 0;
    for (String t : texts) {
      Matcher m = DIGITS.matcher(t);
      String found = null;
      while (m.find()) {
        found = m.group();
      }
      if (found == null || found.length() > 9) {
        return false;
      }
      last[i++] = Long.parseLong(found);
    }
    java.util.Arrays.sort(last);
    for (i = 1; i < last.length; i++) {
      if (last[i] != last[i - 1] + 1) {
        return false;
      }
    }
    return true;
  }

  private static String trimTrailingPunctuation(String s) {
    return s.replaceAll("[.,;:!?]+$", "");
  }

  /** Whether the text has a reference list with an entry that counts. */
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
    if (notCounted > 0) {
      parts.add(
          plural(notCounted, "citation", "citations")
              + " not counted (resolving to no entry of a reference list, repeated, templated,"
              + " or an example domain)");
    }
    return String.join(", ", parts);
  }

  private static String plural(int n, String one, String many) {
    return n + " " + (n == 1 ? one : many);
  }
}
