package dev.asa.evaluators.offline;

import com.fasterxml.jackson.core.JsonProcessingException;
import dev.asa.evaluators.text.CodeFences;
import dev.asa.evaluators.text.Languages;
import dev.asa.evaluators.text.ParsedText;
import dev.asa.evaluators.text.Sentences;
import dev.asa.evaluators.text.Structure;
import dev.asa.json.Json;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The request's explicit, countable instructions and whether the deliverable follows them: a length
 * in words, sentences or paragraphs ("in under 50 words", "in one sentence"), as a floor, a range
 * or a size to aim at ("at least 500 words", "3-5 sentences", "a 30 word description"), a summary
 * shorter than the text it summarizes, a number of items ("list 3 ..."), a required layout (JSON,
 * CSV, a table, bullet points, a numbered list), a title ("with a title and a summary"), "start
 * every sentence with X", "do not use the word X". Similarity cannot see any of these: an answer of
 * 400 words reads as much like "describe X in 50 words" as one of 50.
 *
 * <p>The language asked for ("answer in French", "translate ... into German") is checked too, when
 * the answer is long enough for {@link Languages} to tell, and so are plain words for a reader ("so
 * a 10 year old can understand", "in simple terms"), by Flesch reading ease ({@link Readability}).
 *
 * <p>Only instructions a pattern states unambiguously are checked; anything else about form (tone,
 * style) is left to a judge and stays out of the count, so an answer is never marked down for an
 * instruction this class only guessed at.
 *
 * @param checks one per instruction found, in request order
 */
record Constraints(List<Check> checks) {

  /** One instruction and its outcome. */
  record Check(String instruction, boolean met, String measured) {}

  private static final String NUMBER =
      "(\\d{1,4}|one|two|three|four|five|six|seven|eight|nine|ten|a single|a)";

  private static final Map<String, Integer> WORD_NUMBERS =
      Map.ofEntries(
          Map.entry("a", 1),
          Map.entry("a single", 1),
          Map.entry("one", 1),
          Map.entry("two", 2),
          Map.entry("three", 3),
          Map.entry("four", 4),
          Map.entry("five", 5),
          Map.entry("six", 6),
          Map.entry("seven", 7),
          Map.entry("eight", 8),
          Map.entry("nine", 9),
          Map.entry("ten", 10));

  /**
   * "in under 50 words", "no more than two sentences", "in one paragraph", "in 3 sentences", "in
   * four lines".
   */
  private static final Pattern LIMIT =
      Pattern.compile(
          "(?i)\\b(in|under|below|at most|no more than|not more than|less than|fewer than|within|up to|maximum of|max\\.?|(?:in|using|with) (?:less|fewer) than|(?:in|using) (?:at most|no more than|under|only|just|exactly))\\s+"
              + NUMBER
              + "\\s+(words?|sentences?|paragraphs?|lines?)\\b");

  private static final String UNIT = "(words?|sentences?|paragraphs?|lines?)\\b";

  /** A number of words may be written with a thousands separator: "6,000 words". */
  private static final String AMOUNT = "(\\d{1,3}(?:,\\d{3})+|" + NUMBER.substring(1);

  /**
   * A limit stated otherwise: "limited to 200 words", "max 300 words", "word limit is 250", "must
   * not exceed 100 words", "100 words or less".
   */
  private static final Pattern LIMIT_MORE =
      Pattern.compile(
          "(?i)\\b(?:(?:limited|restricted|kept|capped) to|(?:not |never )?exceed(?:ing)?|maximum(?: of)?|max\\.?|no longer than|shorter than)\\s+"
              + AMOUNT
              + "\\s+"
              + UNIT
              + "|\\b(word|sentence|paragraph|line) (?:limit|count) (?:is|of)\\s+"
              + AMOUNT
              + "|\\b"
              + AMOUNT
              + "\\s+"
              + UNIT
              + "\\s+(?:or (?:less|fewer)|max(?:imum)?)\\b");

  /** A floor: "at least 500 words", "a minimum of 3 paragraphs", "no fewer than 5 sentences". */
  private static final Pattern FLOOR =
      Pattern.compile(
          "(?i)\\b(?:at least|minimum(?: of)?|min\\.?|no (?:less|fewer) than|not (?:less|fewer) than)\\s+"
              + AMOUNT
              + "\\s+"
              + UNIT);

  /**
   * A size to aim at: "a 30 word description", "a 100-word article", "a three paragraph biography",
   * "a 5-sentence story", "about 500 words", "approximately 6,000 words", or a range, "a 3-5
   * sentence description", "between 750 and 1000 words", "1 to 2 sentences".
   */
  private static final Pattern SIZE =
      Pattern.compile(
          "(?i)\\b(?:(?:between\\s+)?"
              + AMOUNT
              + "\\s*(?:-|–|to|and)\\s*"
              + AMOUNT
              + "[\\s-]+"
              + UNIT
              + "|(?:about|around|approximately|roughly|some|circa|of)\\s+"
              + AMOUNT
              + "\\s+"
              + UNIT
              + "|(?:a|an|the|one|your)\\s+"
              + AMOUNT
              + "[\\s-](word|sentence|paragraph|line)\\b(?=\\s+[a-z]))");

  /** "list 3 ...", "give me five examples", "name two ...", "provide 4 tips". */
  private static final Pattern COUNT =
      Pattern.compile(
          "(?i)\\b(?:list|give(?: me)?|name|provide|suggest|write|generate|come up with|create|identify|recommend|offer)\\s+(?:exactly\\s+)?(\\d{1,2}|two|three|four|five|six|seven|eight|nine|ten)\\s+(?![a-z]*\\s*(?:words?|sentences?|paragraphs?|lines?)\\b)([a-z-]+)");

  private static final Pattern JSON =
      Pattern.compile(
          "(?i)\\b(?:in|as|into|using|valid|output|return|format(?:ted)?(?: as| in)?)\\s+(?:a\\s+)?json\\b");

  /** "Return the results as a CSV string", "formatted as CSV", "produce a CSV of ...". */
  private static final Pattern CSV =
      Pattern.compile(
          "(?i)\\b(?:in|as|into|using|output|return|format(?:ted)?(?: as| in)?|produce|write"
              + "|create|generate|give me)\\s+(?:an?\\s+)?csv\\b");

  /**
   * Characters of code, never of a row of values: "high, low = prices(month)" is a line of a
   * program that would build the CSV, not the CSV.
   */
  private static final Pattern CODE_CHARACTERS = Pattern.compile("[=(){};<>\\[\\]]");

  /** Lines of comma-separated values sharing one count of fields that make a CSV. */
  static final int CSV_ROWS = 2;

  private static final Pattern TABLE =
      Pattern.compile(
          "(?i)\\b(?:in|as|into|using|create|make|draw|format(?:ted)? as)\\s+(?:a\\s+)?(?:markdown\\s+)?table\\b");
  private static final Pattern BULLETS =
      Pattern.compile(
          "(?i)\\b(?:in|as|using|with|use)\\s+(?:a\\s+)?(?:bullet(?:ed)?\\s*(?:points?|list)|bullets)\\b");
  private static final Pattern NUMBERED =
      Pattern.compile("(?i)\\b(?:in|as|using|with|use)\\s+(?:a\\s+)?numbered\\s+list\\b");

  /** "with a title", "include a catchy title", "give it a title", "a title and a summary". */
  private static final Pattern TITLE =
      Pattern.compile(
          "(?i)\\b(?:with|include|including|includes|give it|add)\\s+(?:a|an)\\s+(?:[a-z]+\\s+)?title\\b"
              + "|\\ba\\s+title\\s+and\\s+(?:a|an)\\b");

  /**
   * A title line: labelled ("Title: ..."), a markdown heading, bold, or a short line without a
   * closing stop at the head of the answer with more after it.
   */
  private static final Pattern TITLE_LINE =
      Pattern.compile("(?i)^\\s*(?:title\\s*:|#{1,6}\\s+\\S|\\*\\*[^*]+\\*\\*\\s*$)");

  /** A title is a heading, not a sentence: at most this many words. */
  static final int TITLE_WORDS = 12;

  private static final Pattern START =
      Pattern.compile(
          "(?i)\\b(?:start|begin)s?\\s+(?:each|every|all)\\s+(?:of\\s+(?:the|your)\\s+)?sentences?\\s+with\\s+(?:the\\s+(?:word|letter)\\s+)?[\"'“‘]?([\\p{L}\\p{N}]+)");
  private static final Pattern AVOID =
      Pattern.compile(
          "(?i)\\b(?:do not|don't|never|without)\\s+(?:use|using|mention|mentioning|include|including|say|saying)\\s+(?:the\\s+(?:word|term|phrase)s?\\s+)[\"'“‘]?([\\p{L}\\p{N}][\\p{L}\\p{N} -]{0,30}?)[\"'”’]?(?=[\\s.,;!?)]|$)");

  private static final String LANGUAGE_NAME = "(" + String.join("|", Languages.known()) + ")";

  /**
   * "answer in French", "respond only in Spanish", "reply in German", "write it in Italian",
   * "translate ... into Portuguese", "in Dutch only", "your answer must be in Japanese". A language
   * named in passing ("what is 'hello' in French?") is not an instruction about the answer.
   */
  private static final Pattern LANGUAGE =
      Pattern.compile(
          "(?i)\\b(?:(?:answer|respond|reply|write|explain|summari[sz]e)"
              + "(?:\\s+(?:it|this|everything|only|entirely))*\\s+in\\s+"
              + "|translate\\b[^.?!\\n]{0,200}?\\b(?:into|to)\\s+"
              + "|(?:answer|response|reply)\\s+(?:should|must)\\s+be\\s+(?:written\\s+)?in\\s+)"
              + LANGUAGE_NAME
              + "\\b|\\b(?:in|using)\\s+"
              + LANGUAGE_NAME
              + "\\s+only\\b");

  private static final Pattern TABLE_ROW = Pattern.compile("(?m)^\\s*\\|.*\\|\\s*$");

  /**
   * A stated number of words is met up to a fifth over ("in 50 words" is rarely meant to the word);
   * sentences and paragraphs are counted exactly.
   */
  static final int WORD_SLACK_DIVISOR = 5;

  /** A request to summarize its text: "summarize the following post", "TL;DR". */
  private static final Pattern SUMMARIZE =
      Pattern.compile("(?i)\\b(?:summari[sz]e|summary|tl;?dr)\\b");

  /**
   * A request to make its text shorter, not to summarize it: "condense the language and sentence
   * structures of this essay while retaining its depth of thought" asks for the same essay in fewer
   * words, and a version three quarters as long is one.
   */
  private static final Pattern SHORTEN = Pattern.compile("(?i)\\b(?:shorten|condense)\\b");

  /**
   * A summary is at most this share of the text it summarizes: past it, the text is given back
   * rather than summarized.
   */
  static final double SUMMARY_SHARE = 0.5;

  /**
   * A reader who needs plain words: "so a 5 year old can understand", "explain it to a child", "for
   * a 10-year-old", "like I'm five", "ELI5". Only phrasings that name the reader: "fun things for
   * kids" names a topic, and is not read.
   */
  private static final Pattern CHILD_READER =
      Pattern.compile(
          "(?i)\\b(?:so|such)\\s+(?:that\\s+)?(?:a|an|my|any)\\s+(?:\\d{1,2}|five|six|seven|eight|nine"
              + "|ten|eleven|twelve)[\\s-]+years?[\\s-]+old\\s+(?:child\\s+|kid\\s+)?(?:can|could|would"
              + "|will)\\s+understand"
              + "|\\b(?:so|such)\\s+(?:that\\s+)?(?:a|an|my|any)\\s+(?:child|kid|toddler)\\s+(?:can|could"
              + "|would|will)\\s+understand"
              + "|\\b(?:explain|describe|teach)\\b[^.?!\\n]{0,80}?\\bto\\s+(?:a|an|my)\\s+(?:child|kid"
              + "|\\d{1,2}[\\s-]+years?[\\s-]+old)\\b"
              + "|\\bfor\\s+(?:a|an)\\s+(?:[1-9]|1[0-2]|five|six|seven|eight|nine|ten|eleven|twelve)"
              + "[\\s-]+years?[\\s-]+old\\b"
              + "|\\blike\\s+(?:i'?m|i\\s+am)\\s+(?:five|5|a\\s+child)\\b|\\beli5\\b");

  /**
   * Plain words asked for without naming a reader: "in simple terms", "in plain English", "in
   * layman's terms", "easy to understand", or a request to simplify a text it hands over.
   */
  private static final Pattern PLAIN_WORDS =
      Pattern.compile(
          "(?i)\\bin\\s+(?:simple|simpler|plain|everyday|easy|layman'?s'?|lay)\\s+(?:terms|words"
              + "|language|english)\\b|\\b(?:easy|easier)\\s+to\\s+(?:understand|read)\\b"
              + "|\\bsimplify\\s+(?:the\\s+following\\s+|this\\s+|the\\s+|my\\s+)?(?:\\w+\\s+)?(?:text"
              + "|article|paragraph|passage|language|wording|explanation|sentences?|post|story)\\b");

  /**
   * Flesch reading ease an answer for a child needs at least: below 50 the formula calls a text
   * difficult (college level). Lenient on purpose: the check marks down only what plainly ignores
   * the reader, since the ease is an estimate (syllables by vowel groups).
   */
  static final double CHILD_EASE = 50;

  /** Below this the formula calls a text very difficult (a graduate's reading). */
  static final double PLAIN_EASE = 30;

  /** A text reworked for a plainer reader must read at least this much easier than it did. */
  static final double EASIER_BY = 10;

  /** Fewer words of prose than this say too little for a reading ease. */
  static final int EASE_MIN_WORDS = 30;

  /**
   * As {@link #of(String, String)} on the instruction, and, when it asks for the text it hands over
   * to be summarized or shortened, whether the answer is shorter than that text: a post retold at
   * full length in other words covers it as well as a summary does. A request for plain words is
   * checked by reading ease, against the text handed over when there is one.
   */
  static Constraints of(Material request, String deliverable) {
    return of(request, deliverable, deliverable);
  }

  /**
   * As {@link #of(Material, String)}, with the layout asked for (JSON, CSV, a table, bullet points,
   * a numbered list) read on the deliverable as delivered: a JSON whose lines are made of the
   * request's words is JSON all the same, though those lines are taken out before the rest is
   * measured ({@link ScoredText}). Sizes, counts and the rest are read on what is scored, so that
   * restating the request meets no floor.
   *
   * @param scored the text scored
   * @param delivered the text as its reader sees it
   */
  static Constraints of(Material request, String scored, String delivered) {
    List<Check> all = new ArrayList<>(of(request.instruction(), scored, delivered).checks());
    shorterThanItsText(request, scored).ifPresent(all::add);
    plainWords(request, scored).ifPresent(all::add);
    return new Constraints(List.copyOf(all));
  }

  /**
   * Whether a summary of the text the request hands over is at most half as long as that text, and
   * a text it asks to shorten shorter than it was.
   */
  private static Optional<Check> shorterThanItsText(Material request, String deliverable) {
    if (!request.present()) {
      return Optional.empty();
    }
    String instruction = request.instruction();
    int source = Sentences.wordCount(request.text());
    int measured = Sentences.wordCount(deliverable);
    if (SUMMARIZE.matcher(instruction).find()) {
      return Optional.of(
          new Check(
              String.format(
                  Locale.ROOT,
                  "shorter than the text it summarizes (at most half its %d words)",
                  source),
              measured <= source * SUMMARY_SHARE,
              counted(measured, "words")));
    }
    if (SHORTEN.matcher(instruction).find()) {
      return Optional.of(
          new Check(
              String.format(
                  Locale.ROOT, "shorter than the text it shortens (its %d words)", source),
              measured < source,
              counted(measured, "words")));
    }
    return Optional.empty();
  }

  /**
   * Whether an answer asked to be plain reads plainly: Flesch reading ease at least {@value
   * #CHILD_EASE} for a child, {@value #PLAIN_EASE} for plain words, and, when the request hands
   * over a text to rework, {@value #EASIER_BY} points easier than that text. Fenced code is left
   * out of both, and nothing is checked when the answer has too little prose to measure.
   */
  private static Optional<Check> plainWords(Material request, String deliverable) {
    String instruction = request.instruction();
    Matcher child = CHILD_READER.matcher(instruction);
    Matcher plain = PLAIN_WORDS.matcher(instruction);
    boolean forChild = child.find();
    if (!forChild && !plain.find()) {
      return Optional.empty();
    }
    Readability answer = Readability.of(prose(deliverable));
    if (!answer.hasProse() || answer.words() < EASE_MIN_WORDS) {
      return Optional.empty();
    }
    double floor = forChild ? CHILD_EASE : PLAIN_EASE;
    String source = "";
    if (request.present()) {
      Readability text = Readability.of(prose(request.text()));
      if (text.hasProse() && text.words() >= EASE_MIN_WORDS) {
        floor = Math.max(floor, text.fleschReadingEase() + EASIER_BY);
        source = String.format(Locale.ROOT, "; the text's is %.0f", text.fleschReadingEase());
      }
    }
    String asked = (forChild ? child : plain).group(0).strip();
    String wanted = String.format(Locale.ROOT, "reading ease at least %.0f%s", floor, source);
    double ease = answer.fleschReadingEase();
    return Optional.of(
        new Check(
            asked + " (" + wanted + ")",
            ease >= floor,
            String.format(Locale.ROOT, "Flesch reading ease %.0f", ease)));
  }

  /** The text without its fenced code blocks: code has no reading ease ("easy to read" code). */
  private static String prose(String text) {
    return CodeFences.withoutCode(text);
  }

  static Constraints of(String request, String deliverable) {
    return of(request, deliverable, deliverable);
  }

  private static Constraints of(String request, String deliverable, String delivered) {
    List<Check> checks = new ArrayList<>();
    String answer = deliverable.strip();
    String laidOut = delivered.strip();
    List<int[]> taken = new ArrayList<>();
    Matcher m = LIMIT.matcher(request);
    while (m.find()) {
      checks.add(limit(m.group(0).strip(), number(m.group(2)), m.group(3), answer));
      taken.add(new int[] {m.start(), m.end()});
    }
    m = LIMIT_MORE.matcher(request);
    while (m.find()) {
      if (free(taken, m)) {
        int n = number(firstNonNull(m, 1, 4, 5));
        String unit = firstNonNull(m, 2, 3, 6);
        checks.add(size(m.group(0).strip(), 0, n, unit, answer));
      }
    }
    m = FLOOR.matcher(request);
    while (m.find()) {
      if (free(taken, m)) {
        checks.add(
            size(m.group(0).strip(), number(m.group(1)), Integer.MAX_VALUE, m.group(2), answer));
      }
    }
    m = SIZE.matcher(request);
    while (m.find()) {
      if (!free(taken, m)) {
        continue;
      }
      String instruction = m.group(0).strip();
      if (m.group(1) != null) {
        checks.add(size(instruction, number(m.group(1)), number(m.group(2)), m.group(3), answer));
      } else {
        int n = number(firstNonNull(m, 4, 6));
        checks.add(size(instruction, n, n, firstNonNull(m, 5, 7), answer));
      }
    }
    m = COUNT.matcher(request);
    while (m.find()) {
      checks.add(count(m.group(0).strip(), number(m.group(1)), answer));
    }
    if (JSON.matcher(request).find()) {
      checks.add(json(laidOut));
    }
    if (CSV.matcher(request).find()) {
      checks.add(csv(laidOut));
    }
    if (TABLE.matcher(request).find()) {
      int rows = count(TABLE_ROW, laidOut);
      checks.add(new Check("a table", rows >= 2, rows + " table rows"));
    }
    if (BULLETS.matcher(request).find()) {
      int items = ParsedText.of(laidOut).listItems();
      checks.add(new Check("bullet points", items >= 2, items + " list items"));
    }
    if (NUMBERED.matcher(request).find()) {
      int items = ParsedText.of(laidOut).numberedItems();
      checks.add(new Check("a numbered list", items >= 2, items + " numbered items"));
    }
    if (TITLE.matcher(request).find()) {
      checks.add(title(answer));
    }
    m = START.matcher(request);
    if (m.find()) {
      checks.add(start(m.group(0).strip(), m.group(1), answer));
    }
    m = LANGUAGE.matcher(request);
    if (m.find()) {
      String language = (m.group(1) != null ? m.group(1) : m.group(2)).toLowerCase(Locale.ROOT);
      Languages.isWrittenIn(answer, language)
          .ifPresent(ok ->
              checks.add(
                  new Check(
                      "in " + language, ok, ok ? "written in " + language : "another language")));
    }
    m = AVOID.matcher(request);
    while (m.find()) {
      String word = m.group(1).strip();
      boolean used =
          Pattern.compile("(?iu)(?<![\\p{L}\\p{N}])" + Pattern.quote(word) + "(?![\\p{L}\\p{N}])")
              .matcher(answer)
              .find();
      checks.add(
          new Check("not the word \"" + word + "\"", !used, used ? "it is used" : "not used"));
    }
    return new Constraints(List.copyOf(checks));
  }

  private static Check limit(String instruction, int n, String unit, String answer) {
    String u = unit.toLowerCase(Locale.ROOT);
    int measured = measure(u, answer);
    int allowed = u.startsWith("word") ? n + n / WORD_SLACK_DIVISOR : n;
    return new Check(instruction, measured <= allowed, counted(measured, u));
  }

  /** Whether the match overlaps none of the spans an earlier pattern took, and takes its own. */
  private static boolean free(List<int[]> taken, Matcher m) {
    for (int[] span : taken) {
      if (m.start() < span[1] && span[0] < m.end()) {
        return false;
      }
    }
    taken.add(new int[] {m.start(), m.end()});
    return true;
  }

  private static String firstNonNull(Matcher m, int... groups) {
    for (int g : groups) {
      if (m.group(g) != null) {
        return m.group(g);
      }
    }
    throw new IllegalStateException("no group of " + Arrays.toString(groups) + " matched");
  }

  /**
   * A size from {@code min} to {@code max} (equal for a size to aim at). Words are met from half
   * the size below to half above it, for a size asked for ("a 30 word description": 15 to 45), or a
   * fifth either side of a range or a bound ("at least 500 words": from 400); sentences, lines and
   * paragraphs, which a reader counts, within one of a size of three or more and exactly below
   * that.
   */
  private static Check size(String instruction, int min, int max, String unit, String answer) {
    String u = unit.toLowerCase(Locale.ROOT);
    int measured = measure(u, answer);
    double low;
    double high;
    if (u.startsWith("word")) {
      double slack = min == max ? 0.5 : 1.0 / WORD_SLACK_DIVISOR;
      low = min * (1 - slack);
      high = max == Integer.MAX_VALUE ? Double.MAX_VALUE : max * (1 + slack);
    } else {
      low = min >= 3 ? min - 1 : min;
      high = max == Integer.MAX_VALUE ? Double.MAX_VALUE : max >= 3 ? max + 1 : max;
    }
    return new Check(instruction, measured >= low && measured <= high, counted(measured, u));
  }

  /** "1 word", "12 sentences": what was measured, for the evidence. */
  private static String counted(int measured, String unit) {
    return measured + " " + (measured == 1 ? singular(unit) : plural(unit));
  }

  /**
   * The answer's length in the unit (lower case): words, sentences, non-blank lines, paragraphs.
   */
  private static int measure(String unit, String answer) {
    if (unit.startsWith("word")) {
      return Sentences.wordCount(answer);
    } else if (unit.startsWith("sentence")) {
      return Sentences.split(answer).size();
    } else if (unit.startsWith("line")) {
      return (int) answer.lines().filter(l -> !l.isBlank()).count();
    }
    return Structure.of(answer).paragraphs();
  }

  /**
   * The items of the answer: its list items ({@link ParsedText}) when there are any, else its
   * lines, else its comma-separated pieces. Met when the count is the one asked for.
   */
  private static Check count(String instruction, int n, String answer) {
    int items = ParsedText.of(answer).listItems();
    String how = "list items";
    if (items == 0) {
      items = (int) answer.lines().filter(l -> !l.isBlank()).count();
      how = "lines";
      if (items == 1) {
        items = answer.split("[,;]").length;
        how = "comma-separated items";
      }
    }
    return new Check(instruction, items == n, items + " " + how);
  }

  private static Check json(String answer) {
    String body = CodeFences.firstBlock(answer).orElse(answer).strip();
    boolean ok;
    try {
      ok = (body.startsWith("{") || body.startsWith("[")) && Json.parse(body) != null;
    } catch (JsonProcessingException | RuntimeException e) {
      ok = false;
    }
    return new Check("JSON", ok, ok ? "parses as JSON" : "does not parse as JSON");
  }

  /**
   * Comma-separated values: at least {@value #CSV_ROWS} lines with the same number of fields, two
   * or more, and neither code nor prose (a line ending in a full stop is a sentence with commas).
   */
  private static Check csv(String answer) {
    Map<Integer, Integer> rowsByFields = new HashMap<>();
    for (String line : answer.split("\n")) {
      String row = line.strip();
      if (row.contains(",") && !row.endsWith(".") && !CODE_CHARACTERS.matcher(row).find()) {
        rowsByFields.merge(row.split(",", -1).length, 1, Integer::sum);
      }
    }
    Map.Entry<Integer, Integer> most =
        rowsByFields.entrySet().stream().max(Map.Entry.comparingByValue()).orElse(Map.entry(0, 0));
    boolean ok = most.getValue() >= CSV_ROWS;
    return new Check(
        "CSV",
        ok,
        ok
            ? most.getValue() + " lines of " + most.getKey() + " comma-separated values"
            : "no lines of comma-separated values sharing a number of fields");
  }

  private static Check title(String answer) {
    List<String> lines = answer.lines().filter(l -> !l.isBlank()).toList();
    boolean labelled = lines.stream().anyMatch(l -> TITLE_LINE.matcher(l).find());
    boolean headed =
        lines.size() > 1
            && Sentences.wordCount(lines.getFirst()) <= TITLE_WORDS
            && !lines.getFirst().strip().matches(".*[.!?,;:]$");
    boolean ok = labelled || headed;
    return new Check(
        "a title",
        ok,
        ok
            ? "a title line heads the answer"
            : "no title: no labelled or heading line, and the first line is a sentence or stands"
                + " alone");
  }

  private static Check start(String instruction, String word, String answer) {
    List<String> sentences = Sentences.split(answer);
    String w = word.toLowerCase(Locale.ROOT);
    long ok =
        sentences.stream()
            .filter(
                s -> s.replaceAll("^[^\\p{L}\\p{N}]+", "").toLowerCase(Locale.ROOT).startsWith(w))
            .count();
    return new Check(
        instruction,
        !sentences.isEmpty() && ok == sentences.size(),
        ok + " of " + sentences.size() + " sentences");
  }

  private static int number(String s) {
    String k = s.toLowerCase(Locale.ROOT).replace(",", "");
    Integer w = WORD_NUMBERS.get(k);
    return w != null ? w : Integer.parseInt(k);
  }

  private static int count(Pattern p, String text) {
    return (int) p.matcher(text).results().count();
  }

  private static String singular(String unit) {
    return unit.endsWith("s") ? unit.substring(0, unit.length() - 1) : unit;
  }

  private static String plural(String unit) {
    return unit.endsWith("s") ? unit : unit + "s";
  }

  boolean any() {
    return !checks.isEmpty();
  }

  int met() {
    return (int) checks.stream().filter(Check::met).count();
  }

  /** Share met, 0 to 1; 1 when there is nothing to check. */
  double share() {
    return checks.isEmpty() ? 1 : (double) met() / checks.size();
  }

  /** For the evidence: each instruction, followed or not, and what was measured. */
  String describe() {
    List<String> out = new ArrayList<>();
    for (Check c : checks) {
      out.add(
          "\""
              + c.instruction()
              + "\" "
              + (c.met() ? "followed" : "NOT followed")
              + " ("
              + c.measured()
              + ")");
    }
    return String.join(", ", out);
  }
}
