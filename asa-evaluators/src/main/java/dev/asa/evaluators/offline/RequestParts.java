package dev.asa.evaluators.offline;

import dev.asa.evaluators.text.Sentences;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The separate asks of a request, for the coverage check: bullet and numbered items, sentences;
 * inside a sentence, clauses that begin with an instruction verb ("summarize X, compare Y and
 * recommend Z" is three asks); and the items of a list after a colon or of three or more
 * comma-separated items ("what to back up, how often, where to keep the copies").
 *
 * @param content the parts whose coverage similarity can measure, in request order
 * @param citation parts that ask for citations or references ("cite your sources"): a reference
 *     list looks nothing like the words "cite your sources", so these are checked by counting
 *     citations
 * @param form parts about the form rather than the content ("keep it under 800 words", "use
 *     markdown"): similarity cannot tell whether they were followed, so they are listed and skipped
 */
record RequestParts(List<String> content, List<String> citation, List<String> form) {

  /** A request longer than this is cut: past some point the parts are source text, not asks. */
  static final int MAX_PARTS = 40;

  /**
   * A clause shorter than this has too little to embed on its own; it stays with the one before,
   * unless it is an item of a list after a colon, which names a part ({@link Piece#named}).
   */
  static final int MIN_WORDS = 3;

  private static final Pattern BULLET =
      Pattern.compile("^\\s*(?:[-*+•]|\\d{1,3}[.)]|\\(?[a-z][.)])\\s+");

  /** Instruction verbs that start a new ask after a comma, a colon, "and" or a semicolon. */
  private static final Pattern ASK =
      Pattern.compile(
          "(?i)(?:[,:]\\s*(?:and\\s+|then\\s+)?|;\\s*(?:and\\s+)?|\\s+and\\s+(?:then\\s+)?|\\s+then\\s+)"
              + "(?=(?:also\\s+)?(?:summari[sz]e|compare|contrast|explain|describe|list|include|provide|give|recommend|suggest"
              + "|propose|identify|discuss|cover|add|write|implement|handle|return|translate|keep|outline|analy[sz]e"
              + "|estimate|report|show|note|evaluate|assess|document|test|flag|check|calculate|compute|review|point out"
              + "|highlight|rank|group|plot|define|justify|cite|quantify|break down|mention|preserve|validate|sort|reject|log)\\b)");

  private static final Pattern FORM =
      Pattern.compile(
          "(?i)\\b(?:(?:under|at most|no more than|within|less than|fewer than|maximum of|max\\.?|about|around|roughly)\\s+[\\d,]+\\s*(?:words?|pages?|lines?|tokens?|characters?|paragraphs?|bullets?)"
              + "|(?:in|as|use|using|with|format(?:ted)? as)\\s+(?:markdown|json|csv|yaml|html|plain text|a table|bullet points|headings)"
              + "|(?:formal|informal|neutral|friendly|professional)\\s+(?:tone|register)|\\bdeadline\\b)");

  private static final Pattern CITATION =
      Pattern.compile("(?i)\\b(?:cite|citations?|references?|bibliography|sources)\\b");

  static RequestParts of(String request) {
    List<String> content = new ArrayList<>();
    List<String> citation = new ArrayList<>();
    List<String> form = new ArrayList<>();
    for (String sentence : Sentences.split(request)) {
      String item = BULLET.matcher(sentence).replaceFirst("");
      for (String clause : clauses(item)) {
        if (isForm(clause)) {
          form.add(clause);
        } else if (isCitation(clause)) {
          citation.add(clause);
        } else if (content.size() < MAX_PARTS) {
          content.add(clause);
        }
      }
    }
    return new RequestParts(List.copyOf(content), List.copyOf(citation), List.copyOf(form));
  }

  static List<String> clauses(String sentence) {
    List<Piece> pieces = new ArrayList<>();
    for (String ask : ASK.split(sentence)) {
      pieces.addAll(listItems(ask));
    }
    List<String> out = new ArrayList<>();
    for (Piece piece : pieces) {
      String clause =
          piece
              .text()
              .strip()
              .replaceAll("^(?:and|or)\\s+", "")
              .replaceAll("^[,;:]\\s*|[,;:.]$", "")
              .strip();
      if (clause.isEmpty()) {
        continue;
      }
      if (!piece.named() && !out.isEmpty() && Sentences.wordCount(clause) < MIN_WORDS) {
        out.set(out.size() - 1, out.getLast() + ", " + clause);
      } else {
        out.add(clause);
      }
    }
    // A lead-in shorter than the minimum ("Please:") joins the clause after it.
    if (out.size() > 1 && Sentences.wordCount(out.getFirst()) < MIN_WORDS) {
      out.set(1, out.getFirst() + " " + out.get(1));
      out.removeFirst();
    }
    return out;
  }

  /**
   * A piece of a sentence that may be an ask of its own.
   *
   * @param named an item of a list the request introduces with a colon ("the validity period,
   *     hostname matching against the SAN, and revocation"): each names a part to cover, however
   *     short, so it stands alone rather than joining the clause before it
   */
  private record Piece(String text, boolean named) {}

  /**
   * The items of a list: after a colon, everything comma-separated; without one, only a list of
   * three or more (two commas), since one comma is as often a pause as a list. Commas inside
   * brackets ("(North, South, East, West)") never split. The items after a colon are named parts
   * when each has a word of letters: "November 29, 2020" after a colon is a date, not two parts.
   */
  private static List<Piece> listItems(String clause) {
    int colon = indexOutsideBrackets(clause, ':');
    if (colon > 0) {
      List<String> items = splitOutsideBrackets(clause.substring(colon + 1), ',');
      boolean named = items.size() > 1 && items.stream().allMatch(RequestParts::hasLetters);
      List<Piece> out = new ArrayList<>();
      out.add(new Piece(clause.substring(0, colon), false));
      items.forEach(item -> out.add(new Piece(item, named)));
      return out;
    }
    List<String> commas = splitOutsideBrackets(clause, ',');
    return (commas.size() >= 3 ? commas : List.of(clause))
        .stream().map(piece -> new Piece(piece, false)).toList();
  }

  private static boolean hasLetters(String item) {
    return Sentences.words(item).stream().anyMatch(w -> w.chars().anyMatch(Character::isLetter));
  }

  private static List<String> splitOutsideBrackets(String s, char separator) {
    List<String> out = new ArrayList<>();
    int depth = 0;
    int start = 0;
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      if (c == '(' || c == '[') {
        depth++;
      } else if ((c == ')' || c == ']') && depth > 0) {
        depth--;
      } else if (c == separator && depth == 0) {
        out.add(s.substring(start, i));
        start = i + 1;
      }
    }
    out.add(s.substring(start));
    return out;
  }

  private static int indexOutsideBrackets(String s, char target) {
    int depth = 0;
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      if (c == '(' || c == '[') {
        depth++;
      } else if ((c == ')' || c == ']') && depth > 0) {
        depth--;
      } else if (c == target
          && depth == 0
          && i + 1 < s.length()
          && Character.isWhitespace(s.charAt(i + 1))) {
        return i;
      }
    }
    return -1;
  }

  /**
   * A short clause that asks only for a length, a format or a tone: little is left once that is
   * removed.
   */
  private static boolean isForm(String clause) {
    Matcher m = FORM.matcher(clause.toLowerCase(Locale.ROOT));
    return m.find() && Sentences.wordCount(m.replaceAll(" ")) <= 3;
  }

  private static boolean isCitation(String clause) {
    return Sentences.wordCount(clause) <= 8 && CITATION.matcher(clause).find();
  }

  /** All the asks, of every kind. */
  int asks() {
    return content.size() + citation.size();
  }

  boolean single() {
    return asks() == 1;
  }
}
