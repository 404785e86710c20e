package dev.asa.text;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Pattern;

/**
 * The ATX headings of a Markdown text, outside fenced code blocks: what both the structural
 * evaluator's {@code required_sections} and a sealed {@code has_section} criterion look for.
 */
public final class MarkdownHeadings {
  private MarkdownHeadings() {}

  /** A heading's title and its 1-based line. */
  public record Heading(String title, int line) {}

  private static final Pattern FENCE = Pattern.compile("^ {0,3}(```|~~~)");

  /** The non-empty ATX headings outside fenced code blocks, in order. */
  public static List<Heading> of(String text) {
    List<Heading> out = new ArrayList<>();
    boolean inFence = false;
    String[] lines = text.split("\\R", -1);
    for (int i = 0; i < lines.length; i++) {
      String line = lines[i];
      if (FENCE.matcher(line).find()) {
        inFence = !inFence;
        continue;
      }
      if (!inFence) {
        String title = atxTitle(line);
        if (title != null && !title.isEmpty()) {
          out.add(new Heading(title, i + 1));
        }
      }
    }
    return out;
  }

  /**
   * The title of an ATX heading (up to 3 spaces, 1 to 6 #, a space or tab, the title, optional
   * closing #s), or null when the line is not one. Parsed by hand rather than by a regular
   * expression, so that long runs of spaces cannot make it backtrack.
   */
  public static String atxTitle(String line) {
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

  /** How titles compare: case and spacing do not matter ("  Key   Findings" matches "key findings"). */
  public static String key(String title) {
    return title.strip().replaceAll("\\s+", " ").toLowerCase(Locale.ROOT);
  }
}
