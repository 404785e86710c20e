package dev.asa.evaluators.text;

import java.util.regex.Pattern;

/**
 * The visible layout of a text: paragraphs (blocks between blank lines), markdown or underlined
 * headings, and list items.
 */
public record Structure(int paragraphs, int headings, int listItems) {

  private static final Pattern HEADING =
      Pattern.compile("(?m)^\\s{0,3}(#{1,6}\\s+\\S.*|\\S.*\\n(?:=+|-+)\\s*$)");
  private static final Pattern LIST_ITEM =
      Pattern.compile("(?m)^\\s*(?:[-*+•]|\\d{1,3}[.)])\\s+\\S");

  public static Structure of(String text) {
    int paragraphs = 0;
    for (String block : text.split("\\n\\s*\\n")) {
      if (!block.isBlank()) {
        paragraphs++;
      }
    }
    return new Structure(paragraphs, count(HEADING, text), count(LIST_ITEM, text));
  }

  private static int count(Pattern p, String text) {
    return (int) p.matcher(text).results().count();
  }
}
