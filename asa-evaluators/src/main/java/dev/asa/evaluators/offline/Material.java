package dev.asa.evaluators.offline;

import dev.asa.evaluators.text.CodeFences;
import dev.asa.evaluators.text.Sentences;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A request read as an instruction and the material it hands over: "Summarize the following post"
 * and the post, "Proofread this: ..." and the text, a review followed by "What is the sentiment of
 * the review above?".
 *
 * <p>The material's sentences are not asks. Read as parts of the request, the eighteen sentences of
 * a post to summarize made eighteen parts, and a good three-sentence summary "covered 8 of 18"
 * (completeness 10); key terms came from names in the post, and the words an answer needs grew with
 * each sentence of it. So the parts and key terms come from the instruction alone, and the
 * instruction is measured together with its material: "summarize the following post" alone is
 * nothing like any summary (similarity 0.04), the instruction and the post are.
 *
 * <p>Read conservatively: the instruction must point at material ("the following", "below", "the
 * text above", "this email", a trailing colon), open with a verb that reworks text, or ask for
 * words picked out of it (it may share its line with the text only then), and what it points at
 * must be long and not mostly asks, questions or requirements ("The report should cover ..."),
 * which are parts to cover; nor is it material when the instruction points at a question or a task
 * ("answer the following question"), which is the ask itself.
 *
 * @param instruction what the request asks, the whole request when no material is found
 * @param text the material handed over, empty when there is none
 */
record Material(String instruction, String text) {

  /** Material shorter than this is read as part of the request: a short quote can be an ask. */
  static final int MIN_WORDS = 30;

  /** Words of the material a part is measured with ({@link #withMaterial}). */
  static final int CONTEXT_WORDS = 200;

  /** An instruction longer than this is not a lead-in to material but a request of its own. */
  static final int MAX_INSTRUCTION_WORDS = 40;

  private static final String NOUN =
      "(?:text|post|article|passage|paragraphs?|e-?mail|essay|story|reviews?|conversation|dialog(?:ue)?"
          + "|sentences?|code|snippet|poem|letter|document|report|message|content|transcript|notes?"
          + "|abstract|excerpt|lyrics|data|table|information|statement|script|resume|comments?"
          + "|tweet|news|description|speech|input|context|summary|chapter|extract|draft|paper|guide"
          + "|contract|clause|claim|assignment|listing)";

  /**
   * The instruction points at material: "the following", "below", "the text above", "this post".
   */
  private static final Pattern POINTS =
      Pattern.compile(
          "(?i)\\b(?:the following|following|below|above|hereafter|given\\s+"
              + NOUN
              + "|(?:this|these|the|my|provided|attached)\\s+(?:[\\w+#'-]+\\s+){0,2}?"
              + NOUN
              + ")\\b");

  /**
   * What follows is itself the ask: "answer the following question", "solve the problem below". Its
   * words are the parts to cover, not a text to work on.
   */
  private static final Pattern POINTS_AT_ASKS =
      Pattern.compile(
          "(?i)\\b(?:following|below|above|this|these|the|given)\\s+(?:\\w+\\s+)?"
              + "(?:questions?|problems?|exercises?|tasks?|prompts?|quer(?:y|ies)|instructions?"
              + "|steps?|requirements?|riddles?|puzzles?)\\b");

  /**
   * Verbs that rework a text handed over, opening the instruction, asked for or not ("can you
   * rewrite and explain this?", "Optimize this C++ code ...").
   */
  private static final Pattern REWORK =
      Pattern.compile(
          "(?i)^\\W*(?:(?:can|could|would|will) you\\s+)?(?:please\\s+)?(?:paraphrase|rewrite|re-write"
              + "|rephrase|reword|edit|proofread|revise|revamp|refactor|optimi[sz]e|convert"
              + "|correct|fix|translate|summari[sz]e|shorten|simplify|condense|polish|improve"
              + "|extract|classify|analy[sz]e|tl;?dr)\\b");

  /**
   * A line or sentence that asks rather than hands over: an instruction verb first, after a bullet
   * or a number if any. (A question asks too, told by its question mark: "When we moved in, ..."
   * opens a post's sentence, not an ask.)
   */
  private static final Pattern ASK_LINE =
      Pattern.compile(
          "(?i)^\\s*(?:[-*+•]|\\d{1,3}[.)]|\\(?[a-z][.)])?\\s*(?:please\\s+)?(?:also\\s+)?"
              + "(?:summari[sz]e|compare|contrast|explain|describe|list|include|provide|give|recommend"
              + "|suggest|propose|identify|discuss|cover|add|write|implement|keep|outline|analy[sz]e"
              + "|estimate|report|show|note|evaluate|assess|document|test|flag|check|calculate"
              + "|compute|review|highlight|rank|define|justify|cite|mention|make sure|ensure|use|do not"
              + "|don't|avoid|answer)\\b");

  /**
   * A sentence that states what the answer must do, whatever its first word: "The report should
   * cover ...", "It must be ...", "Make sure ...". Not "I have to decide" nor "we should talk",
   * which a post says of its writer.
   */
  private static final Pattern DIRECTIVE =
      Pattern.compile(
          "(?i)\\b(?:(?:it|you|they|(?:the|your|this|each|every|all)\\s+\\w+)\\s+"
              + "(?:should|must|needs? to|has to|have to|is required to|are required to)"
              + "|make sure|be sure to|ensure|please)\\b");

  private static final Material EMPTY = new Material("", "");

  /** A block the request sets off between the same triple delimiters. */
  private static final Pattern DELIMITED =
      Pattern.compile("(```|~~~|\"\"\")(.*?)\\1", Pattern.DOTALL);

  /**
   * A line of the material that is an instruction by its label ("Instructions: ...", "Prompt:
   * ..."): prompts that hand over search results or a document often put the ask on such a line.
   */
  private static final Pattern LABELLED =
      Pattern.compile(
          "(?i)^\\s*(?:instructions?|prompt|query|question|task|request|your task)\\s*:\\s*\\S");

  /**
   * Where the first sentence of a line ends: its stop, a closing quote, and the next one's start.
   */
  private static final Pattern FIRST_STOP = Pattern.compile("(?<=[.!?])[\"”']?\\s+(?=[\"“A-Z0-9])");

  static Material of(String request) {
    String stripped = request.strip();
    if (stripped.isEmpty()) {
      return EMPTY;
    }
    Material split = delimited(stripped);
    if (split != null) {
      return split;
    }
    List<String> lines = stripped.lines().toList();
    split = leading(lines);
    if (split == null) {
      split = trailing(lines);
    }
    return split == null ? new Material(stripped, "") : split.withLabelledAsks();
  }

  /**
   * "Write a product description based on the specifications delimited by triple backticks. ...
   * Specifications: ```...```": text the request sets off itself, between triple backticks, tildes
   * or quotes, is the material, and the rest, however long, the instruction. The delimiters say
   * where the text is, so no lead-in is needed; what they hold must still be long and mostly not
   * asks (a fenced list of questions is the ask itself).
   */
  private static Material delimited(String request) {
    Matcher block = DELIMITED.matcher(request);
    StringBuilder instruction = new StringBuilder();
    List<String> texts = new ArrayList<>();
    int end = 0;
    while (block.find()) {
      instruction.append(request, end, block.start()).append('\n');
      texts.add(held(block.group(1), block.group(2)));
      end = block.end();
    }
    instruction.append(request.substring(end));
    String text = String.join("\n\n", texts).strip();
    String rest = instruction.toString().strip();
    return Sentences.wordCount(rest) >= 3 && isMaterial(text) ? new Material(rest, text) : null;
  }

  /**
   * The text a block holds: without a language name on a fence's opening line ("```python", by
   * {@link CodeFences}' one rule; quotes name none, so """OVERVIEW keeps its heading) and without
   * delimiters nested in it (```"""...."""```).
   */
  private static String held(String delimiter, String block) {
    String text = block;
    int eol = text.indexOf('\n');
    if (!delimiter.equals("\"\"\"")
        && eol >= 0
        && CodeFences.isFence(delimiter + text.substring(0, eol))) {
      text = text.substring(eol + 1);
    }
    text = text.strip();
    while (text.startsWith("\"\"\"") || text.startsWith("```")) {
      text = text.substring(3).strip();
    }
    while (text.endsWith("\"\"\"") || text.endsWith("```")) {
      text = text.substring(0, text.length() - 3).strip();
    }
    return text;
  }

  /** The material's labelled instruction lines moved to the instruction. */
  private Material withLabelledAsks() {
    List<String> asks = new ArrayList<>();
    List<String> rest = new ArrayList<>();
    for (String line : text.lines().toList()) {
      (LABELLED.matcher(line).find() ? asks : rest).add(line);
    }
    String material = String.join("\n", rest).strip();
    if (asks.isEmpty() || Sentences.wordCount(material) < MIN_WORDS) {
      return this;
    }
    return new Material(instruction + "\n" + String.join("\n", asks).strip(), material);
  }

  boolean present() {
    return !text.isEmpty();
  }

  /** Text set off by double quotes or guillemets, three characters or more. */
  private static final Pattern QUOTED = Pattern.compile("[\"“«][^\"”»]{3,}[\"”»]");

  /**
   * Whether the request hands over any text at all, long or short: material ({@link #present}),
   * lines after its first, text after a colon, a quotation, or words pointing at a text ("this
   * email", "the following"). "Summarise the arguments for and against a four-day week" hands over
   * none: it asks for something new, whatever its first verb, and was read as reworking a text it
   * never gave (a vague answer scored 99.9).
   */
  static boolean handsOverAny(String request) {
    String stripped = request.strip();
    if (of(stripped).present()) {
      return true;
    }
    long lines = stripped.lines().filter(l -> !l.isBlank()).count();
    int colon = stripped.indexOf(':');
    return lines > 1
        || (colon >= 0 && !stripped.substring(colon + 1).isBlank())
        || QUOTED.matcher(stripped).find()
        || POINTS.matcher(stripped).find();
  }

  /** "Summarize the following post\n\n...": the first line, or its part before a colon. */
  private static Material leading(List<String> lines) {
    String first = lines.getFirst().strip();
    String rest = String.join("\n", lines.subList(1, lines.size())).strip();
    int colon = first.indexOf(": ");
    if (colon > 0) {
      String before = first.substring(0, colon + 1);
      String after = (first.substring(colon + 2) + "\n" + rest).strip();
      if (instructs(before) && isMaterial(after)) {
        return withTrailingAsk(before, after);
      }
    }
    if (instructs(first) && isMaterial(rest)) {
      return withTrailingAsk(first, rest);
    }
    return inline(first, rest);
  }

  /**
   * "Extract all the place names from the paragraph. Keep them in the order they appear. The 2022
   * FIFA World Cup ...": the instruction's sentences and the text on one line. Only when the first
   * sentence opens by reworking a text or picks words out of it: "I am going to give you a bill. I
   * want you to list ..." says what it wants in its second sentence. The asks right after the first
   * sentence join it, and the rest is the text.
   */
  private static Material inline(String first, String rest) {
    Matcher stop = FIRST_STOP.matcher(first);
    if (!stop.find()) {
      return null;
    }
    StringBuilder instruction = new StringBuilder(first.substring(0, stop.start()).strip());
    String opening = instruction.toString();
    boolean reworks = REWORK.matcher(opening).find() || OwnContent.picksFromItsOwnText(opening);
    if (!reworks || !instructs(opening)) {
      return null;
    }
    List<String> sentences = Sentences.split(first.substring(stop.end()));
    int asks = 0;
    while (asks < sentences.size() && asks(sentences.get(asks))) {
      instruction.append(' ').append(sentences.get(asks++));
    }
    String text =
        (String.join(" ", sentences.subList(asks, sentences.size())) + "\n" + rest).strip();
    return Sentences.wordCount(instruction.toString()) <= MAX_INSTRUCTION_WORDS && isMaterial(text)
        ? withTrailingAsk(instruction.toString(), text)
        : null;
  }

  /** A sentence that asks: an instruction verb first, a question, or a directive. */
  private static boolean asks(String sentence) {
    String t = sentence.strip();
    return ASK_LINE.matcher(t).find() || t.endsWith("?") || DIRECTIVE.matcher(t).find();
  }

  /**
   * The material's last paragraph joins the instruction when it asks ("Keep it under 50 words."),
   * so that "Summarize the following text:", the text, and that line make one instruction.
   */
  private static Material withTrailingAsk(String instruction, String material) {
    List<String> lines = material.lines().toList();
    int start = paragraphStart(lines, lines.size() - 1);
    String last = String.join("\n", lines.subList(start, lines.size())).strip();
    String before = String.join("\n", lines.subList(0, start)).strip();
    boolean asks =
        start > 0
            && Sentences.wordCount(last) <= MAX_INSTRUCTION_WORDS
            && (ASK_LINE.matcher(last).find() || last.endsWith("?"))
            && Sentences.wordCount(before) >= MIN_WORDS;
    return asks
        ? new Material(instruction + "\n" + last, before)
        : new Material(instruction, material);
  }

  /** "...\n\nWhat is the sentiment of the review above?": the last paragraph. */
  private static Material trailing(List<String> lines) {
    int last = lines.size() - 1;
    while (last > 0 && lines.get(last).isBlank()) {
      last--;
    }
    int start = paragraphStart(lines, last);
    if (start == 0) {
      return null;
    }
    String instruction = String.join("\n", lines.subList(start, last + 1)).strip();
    String before = String.join("\n", lines.subList(0, start)).strip();
    return instructs(instruction) && isMaterial(before) ? new Material(instruction, before) : null;
  }

  /** The first line of the paragraph that the line at {@code end} closes. */
  private static int paragraphStart(List<String> lines, int end) {
    int start = end;
    while (start > 0 && !lines.get(start - 1).isBlank()) {
      start--;
    }
    return start;
  }

  private static boolean instructs(String line) {
    int words = Sentences.wordCount(line);
    if (words == 0 || words > MAX_INSTRUCTION_WORDS) {
      return false;
    }
    // Words picked out of what follows make it a text, even "the following job requirements".
    boolean reworks = REWORK.matcher(line).find() || OwnContent.picksFromItsOwnText(line);
    if (!reworks && POINTS_AT_ASKS.matcher(line).find()) {
      return false;
    }
    return reworks || POINTS.matcher(line).find() || (line.endsWith(":") && words >= 3);
  }

  /**
   * Long enough, and mostly text rather than asks: fewer than half its words in sentences that ask
   * (an instruction verb first, a question, or a directive such as "should", "must", "make sure",
   * so that requirements written as prose, "The report should cover the budget and the risks.",
   * stay parts of the request).
   */
  private static boolean isMaterial(String text) {
    int words = Sentences.wordCount(text);
    if (words < MIN_WORDS) {
      return false;
    }
    int asking = 0;
    for (String line : text.lines().filter(l -> !l.isBlank()).toList()) {
      for (String sentence : Sentences.split(line)) {
        String t = sentence.strip();
        if (asks(t)) {
          asking += Sentences.wordCount(t);
        }
      }
    }
    return asking * 2 < words;
  }

  /**
   * The text a part of the instruction is measured as: the part with the material it acts on, up to
   * its first {@value #CONTEXT_WORDS} words, about one window of the model (510 word pieces; a
   * longer text is read window by window and averaged). The cap keeps a request of many parts and a
   * long text from costing a reading of the whole text for each part.
   */
  String withMaterial(String part) {
    if (!present()) {
      return part;
    }
    Matcher words = Sentences.WORD.matcher(text);
    int end = text.length();
    for (int n = 0; words.find(); n++) {
      if (n == CONTEXT_WORDS) {
        end = words.start();
        break;
      }
    }
    return part + "\n\n" + text.substring(0, end).strip();
  }
}
