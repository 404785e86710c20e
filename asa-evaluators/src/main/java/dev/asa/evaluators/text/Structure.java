package dev.asa.evaluators.text;

/**
 * The visible layout of a text: paragraphs (blocks between blank lines), and the headings (ATX or
 * Setext) and list items its Markdown parse finds ({@link ParsedText}), so that a heading or a list
 * typed inside a code block is code, not layout.
 */
public record Structure(int paragraphs, int headings, int listItems) {

  public static Structure of(String text) {
    int paragraphs = 0;
    for (String block : text.split("\\n\\s*\\n")) {
      if (!block.isBlank()) {
        paragraphs++;
      }
    }
    ParsedText parsed = ParsedText.of(text);
    int headings = (int) parsed.headings().stream().filter(h -> !h.isEmpty()).count();
    return new Structure(paragraphs, headings, parsed.listItems());
  }
}
