package dev.asa.shadow;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import dev.asa.json.Jcs;
import dev.asa.json.Json;
import dev.asa.text.MarkdownHeadings;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Runs a seal's criteria against a deliverable: the seal is verified first (signature and
 * commitment, recomputed from the stored nonce and criteria, never trusted from the store), then
 * every criterion is decided pass or fail with its evidence. A broken seal does not stop the run,
 * so the report still shows what the criteria found; it makes the report advisory and the gate
 * {@link Gate#BLOCKED}.
 */
public final class ShadowValidator {

  /**
   * Character reads one regex check may make before it is given up as an error. A step budget
   * rather than a timeout: no clock, and the same verdict on every machine. Fifty million reads
   * cover any sane pattern over the largest input, and stop {@code (a+)+$} within a second.
   */
  public static final long REGEX_STEP_BUDGET = 50_000_000L;

  /** Longest deliverable a regex check runs on (characters). */
  public static final int MAX_REGEX_INPUT = 1_000_000;

  /** Longest found text quoted in evidence. */
  private static final int QUOTE = 80;

  private ShadowValidator() {}

  /** Verifies the seal and decides every criterion; judged ones go to {@code judge}. */
  public static ShadowValidation validate(
      SealedEnvelope envelope, DeliveredWork work, Judge judge) {
    Objects.requireNonNull(envelope, "envelope");
    Objects.requireNonNull(work, "work");
    Objects.requireNonNull(judge, "judge");
    SealVerification seal = SealVerification.check(envelope);
    List<CriterionResult> results = new ArrayList<>();
    for (SealedCriterion c : envelope.criteria().criteria()) {
      results.add(decide(c, work, judge));
    }
    return new ShadowValidation(envelope.commitment(), seal, results);
  }

  /** Decides one criterion. */
  public static CriterionResult decide(SealedCriterion criterion, DeliveredWork work, Judge judge) {
    String text = work.content();
    return switch (criterion.check()) {
      case Check.Contains c -> contains(criterion, c, text);
      case Check.Regex r -> regex(criterion, r, text);
      case Check.JsonSchema s -> jsonSchema(criterion, s, work);
      case Check.JsonPathEquals p -> jsonPathEquals(criterion, p, work);
      case Check.MinWords m -> {
        long n = words(text);
        yield n >= m.value()
            ? pass(criterion, "found " + n + " words; at least " + m.value() + " required")
            : fail(criterion, "found " + n + " words; at least " + m.value() + " required");
      }
      case Check.MaxWords m -> {
        long n = words(text);
        yield n <= m.value()
            ? pass(criterion, "found " + n + " words; at most " + m.value() + " allowed")
            : fail(criterion, "found " + n + " words; at most " + m.value() + " allowed");
      }
      case Check.HasSection h -> hasSection(criterion, h, text);
      case Check.Judged j -> judged(criterion, j, work, judge);
    };
  }

  private static CriterionResult contains(
      SealedCriterion criterion, Check.Contains c, String text) {
    int at;
    if (c.caseSensitive()) {
      at = text.indexOf(c.value());
    } else {
      // A quoted literal: linear, and case folding agrees with Java's Unicode-aware comparison.
      Matcher m =
          Pattern.compile(Pattern.quote(c.value()), Pattern.CASE_INSENSITIVE | Pattern.UNICODE_CASE)
              .matcher(text);
      at = m.find() ? m.start() : -1;
    }
    String how = c.caseSensitive() ? "" : " (ignoring case)";
    return at >= 0
        ? pass(criterion, "found " + quote(c.value()) + how + " at line " + line(text, at))
        : fail(criterion, quote(c.value()) + " does not occur" + how);
  }

  private static CriterionResult regex(SealedCriterion criterion, Check.Regex r, String text) {
    if (text.length() > MAX_REGEX_INPUT) {
      return error(
          criterion,
          "the deliverable has "
              + text.length()
              + " characters, more than the "
              + MAX_REGEX_INPUT
              + " a regex check reads");
    }
    try {
      Matcher m = r.compiled().matcher(new BudgetedText(text, new long[] {REGEX_STEP_BUDGET}));
      if (m.find()) {
        return pass(
            criterion,
            "regex matched at line "
                + line(text, m.start())
                + ": "
                + quote(text.substring(m.start(), m.end())));
      }
      return fail(criterion, "regex found no match in " + text.length() + " characters");
    } catch (BudgetedText.Exhausted e) {
      return error(
          criterion,
          "regex gave up after "
              + REGEX_STEP_BUDGET
              + " steps (catastrophic backtracking?): no verdict");
    } catch (StackOverflowError e) {
      // Deeply nested groups over long input recurse in java.util.regex; same outcome as the
      // budget.
      return error(criterion, "regex exhausted the matcher's stack: no verdict");
    }
  }

  private static CriterionResult jsonSchema(
      SealedCriterion criterion, Check.JsonSchema s, DeliveredWork work) {
    JsonNode doc;
    try {
      doc = Json.parse(work.content());
    } catch (JsonProcessingException e) {
      return fail(criterion, notJson(work, e));
    }
    List<String> violations;
    try {
      violations = JsonSchemas.violations(s.schema(), doc);
    } catch (RuntimeException e) {
      return error(criterion, "the sealed JSON Schema could not be applied: " + e.getMessage());
    }
    if (violations.isEmpty()) {
      return pass(criterion, "the deliverable satisfies the JSON Schema");
    }
    int shown = Math.min(JsonSchemas.ERRORS_SHOWN, violations.size());
    int more = violations.size() - shown;
    return fail(
        criterion,
        violations.size()
            + (violations.size() == 1 ? " schema violation: " : " schema violations: ")
            + String.join("; ", violations.subList(0, shown))
            + (more > 0 ? "; and " + more + " more" : ""));
  }

  private static CriterionResult jsonPathEquals(
      SealedCriterion criterion, Check.JsonPathEquals p, DeliveredWork work) {
    JsonNode doc;
    try {
      doc = Json.parse(work.content());
    } catch (JsonProcessingException e) {
      return fail(criterion, notJson(work, e));
    }
    String where = p.path().isEmpty() ? "the document" : p.path();
    JsonNode found = doc.at(p.pointer());
    if (found.isMissingNode()) {
      return fail(criterion, where + " is missing, expected " + json(p.value()));
    }
    boolean equal = java.util.Arrays.equals(Jcs.canonicalize(found), Jcs.canonicalize(p.value()));
    return equal
        ? pass(criterion, where + " is " + json(found))
        : fail(criterion, where + " is " + json(found) + ", expected " + json(p.value()));
  }

  private static CriterionResult hasSection(
      SealedCriterion criterion, Check.HasSection h, String text) {
    List<MarkdownHeadings.Heading> headings = MarkdownHeadings.of(text);
    String wanted = MarkdownHeadings.key(h.title());
    for (MarkdownHeadings.Heading heading : headings) {
      if (MarkdownHeadings.key(heading.title()).equals(wanted)) {
        return pass(
            criterion, "found heading " + quote(heading.title()) + " at line " + heading.line());
      }
    }
    if (headings.isEmpty()) {
      return fail(
          criterion,
          "no heading " + quote(h.title()) + ": the deliverable has no Markdown headings");
    }
    List<String> titles =
        headings.stream()
            .limit(10)
            .map(MarkdownHeadings.Heading::title)
            .map(ShadowValidator::quote)
            .toList();
    return fail(
        criterion,
        "no heading "
            + quote(h.title())
            + "; headings found: "
            + String.join(", ", titles)
            + (headings.size() > 10 ? " and " + (headings.size() - 10) + " more" : ""));
  }

  private static CriterionResult judged(
      SealedCriterion criterion, Check.Judged j, DeliveredWork work, Judge judge) {
    Judge.Verdict verdict;
    try {
      verdict = judge.judge(j.assertion(), work);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return error(criterion, "the judge was interrupted: no verdict");
    } catch (Exception e) {
      return error(
          criterion,
          "the judge failed: "
              + (e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage()));
    }
    if (verdict == null) {
      return error(criterion, "the judge gave no verdict");
    }
    String evidence =
        verdict.evidence().isEmpty()
            ? (verdict.passed()
                ? "the judge found the assertion holds"
                : "the judge found the assertion does not hold")
            : verdict.evidence();
    return verdict.passed() ? pass(criterion, evidence) : fail(criterion, evidence);
  }

  /**
   * Runs of characters that are neither whitespace nor space separators (no-break spaces included).
   */
  static long words(String text) {
    long n = 0;
    boolean inWord = false;
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      boolean space = Character.isWhitespace(c) || Character.isSpaceChar(c);
      if (!space && !inWord) {
        n++;
      }
      inWord = !space;
    }
    return n;
  }

  private static String notJson(DeliveredWork work, JsonProcessingException e) {
    String declared = "json".equalsIgnoreCase(work.format()) ? "declared JSON but " : "";
    return "the deliverable " + declared + "is not JSON: " + e.getOriginalMessage();
  }

  /** 1-based line of a character index. */
  static int line(String text, int index) {
    int line = 1;
    for (int i = 0; i < index; i++) {
      if (text.charAt(i) == '\n') {
        line++;
      }
    }
    return line;
  }

  private static String json(JsonNode node) {
    String s = Json.write(node);
    return s.length() <= QUOTE ? s : s.substring(0, QUOTE - 3) + "...";
  }

  private static String quote(String s) {
    String one =
        s.codePoints()
            .collect(
                StringBuilder::new,
                (b, c) -> b.appendCodePoint(Character.isISOControl(c) ? ' ' : c),
                StringBuilder::append)
            .toString();
    return "'" + (one.length() <= QUOTE ? one : one.substring(0, QUOTE - 3) + "...") + "'";
  }

  private static CriterionResult pass(SealedCriterion c, String actual) {
    return new CriterionResult(c, Status.PASSED, actual);
  }

  private static CriterionResult fail(SealedCriterion c, String actual) {
    return new CriterionResult(c, Status.FAILED, actual);
  }

  private static CriterionResult error(SealedCriterion c, String actual) {
    return new CriterionResult(c, Status.ERROR, actual);
  }

  /** The text a regex reads, counting every character read against a shared budget. */
  private record BudgetedText(String text, int start, int end, long[] budget)
      implements CharSequence {

    BudgetedText(String text, long[] budget) {
      this(text, 0, text.length(), budget);
    }

    static final class Exhausted extends RuntimeException {
      Exhausted() {
        super(null, null, false, false);
      }
    }

    @Override
    public char charAt(int index) {
      if (--budget[0] < 0) {
        throw new Exhausted();
      }
      return text.charAt(start + index);
    }

    @Override
    public int length() {
      return end - start;
    }

    @Override
    public CharSequence subSequence(int from, int to) {
      return new BudgetedText(text, start + from, start + to, budget);
    }

    @Override
    public String toString() {
      return text.substring(start, end);
    }
  }
}
