package dev.asa.evaluators.text;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;
import org.commonmark.node.FencedCodeBlock;
import org.commonmark.node.Heading;
import org.commonmark.node.ListItem;
import org.commonmark.node.Node;
import org.commonmark.node.OrderedList;
import org.commonmark.node.Paragraph;
import org.commonmark.node.Text;
import org.commonmark.parser.InlineParser;
import org.commonmark.parser.Parser;

/**
 * The Markdown blocks of a text, parsed once by commonmark-java, so that the CommonMark rules
 * decide what a heading or a list item is and text that only looks like one inside a fenced or
 * indented code block, or an HTML block, is never one.
 *
 * <p>The text comes from a provider, so the parse is bounded. Only blocks are parsed: inline
 * content (emphasis, links, code spans) is kept as written, because the inline rules are where a
 * pathological input costs time (a few megabytes of {@code "*a "} or {@code "["} take seconds),
 * while the block parse is linear and fast (5 MB of nested quotes or list markers in well under a
 * second). commonmark-java caps nesting itself (a hundred levels of quotes or lists, the rest read
 * as text), and the tree is walked with a loop, never recursion, so no nesting can exhaust the
 * stack.
 *
 * @param headings the headings' content as written (ATX and Setext, in quotes and lists too), in
 *     document order
 * @param bulletItems the items of bulleted lists, at any depth, each with something after its
 *     marker (a marker alone, which CommonMark reads as an empty item, is none); and the lines of a
 *     paragraph that open with a "•", which CommonMark reads as text but every reader sees as a
 *     bulleted item (chat answers pasted from a web page write them)
 * @param numberedItems the items of ordered lists ("1." or "1)"), at any depth
 * @param fencedBlocks the fenced code blocks
 */
public record ParsedText(
    List<String> headings, int bulletItems, int numberedItems, int fencedBlocks) {

  /** Inline content left as one text node, as written. */
  private static final InlineParser AS_WRITTEN =
      (lines, block) -> block.appendChild(new Text(lines.getContent()));

  /** Thread-safe and reusable: every parse gets its own state. */
  private static final Parser BLOCKS =
      Parser.builder().inlineParserFactory(context -> AS_WRITTEN).build();

  /** A line of a paragraph opened by a typographic bullet. */
  private static final Pattern BULLET_LINE = Pattern.compile("(?m)^\\s*•\\s+\\S");

  public ParsedText {
    headings = List.copyOf(headings);
  }

  public static ParsedText of(String text) {
    Node document = BLOCKS.parse(text);
    List<String> headings = new ArrayList<>();
    int bulletItems = 0;
    int numberedItems = 0;
    int fencedBlocks = 0;
    Node n = document.getFirstChild();
    while (n != null) {
      switch (n) {
        case Heading h -> headings.add(content(h));
        case ListItem i when i.getFirstChild() == null -> {} // a marker alone is no item
        case ListItem i when i.getParent() instanceof OrderedList -> numberedItems++;
        case ListItem i -> bulletItems++;
        case Paragraph p -> bulletItems += bulletLines(p);
        case FencedCodeBlock f -> fencedBlocks++;
        default -> {}
      }
      n = next(n, document);
    }
    return new ParsedText(headings, bulletItems, numberedItems, fencedBlocks);
  }

  /** The list items, bulleted and numbered. */
  public int listItems() {
    return bulletItems + numberedItems;
  }

  /** The node after {@code n} in document order: its first child, else the next one up. */
  private static Node next(Node n, Node root) {
    if (n.getFirstChild() != null) {
      return n.getFirstChild();
    }
    while (n != root && n.getNext() == null) {
      n = n.getParent();
    }
    return n == root ? null : n.getNext();
  }

  private static int bulletLines(Paragraph p) {
    return p.getFirstChild() instanceof Text t
        ? (int) BULLET_LINE.matcher(t.getLiteral()).results().count()
        : 0;
  }

  private static String content(Heading h) {
    return h.getFirstChild() instanceof Text t ? t.getLiteral().strip() : "";
  }
}
