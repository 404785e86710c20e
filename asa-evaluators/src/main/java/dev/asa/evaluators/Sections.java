package dev.asa.evaluators;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import dev.asa.json.Json;
import dev.asa.scoring.CheckResult;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * The {@code required_sections_present} check: every required section appears, compared without
 * regard to case or surrounding space. Sections are the top-level member names of a JSON
 * deliverable and the headings ({@code #} to {@code ######}) of any other; headings inside fenced
 * code blocks do not count.
 */
final class Sections {
  private Sections() {}

  private static final Pattern FENCE = Pattern.compile("^ {0,3}(```|~~~)");

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
          return CheckResult.failed("the JSON deliverable is not an object, so it has no top-level fields to hold the required sections");
        }
        found = node.properties().stream().map(e -> e.getKey()).toList();
      } catch (JsonProcessingException e) {
        return CheckResult.failed("the deliverable is not valid JSON, so its sections cannot be found: " + Formats.jsonProblem(e));
      }
    } else {
      kind = "headings";
      found = headings(content);
    }

    Set<String> present = new LinkedHashSet<>();
    found.forEach(f -> present.add(key(f)));
    List<String> missing = required.stream().filter(r -> !present.contains(key(r))).toList();
    if (missing.isEmpty()) {
      return CheckResult.passed(
          "all " + Text.plural(required.size(), "required section", "required sections") + " present: "
              + String.join(", ", required));
    }
    return CheckResult.failed(
        "missing " + missing.size() + " of " + Text.plural(required.size(), "required section", "required sections")
            + ": " + String.join(", ", missing) + "; " + kind + " found: " + listing(found));
  }

  static List<String> headings(String content) {
    List<String> headings = new ArrayList<>();
    boolean inFence = false;
    for (String line : content.split("\\R", -1)) {
      if (FENCE.matcher(line).find()) {
        inFence = !inFence;
        continue;
      }
      if (!inFence) {
        String title = atxHeading(line);
        if (title != null && !title.isEmpty()) {
          headings.add(title);
        }
      }
    }
    return headings;
  }

  /**
   * The title of an ATX heading (up to 3 spaces, 1 to 6 #, a space or tab, the title, optional
   * closing #s), or null when the line is not one. Parsed by hand rather than by a regular
   * expression, so that long runs of spaces cannot make it backtrack.
   */
  static String atxHeading(String line) {
    int i = 0;
    while (i < line.length() && i < 3 && line.charAt(i) == ' ') {
      i++;
    }
    int hashes = 0;
    while (i + hashes < line.length() && line.charAt(i + hashes) == '#') {
      hashes++;
    }
    if (hashes < 1 || hashes > 6) {
      return null;
    }
    i += hashes;
    if (i < line.length() && line.charAt(i) != ' ' && line.charAt(i) != '\t') {
      return null; // "#hashtag" is not a heading
    }
    String title = line.substring(i).strip();
    int end = title.length();
    while (end > 0 && title.charAt(end - 1) == '#') {
      end--;
    }
    // Closing #s count only when set off by a space ("## Title ##"), or when they are all there is.
    if (end == 0 || title.charAt(end - 1) == ' ' || title.charAt(end - 1) == '\t') {
      title = title.substring(0, end).strip();
    }
    return title;
  }

  /** Case and spacing do not matter: "  Key   Findings" matches "key findings". */
  private static String key(String section) {
    return section.strip().replaceAll("\\s+", " ").toLowerCase(Locale.ROOT);
  }

  private static String listing(List<String> found) {
    if (found.isEmpty()) {
      return "none";
    }
    String shown = String.join(", ", found.subList(0, Math.min(FOUND_SHOWN, found.size())));
    return found.size() > FOUND_SHOWN ? shown + " and " + (found.size() - FOUND_SHOWN) + " more" : shown;
  }
}
