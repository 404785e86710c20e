package dev.asa.evaluators.offline;

import dev.asa.evaluators.text.CodeFences;
import dev.asa.evaluators.text.CountingRuns;
import dev.asa.evaluators.text.Sentences;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * The deliverable's text as the offline evaluator scores it: sentences that only restate the
 * request, or that speak to the evaluator rather than the reader, are taken out first. Both are
 * cheap ways to look relevant to a similarity model (the request's own words are as close to the
 * request as anything can be) and an instruction to the judge has no place in a deliverable; out of
 * the text, they can never raise a score, and the evidence says what was taken out.
 *
 * <p>A sentence restates the request when at least {@value #RESTATED_SHARE} of its words (at least
 * {@value #MIN_WORDS} of them, small words aside) are words of the request. When that would leave
 * nothing (an answer that is all copying: a corrected sentence, a quotation asked for), the text is
 * scored whole, since it cannot be told from a restatement here, unless it is a verbatim copy of
 * the request's own text ({@link #copies}): the source pasted back for a translation, a rewrite or
 * an extraction has done none of the work, and is scored as nothing. Only whole sentences are taken
 * out: the request's words woven into the answer's own sentences stay, and still count.
 *
 * <p>Empty steps are taken out too ({@link Facets#emptyStep}): a list line or a sentence led by
 * "first", "then", "finally" that is a hedge or says nothing beyond generic words ("Then, think
 * about the details.", "- Several things matter here."). Padding an answer with them would
 * otherwise raise the steps counted for a "how" question and, as each list marker passed for a
 * number or a name, dilute the vagueness {@link Substance} measures.
 *
 * @param text what is scored; line breaks kept, so lists and paragraphs still count
 * @param restated sentences taken out as restating the request
 * @param directives sentences taken out as addressed to the evaluator
 * @param emptySteps steps and list items with nothing in them, taken out ({@link Facets#emptyStep}:
 *     "Then, think about the details.", "- Several things matter here.")
 * @param courtesies sentences about the answer rather than the question ("I hope this helps",
 *     "great question", "let me know if you have questions") or about the one answering ("As an AI
 *     language model, I do not have feelings."), taken out: they carry nothing to score, and one
 *     that talks of explaining sits close in meaning to any "explain" request
 * @param declined sentences that decline the work ("I'm sorry, but I cannot help with that.", "I do
 *     not have enough information to determine its family."), taken out: a refusal is made of the
 *     request's words and sat as close to the request as the work itself (97.9, a pass, for "I
 *     apologize, but I do not have enough information to determine what family Zomaria
 *     interruptolineana belongs to"). Not one that goes on to answer ("I cannot browse the web, but
 *     here is what is known"): only whole sentences are taken out
 * @param letterForm lines of a letter's form rather than its content: a salutation ("Dear Hiring
 *     Manager,"), a sign-off ("Best regards,"), placeholders to fill in ("[Your Name] [Your
 *     Address]"), taken out. A letter or an email asked for is expected to have them; read as
 *     passages they sat far from any request and counted against the answer as off its topic
 * @param announced a closing line that announces what follows with nothing after it ("Here are the
 *     highest and lowest closing prices for each month:"), taken out: it promises what the answer
 *     does not give, and, made of the request's own words, it sat as close to the request as a full
 *     answer (93.7 for that line alone, where the request asked for prices picked out of its own
 *     table and an answer's few words of its own cost nothing)
 * @param countingRuns runs of whole numbers counting by one step ("2020, 2021, 2022, ..."), each
 *     read as its two ends ({@link CountingRuns})
 * @param copied the whole deliverable is a verbatim copy of the request's text, and nothing is left
 */
record ScoredText(
    String text,
    List<String> restated,
    List<String> directives,
    List<String> emptySteps,
    List<String> courtesies,
    List<String> declined,
    List<String> letterForm,
    List<String> announced,
    List<String> countingRuns,
    boolean copied) {

  /** A copy this long, in words, or longer is no short quotation. */
  static final int COPY_MIN_WORDS = 8;

  /** Runs of this many words are compared: shorter ones recur in any two texts on one topic. */
  static final int COPY_RUN = 4;

  /**
   * An answer with this share of its word runs found in the request is a copy of it. Measured on
   * the development corpus: at 0.95, answers that change one word of a pasted source ("you had" for
   * "you'd", all else left wrong) passed for work, eight PandaLM pairs lost; at 0.8 the one LLMBar
   * pair that asks for a paraphrase "with one word changed" is lost instead.
   */
  static final double COPIED_SHARE = 0.8;

  /**
   * A copy gives back at least this share of the request's own word runs: the source pasted back
   * whole. An answer that quotes a passage of a longer request (the sentence an extraction asks
   * for, the row a lookup asks for) has picked it out, which is the work asked; unless the request
   * asks for its text rewritten ({@link OwnContent#rewritesItsOwnText}), where a passage given back
   * as it was is a copy however little of the request it covers. Measured on the development
   * corpus: PandaLM 70.0% to 71.2% (10 pairs gained, none lost; the source sentence given back for
   * "change the first person to the third person", a long instruction before it); with summaries
   * held to it too, 7 pairs lost, each a summary that keeps the article's lead sentence.
   */
  static final double COVERED_SHARE = 0.5;

  /**
   * Below this share of runs matching in the same case, the text was recased (put in capitals as
   * asked), which is work, not a copy.
   */
  static final double SAME_CASE_SHARE = 0.5;

  /**
   * Words a correction must bring that its text did not have before it is no copy. Asked to
   * proofread, the work is a text given back as it was but for its mistakes: Auto-J's proofread of
   * a 600-word paragraph, with "raise", "fulfills", "strengthens" and eight more words corrected,
   * kept 87% of the text's word runs and scored 20, a fail, below a free rewrite people liked less.
   * One word is not enough: PandaLM's "If you had told me year ago ... I would of laughed", the
   * text with "you'd" spelled out and every mistake left in, is still a copy.
   */
  static final int CORRECTED_WORDS = 3;

  /** A request to correct its text: proofreading, or mistakes of grammar, spelling, typing. */
  private static final Pattern CORRECTS =
      Pattern.compile(
          "(?i)\\b(?:proof-?read\\w*|correct(?:s|ed|ing)?|fix(?:es|ed|ing)?|typos?|grammar"
              + "|grammatical|spelling|punctuation|mistakes?|errors?)\\b");

  /** A list's number opening a sentence: "2. ", "(3) ", "Step 4: ". */
  private static final Pattern LIST_NUMBER =
      Pattern.compile("^\\W*(?:step\\s+)?\\(?\\d{1,3}[.):]\\s+", Pattern.CASE_INSENSITIVE);

  /** A word that is a number: "4000", "3.5". */
  private static final Pattern NUMBER_WORD = Pattern.compile("\\d+(?:[.,]\\d+)*");

  /** A sentence this much made of the request's words says nothing new. */
  static final double RESTATED_SHARE = 0.9;

  /** Fewer words than this, small words aside ("Yes, it does."), are no restatement. */
  static final int MIN_WORDS = 2;

  private static final Pattern DIRECTIVE =
      Pattern.compile(
          "(?i)\\b(?:ignore|disregard|forget|override)\\s+(?:all\\s+|any\\s+|the\\s+|your\\s+|previous\\s+|prior\\s+|above\\s+)*(?:rubric|instructions?|criteria|scoring|guidelines|prompt|rules)"
              + "|\\b(?:score|rate|grade|mark|evaluate)\\s+(?:this|it|the\\s+(?:answer|response|deliverable))\\s+(?:as\\s+)?(?:a\\s+)?(?:100|10/10|perfect|full|highest|maximum|top)"
              + "|\\b(?:give|assign|award)\\s+(?:this|it|me|the\\s+(?:answer|response|deliverable))\\s+(?:a\\s+)?(?:100|full marks|perfect|the highest|the maximum|a perfect)"
              + "|\\b(?:dear|note to (?:the)?)\\s+(?:evaluator|judge|grader|reviewer|assessor)"
              + "|\\b(?:to|for) the (?:evaluator|judge|grader|AI judge|assessor)\\b"
              + "|\\bthis (?:answer|response|deliverable) (?:deserves|should (?:get|receive|score)|must (?:get|receive|score))\\b");

  /**
   * A line of three words or more with nothing but letters, digits, spaces and a sentence's
   * punctuation: prose, even inside a code block. A line of code has brackets, operators or symbols
   * ("print(word, count)", "x = 1"), or is shorter ("import os").
   */
  private static final Pattern PROSE_LINE =
      Pattern.compile("\\s*[\\p{L}\\p{N}'’\"-]+(?:[ ,;]+[\\p{L}\\p{N}'’\"-]+){2,}[.!?]?\\s*");

  /** A sentence about the answer itself: hopes that it helps, thanks, offers to say more. */
  private static final Pattern COURTESY =
      Pattern.compile(
          "(?i)^\\W*(?:(?:i|we)\\s+(?:really\\s+)?hope|hopefully)\\s+(?:this|that|it|my|the above|the information)\\b.*\\b(?:helps?|helped|useful|helpful|clear|clarif\\w*|answers?|understand\\w*)\\b"
              + "|^\\W*(?:please\\s+)?(?:let me know|feel free to)\\b"
              + "|\\blet me know if (?:you|there)\\b"
              + "|^\\W*(?:thank you|thanks) for (?:asking|your question|reading|the question)\\b"
              + "|^\\W*(?:what a |that's a |that is a )?(?:great|good|excellent|interesting) question\\b"
              + "|^\\W*(?:i am|i'm) (?:happy|glad) to help\\b"
              // "As an AI language model, I do not have feelings.": about the answerer, not the
              // question. Not with a "but" after it, which goes on to answer ("..., but I can
              // imagine that a 100-year-old tree would ...").
              + "|^\\W*as an (?:ai|artificial intelligence)(?: language model| assistant| model)?,?"
              + "\\s+(?!.*\\b(?:but|however|yet)\\b)[^.!?]{0,80}\\b(?:not|no|cannot|can't|don't)\\b");

  /**
   * A sentence that declines the work: an apology or "unfortunately" leading to what the answerer
   * cannot do; "I cannot" with the work it will not do ("help", "write", "determine" ...); or not
   * enough information to do it. Read at the sentence's start, after at most a short clause ("No, I
   * cannot help you scam people", "Without more details, I cannot identify its family"): "we cannot
   * determine what the basket held" concludes a puzzle, "Physical tasks: I can't perform any" lists
   * an answer, and "I regret to inform you that I will not be able to attend" is the letter asked
   * for. Not a quotation (a character's line in a story), and not with a "but", "however" or
   * "instead" after it, which goes on to answer.
   */
  private static final Pattern DECLINE =
      Pattern.compile(
          "(?i)^[\\s*_#>•-]*(?:"
              + "(?:(?:i'm|i am|we're|we are) (?:very |truly |so )?sorry|i apologi[sz]e"
              + "|we apologi[sz]e|unfortunately|regrettably)\\b[^.!?\"“]{0,40}?\\b(?:i|we)\\s+"
              + "(?:cannot|can't|can not|am unable|'m unable|are unable|am not able|'m not able"
              + "|won't|will not|do not have|don't have|do not know|don't know)\\b"
              + "|(?:[^.!?:\"“]{0,80},\\s*)?i\\s+(?:cannot|can't|can not|am unable to|'m unable to"
              + "|am not able to|'m not able to|won't be able to|will not be able to|won't|will not)"
              + "\\s+(?:help|assist|comply|provide|fulfil|fulfill|complete|answer|determine"
              + "|identify|write|create|generate|produce|engage|participate|browse|access|predict"
              + "|verify|confirm|perform|carry out|do that|do this)\\b"
              + "|(?:[^.!?:\"“]{0,80},\\s*)?i\\s+(?:do not|don't)\\s+have\\s+(?:enough|sufficient"
              + "|the necessary|any|access to(?: the)?)\\s+(?:information|context|details|data"
              + "|knowledge|real-time)\\b)"
              // Nothing after it that goes on to answer.
              + "(?!.*\\b(?:but|however|instead|although|though|that said)\\b)");

  /** A placeholder to fill in: "[Your Name]", "[Company's Address]". */
  private static final Pattern PLACEHOLDER = Pattern.compile("\\[[^\\]\\n]{1,60}\\]");

  /**
   * A line that opens or closes a letter, and at most a few words of a name or a title after it:
   * "Dear Hiring Manager,", "Hi team!", "Best regards,", "Sincerely, Jane Doe".
   */
  private static final Pattern SALUTATION_OR_SIGN_OFF =
      Pattern.compile(
          "(?i)^\\W*(?:dear(?:\\s+[\\w.'’-]+){1,5}\\s*[,:!]?"
              + "|(?:hi|hello|hey|greetings)(?:\\s+[\\w.'’-]+){0,4}\\s*[,:!]"
              + "|to whom it may concern\\s*[,:]?"
              // A sign-off alone, or with a comma and a name: "Best regards," "Best, Jane"; not
              // "Best practices for Kubernetes".
              + "|(?:sincerely|(?:best|kind|warm|warmest|kindest) regards|regards|best wishes"
              + "|yours (?:truly|sincerely|faithfully)|respectfully(?: yours)?|cheers|best"
              + "|all the best|with gratitude|warmly)\\s*(?:[,.!]\\s*(?:[\\w.'’-]+\\s*){0,4})?)$");

  private static final Set<String> SMALL =
      Set.of(
          "a",
          "an",
          "the",
          "of",
          "to",
          "in",
          "on",
          "for",
          "and",
          "or",
          "is",
          "are",
          "be",
          "it",
          "this",
          "that",
          "with",
          "as",
          "by",
          "at",
          "from",
          "how",
          "what",
          "why",
          "does",
          "do",
          "can",
          "you",
          "your",
          "i",
          "me",
          "my",
          "we",
          "our",
          "will",
          "would",
          "should",
          "please",
          "about",
          "into",
          "its",
          "their",
          "so",
          "if",
          "then",
          "than",
          "which",
          "who",
          "when",
          // Words that introduce a restatement rather than add to it ("You asked: ...").
          "question",
          "asked",
          "ask",
          "answer",
          "here",
          "request",
          "task",
          "prompt",
          "q");

  static ScoredText of(String request, String written) {
    return of(request, written, CountingRuns.of(written));
  }

  /**
   * A translation: only words to the evaluator are taken out. Its numbers are meant to carry over
   * from the source as they are, so counting runs are read as written too.
   */
  static ScoredText ofTranslation(String written) {
    return of("", written, new CountingRuns.Read(written, List.of()));
  }

  private static ScoredText of(String request, String written, CountingRuns.Read counted) {
    String content = counted.text();
    Optional<String> announcement = closingAnnouncement(content);
    List<String> announced = announcement.map(line -> List.of(line.strip())).orElse(List.of());
    if (announcement.isPresent()) {
      String rest = content.strip();
      content = rest.substring(0, rest.length() - announcement.get().length()).strip();
      if (content.isEmpty()) {
        return nothingLeft(List.of(), List.of(), List.of(), announced, false);
      }
    }
    Set<String> requestWords = new HashSet<>();
    // A summary of a text the request hands over is made of that text's words: restating is
    // giving back the instruction's. The text given back whole is still a copy.
    boolean summary = RequestWords.summarizes(request);
    if (summary && copies(request, written)) {
      return copy(List.of());
    }
    String asked = summary ? Material.of(request).instruction() : request;
    for (String w : Sentences.words(asked)) {
      requestWords.add(stem(w));
    }
    List<String> restated = new ArrayList<>();
    List<String> directives = new ArrayList<>();
    List<String> emptySteps = new ArrayList<>();
    List<String> courtesies = new ArrayList<>();
    List<String> declined = new ArrayList<>();
    List<String> letterForm = new ArrayList<>();
    StringBuilder kept = new StringBuilder();
    boolean any = false;
    boolean inCode = false;
    for (String line : content.split("\n", -1)) {
      boolean fence = CodeFences.isFence(line);
      inCode ^= fence;
      if (fence || (inCode && !PROSE_LINE.matcher(line).matches())) {
        // Code is not prose: "```python" does not restate a request that names Python, nor does
        // "print(word, count)" one about counting words. Taken out, they left a code block
        // without its fence or its lines. Words to the evaluator are taken out there too; and a
        // line of plain words inside a block is read as prose, so that a fence is no place to
        // hide a restatement or a copy of the request.
        if (DIRECTIVE.matcher(line).find()) {
          directives.add(line.strip());
        } else {
          kept.append(line).append('\n');
          any |= !fence && !line.isBlank(); // a fence alone says nothing
        }
        continue;
      }
      if (letterForm(line)) {
        letterForm.add(line.strip());
        continue;
      }
      if (Facets.emptyStep(line.strip())) {
        // Whole, as a list line, its marker with it.
        emptySteps.add(line.strip());
        continue;
      }
      List<String> keptHere = new ArrayList<>();
      List<String> sentences = Sentences.split(line);
      for (String s : sentences) {
        if (DIRECTIVE.matcher(s).find()) {
          directives.add(s);
        } else if (COURTESY.matcher(s).find()) {
          courtesies.add(s);
        } else if (DECLINE.matcher(s).find()) {
          declined.add(s);
        } else if (restates(s, requestWords)) {
          restated.add(s);
        } else if (Facets.emptyStep(s)) {
          emptySteps.add(s);
        } else {
          keptHere.add(s);
        }
      }
      if (keptHere.isEmpty() && !sentences.isEmpty() && emptySteps.containsAll(sentences)) {
        continue; // a line of empty steps only: gone, line and all
      }
      if (keptHere.size() == sentences.size()) {
        kept.append(line); // untouched: keep its own spacing and markup
      } else {
        kept.append(leadingSpace(line)).append(String.join(" ", keptHere));
      }
      kept.append('\n');
      any |= !keptHere.isEmpty();
    }
    if (restated.isEmpty()
        && directives.isEmpty()
        && emptySteps.isEmpty()
        && courtesies.isEmpty()
        && declined.isEmpty()
        && letterForm.isEmpty()
        && announced.isEmpty()) {
      return untouched(content, counted.runs());
    }
    if (!any) {
      // Nothing left: scored whole (see the class comment), but directives never count, a
      // refusal of the work earns nothing, and neither does a verbatim copy of the request.
      if (!directives.isEmpty() || !declined.isEmpty()) {
        return nothingLeft(List.of(), directives, declined, List.of(), false);
      }
      return copies(request, written) ? copy(restated) : untouched(content, counted.runs());
    }
    if (!kept.isEmpty()) {
      kept.setLength(kept.length() - 1);
    }
    return new ScoredText(
        kept.toString(),
        List.copyOf(restated),
        List.copyOf(directives),
        List.copyOf(emptySteps),
        List.copyOf(courtesies),
        List.copyOf(declined),
        List.copyOf(letterForm),
        announced,
        counted.runs(),
        false);
  }

  /**
   * Whether a line is a letter's form only: a salutation, a sign-off, or placeholders to fill in
   * with nothing else but punctuation. A line with words of its own besides ("Dear team, the
   * release moves to Friday.") is content and stays.
   */
  static boolean letterForm(String line) {
    String bare = line.strip().replace("*", "").replace("_", "");
    if (bare.isEmpty()) {
      return false;
    }
    String unfilled = PLACEHOLDER.matcher(bare).replaceAll(" ");
    if (!unfilled.equals(bare) && unfilled.codePoints().noneMatch(Character::isLetterOrDigit)) {
      return true;
    }
    return SALUTATION_OR_SIGN_OFF.matcher(unfilled).matches();
  }

  /**
   * The answer's last line when it announces what follows and nothing does: a line of {@value
   * #ANNOUNCEMENT_WORDS} words or more ending with a colon ("Here are the prices for each month:"),
   * so that a label left to fill in ("Name:", "Due date:") is not one, outside a code block. Plain
   * string work, not a pattern: a line is as long as a caller makes it, and a pattern with two open
   * runs would backtrack over it quadratically.
   */
  static Optional<String> closingAnnouncement(String content) {
    String text = content.strip();
    String last = text.substring(text.lastIndexOf('\n') + 1);
    int end = last.length();
    while (end > 0 && (last.charAt(end - 1) == '*' || last.charAt(end - 1) == '_')) {
      end--; // "**Here are the results:**"
    }
    boolean announces = end > 0 && last.charAt(end - 1) == ':';
    boolean inCode = CodeFences.endsInCode(text);
    return announces && !inCode && Sentences.wordCount(last) >= ANNOUNCEMENT_WORDS
        ? Optional.of(last)
        : Optional.empty();
  }

  /** Words a closing line needs to announce something rather than label a field to fill in. */
  static final int ANNOUNCEMENT_WORDS = 3;

  /** The content as it is, nothing taken out. */
  static ScoredText whole(String content) {
    return untouched(content, List.of());
  }

  /** The content with nothing taken out but its counting runs read as their ends. */
  private static ScoredText untouched(String content, List<String> countingRuns) {
    return new ScoredText(
        content,
        List.of(),
        List.of(),
        List.of(),
        List.of(),
        List.of(),
        List.of(),
        List.of(),
        countingRuns,
        false);
  }

  /** The request's own text given back: nothing left to score. */
  private static ScoredText copy(List<String> restated) {
    return nothingLeft(restated, List.of(), List.of(), List.of(), true);
  }

  /** Nothing left to score, with what was taken out to leave nothing. */
  private static ScoredText nothingLeft(
      List<String> restated,
      List<String> directives,
      List<String> declined,
      List<String> announced,
      boolean copied) {
    return new ScoredText(
        "",
        List.copyOf(restated),
        List.copyOf(directives),
        List.of(),
        List.of(),
        List.copyOf(declined),
        List.of(),
        List.copyOf(announced),
        List.of(),
        copied);
  }

  /**
   * Whether the content is the request's own text given back: at least {@value #COPY_MIN_WORDS}
   * words, and {@value #COPIED_SHARE} of its runs of {@value #COPY_RUN} words found, in order, in
   * the request, ignoring case, and at least {@value #SAME_CASE_SHARE} of them in the same case;
   * and {@value #COVERED_SHARE} of the request's own runs given back, unless the request asks for
   * its text rewritten. A shortened or corrected text breaks many runs ("If you have any questions,
   * please let me know." keeps half of them), a text put in capitals as asked keeps them only
   * without case, and a pasted source keeps them all. A text given back for a request to correct
   * it, with {@value #CORRECTED_WORDS} words or more it did not have, is its correction, not a
   * copy.
   */
  static boolean copies(String request, String content) {
    List<String> answer = Sentences.words(content);
    if (answer.size() < COPY_MIN_WORDS) {
      return false;
    }
    List<String> source = Sentences.words(request);
    Set<List<String>> sameCase = new HashSet<>(runs(source));
    Set<List<String>> anyCase = new HashSet<>(runs(lower(source)));
    List<List<String>> answerRuns = runs(answer);
    long found = answerRuns.stream().filter(r -> anyCase.contains(lower(r))).count();
    long foundInCase = answerRuns.stream().filter(sameCase::contains).count();
    Set<List<String>> given = new HashSet<>();
    answerRuns.forEach(r -> given.add(lower(r)));
    long covered = anyCase.stream().filter(given::contains).count();
    // A quotation is an extraction's work, but a request to rewrite its own text is not answered by
    // any of that text given back: there, a part of it is as much a copy as the whole.
    boolean rewrites = OwnContent.rewritesItsOwnText(request);
    return found >= COPIED_SHARE * answerRuns.size()
        && foundInCase >= SAME_CASE_SHARE * answerRuns.size()
        && (covered >= COVERED_SHARE * anyCase.size() || rewrites)
        && !(rewrites && corrected(request, answer));
  }

  /**
   * Whether a text given back for a request to correct it brings at least {@value #CORRECTED_WORDS}
   * words the request does not have: its corrections, which are the work.
   */
  private static boolean corrected(String request, List<String> answer) {
    if (!CORRECTS.matcher(Material.of(request).instruction()).find()) {
      return false;
    }
    Set<String> known = new HashSet<>(lower(Sentences.words(request)));
    return lower(answer).stream().filter(w -> !known.contains(w)).distinct().count()
        >= CORRECTED_WORDS;
  }

  private static List<String> lower(List<String> words) {
    return words.stream().map(w -> w.toLowerCase(Locale.ROOT)).toList();
  }

  private static List<List<String>> runs(List<String> words) {
    List<List<String>> out = new ArrayList<>();
    for (int i = 0; i + COPY_RUN <= words.size(); i++) {
      out.add(words.subList(i, i + COPY_RUN));
    }
    return out;
  }

  /** A number the request does not hold, a list's own number ("2. ", "Step 3: ") aside. */
  private static boolean holdsANumberOfItsOwn(String sentence, Set<String> requestWords) {
    for (String w : Sentences.words(LIST_NUMBER.matcher(sentence).replaceFirst(""))) {
      if (NUMBER_WORD.matcher(w).matches() && !requestWords.contains(stem(w))) {
        return true;
      }
    }
    return false;
  }

  /**
   * Every word from the request (small words too: "an certificate an how."), or, with at least
   * {@value #MIN_WORDS} words that are not small, {@value #RESTATED_SHARE} of those; and no number
   * the request does not hold. A number of its own is what the work found: "The startup invested
   * $8000 in the first year and half of that amount, which is $4000, in the second year." is made
   * of the request's words but for its one result.
   */
  private static boolean restates(String sentence, Set<String> requestWords) {
    int all = 0;
    int allFromRequest = 0;
    int words = 0;
    int fromRequest = 0;
    if (holdsANumberOfItsOwn(sentence, requestWords)) {
      return false;
    }
    for (String w : Sentences.words(sentence)) {
      boolean small = SMALL.contains(w.toLowerCase(Locale.ROOT));
      boolean known = requestWords.contains(stem(w));
      all++;
      allFromRequest += known ? 1 : 0;
      if (!small) {
        words++;
        fromRequest += known ? 1 : 0;
      }
    }
    return (all > 0 && allFromRequest == all)
        || (words >= MIN_WORDS && fromRequest >= RESTATED_SHARE * words);
  }

  /** A small word, as {@link #restates} counts words (articles, pronouns, "how", "what"...). */
  static boolean small(String lowerCaseWord) {
    return SMALL.contains(lowerCaseWord);
  }

  /** Crude stemming: "validates", "validated", "validating" and "validate" are one word here. */
  static String stem(String word) {
    String w = word.toLowerCase(Locale.ROOT);
    return w.length() <= 5 ? w : w.substring(0, 5);
  }

  private static String abridged(String run) {
    return run.length() <= 40
        ? run
        : run.substring(0, 20) + " ... " + run.substring(run.length() - 12);
  }

  private static String leadingSpace(String line) {
    int i = 0;
    while (i < line.length() && Character.isWhitespace(line.charAt(i))) {
      i++;
    }
    return line.substring(0, i);
  }

  boolean changed() {
    return copied
        || !restated.isEmpty()
        || !directives.isEmpty()
        || !emptySteps.isEmpty()
        || !courtesies.isEmpty()
        || !declined.isEmpty()
        || !letterForm.isEmpty()
        || !announced.isEmpty()
        || !countingRuns.isEmpty();
  }

  /** For the evidence. */
  String describe() {
    List<String> out = new ArrayList<>();
    if (!restated.isEmpty()) {
      out.add(
          restated.size()
              + (restated.size() == 1 ? " sentence" : " sentences")
              + " restating the request");
    }
    if (!directives.isEmpty()) {
      out.add(
          directives.size()
              + (directives.size() == 1 ? " sentence" : " sentences")
              + " addressed to the evaluator");
    }
    if (!emptySteps.isEmpty()) {
      out.add(
          emptySteps.size()
              + (emptySteps.size() == 1 ? " empty step or list item" : " empty steps or list items")
              + " (nothing but generic words or a hedge)");
    }
    if (!courtesies.isEmpty()) {
      out.add(
          courtesies.size()
              + (courtesies.size() == 1 ? " courtesy" : " courtesies")
              + " about the answer itself (\"I hope this helps\")");
    }
    if (!declined.isEmpty()) {
      out.add(
          declined.size()
              + (declined.size() == 1 ? " sentence" : " sentences")
              + " declining the work (\""
              + abridged(declined.get(0))
              + "\")");
    }
    if (!letterForm.isEmpty()) {
      out.add(
          letterForm.size()
              + (letterForm.size() == 1 ? " line" : " lines")
              + " of a letter's form (salutation, sign-off, placeholders to fill in)");
    }
    if (!announced.isEmpty()) {
      out.add(
          "a closing line announcing what follows with nothing after it (\""
              + announced.get(0)
              + "\")");
    }
    if (!countingRuns.isEmpty()) {
      out.add(
          "the numbers between the two ends of "
              + (countingRuns.size() == 1
                  ? "a counting run"
                  : countingRuns.size() + " counting runs")
              + " (\""
              + abridged(countingRuns.get(0))
              + "\")");
    }
    return "not scored: " + String.join(", ", out);
  }
}
