package dev.asa.evaluators;

import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import dev.asa.evaluators.text.Html;
import dev.asa.json.Json;
import dev.asa.scoring.CheckResult;
import java.util.Comparator;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import org.jsoup.nodes.Document;
import org.jsoup.nodes.Element;
import org.jsoup.nodes.Range;

/**
 * The {@code format_valid} check: whether the content is what its declared format says. Nothing
 * blank is valid in any format; beyond that each format gets the check it honestly allows.
 */
final class Formats {
  private Formats() {}

  /** The formats of {@code service.deliverable_format}. */
  static final Set<String> KNOWN =
      Set.of("markdown", "text", "json", "code", "csv", "html", "yaml", "xml", "other");

  /**
   * The format as the checks know it: lower case, "code" for a language the code evaluator reads
   * (python, java...), "other" when undeclared or unknown.
   */
  static String normalize(String format) {
    if (format == null) {
      return "other";
    }
    String f = format.toLowerCase(Locale.ROOT);
    if (Language.named(f).isPresent()) {
      return "code";
    }
    return KNOWN.contains(f) ? f : "other";
  }

  static CheckResult check(String content, String declaredFormat) {
    String format = normalize(declaredFormat);
    if (content.isBlank()) {
      return CheckResult.failed("the deliverable is blank");
    }
    String size = Text.plural(Text.characters(content), "character", "characters");
    return switch (format) {
      case "json" -> json(content);
      case "csv" -> Csv.check(content);
      case "xml" -> Xml.check(content);
      case "code" -> Brackets.check(content);
      case "html" -> html(content);
      case "markdown", "text" -> CheckResult.passed(format + " that is not blank (" + size + ")");
      default ->
          CheckResult.passed(
              (declaredFormat == null
                      ? "no format declared"
                      : format.equals(declaredFormat.toLowerCase(Locale.ROOT))
                          ? "format " + format
                          : "unknown format '" + declaredFormat + "'")
                  + ": not blank ("
                  + size
                  + "); the structural evaluator has no further check for it");
    };
  }

  private static CheckResult json(String content) {
    try {
      JsonNode node = Json.parse(content);
      String shape =
          node.isObject()
              ? "an object with " + Text.plural(node.size(), "member", "members")
              : node.isArray()
                  ? "an array of " + Text.plural(node.size(), "element", "elements")
                  : "a single " + node.getNodeType().name().toLowerCase(Locale.ROOT);
      return CheckResult.passed("valid JSON (" + shape + ")");
    } catch (JsonProcessingException e) {
      return CheckResult.failed("not valid JSON: " + jsonProblem(e));
    }
  }

  /** Jackson's message with its location in the reader's terms: "... at line 3, column 5". */
  static String jsonProblem(JsonProcessingException e) {
    JsonLocation at = e.getLocation();
    String message = e.getOriginalMessage() == null ? "unreadable" : e.getOriginalMessage().strip();
    return at == null || at.getLineNr() < 1
        ? message
        : message + " (at line " + at.getLineNr() + ", column " + at.getColumnNr() + ")";
  }

  /**
   * Where {@link #html} looks first. jsoup reads a whole text into a tree, seconds for megabytes of
   * nested tags, where this check needs only the first tag: so the first 64 KiB are read alone, and
   * the whole text only when no tag is found there.
   */
  static final int HTML_PREFIX = 64 * 1024;

  /**
   * HTML when jsoup, reading the content as a browser does, finds an element written in it (not one
   * it adds, such as the {@code body} around a fragment); the evidence quotes its tag as written.
   *
   * <p>Reading a prefix first gives the same answer: the HTML tokenizer and tree builder read left
   * to right, so the tags that end inside a prefix are read the same whatever follows it, and a tag
   * cut off at the prefix's end is dropped rather than read as another. Any element found there
   * starts before every element that starts after the prefix.
   */
  private static CheckResult html(String content) {
    Optional<Range> first = Optional.empty();
    if (content.length() > HTML_PREFIX) {
      first = firstTag(content.substring(0, HTML_PREFIX));
    }
    if (first.isEmpty()) {
      first = firstTag(content);
    }
    return first
        .map(tag ->
            CheckResult.passed(
                "HTML that is not blank and contains markup (first tag "
                    + content.substring(tag.startPos(), tag.endPos())
                    + ")"))
        .orElseGet(() -> CheckResult.failed("declared as html but contains no HTML tag"));
  }

  /** The source range of the first tag written in {@code text} that jsoup reads as an element. */
  static Optional<Range> firstTag(String text) {
    Document page = Html.read(text);
    // The first as written: a browser's tree can move an element away from where it was written.
    return page.getAllElements().stream()
        .map(Element::sourceRange)
        .filter(tag -> tag.isTracked() && !tag.isImplicit())
        .min(Comparator.comparingInt(Range::startPos));
  }
}
