package dev.asa.evaluators;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import dev.asa.json.Json;
import dev.asa.scoring.CheckResult;
import dev.asa.text.MarkdownHeadings;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * The {@code required_sections_present} check: every required section appears, compared without
 * regard to case or surrounding space. Sections are the top-level member names of a JSON
 * deliverable and the Markdown headings of any other, as {@link MarkdownHeadings} reads them (ATX
 * and Setext; nothing inside code blocks, HTML blocks or block quotes counts).
 */
final class Sections {
  private Sections() {}

  /** How many found sections the evidence lists at most. */
  private static final int FOUND_SHOWN = 20;

  static CheckResult check(String content, String format, List<String> required) {
    List<String> found;
    String kind;
    if (Formats.normalize(format).equals("json")) {
      kind = "top-level fields";
      try {
        JsonNode node = Json.parse(content);
        if (!node.isObject()) {
          return CheckResult.failed(
              "the JSON deliverable is not an object, so it has no top-level fields to hold the required sections");
        }
        found = node.properties().stream().map(e -> e.getKey()).toList();
      } catch (JsonProcessingException e) {
        return CheckResult.failed(
            "the deliverable is not valid JSON, so its sections cannot be found: "
                + Formats.jsonProblem(e));
      }
    } else {
      kind = "headings";
      found = headings(content);
    }

    Set<String> present = new LinkedHashSet<>();
    found.forEach(f -> present.add(MarkdownHeadings.key(f)));
    List<String> missing =
        required.stream().filter(r -> !present.contains(MarkdownHeadings.key(r))).toList();
    if (missing.isEmpty()) {
      return CheckResult.passed(
          "all "
              + Text.plural(required.size(), "required section", "required sections")
              + " present: "
              + String.join(", ", required));
    }
    return CheckResult.failed(
        "missing "
            + missing.size()
            + " of "
            + Text.plural(required.size(), "required section", "required sections")
            + ": "
            + String.join(", ", missing)
            + "; "
            + kind
            + " found: "
            + listing(found));
  }

  static List<String> headings(String content) {
    return MarkdownHeadings.of(content).stream().map(MarkdownHeadings.Heading::title).toList();
  }

  private static String listing(List<String> found) {
    if (found.isEmpty()) {
      return "none";
    }
    String shown = String.join(", ", found.subList(0, Math.min(FOUND_SHOWN, found.size())));
    return found.size() > FOUND_SHOWN
        ? shown + " and " + (found.size() - FOUND_SHOWN) + " more"
        : shown;
  }
}
