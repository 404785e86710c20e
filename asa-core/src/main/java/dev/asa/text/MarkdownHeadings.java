package dev.asa.text;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.commonmark.node.Code;
import org.commonmark.node.HardLineBreak;
import org.commonmark.node.Node;
import org.commonmark.node.SoftLineBreak;
import org.commonmark.node.SourceSpan;
import org.commonmark.node.Text;
import org.commonmark.parser.IncludeSourceSpans;
import org.commonmark.parser.InlineParser;
import org.commonmark.parser.InlineParserContext;
import org.commonmark.parser.Parser;

/**
 * The section headings of a Markdown text: what both the structural evaluator's {@code
 * required_sections} and a sealed {@code has_section} criterion look for, and so what decides
 * payments. The text is parsed by commonmark-java, so the CommonMark rules decide what a heading is
 * (ATX {@code # Title} and Setext {@code Title} underlined with {@code ===} or {@code ---}), and
 * text that only looks like a heading inside a fenced or indented code block or an HTML block is
 * never one.
 *
 * <p>Only headings of the document itself count, not headings nested in a block quote or a list
 * item. A block quote holds someone else's words (a quoted source, an example answer), not the
 * deliverable's own structure: a {@code > ## Limitations} quoted from a paper is not the
 * deliverable's Limitations section. The hand-written reader this replaces never counted such
 * headings either, so no verdict changes for them.
 *
 * <p>The text comes from a provider, so only the headings' own content goes through commonmark's
 * inline rules (emphasis, code spans, links), which is what their titles need; every other block is
 * kept as written. The inline rules are where a hostile text costs: a few megabytes of unclosed
 * emphasis ({@code "*a "} repeated) in a paragraph took seconds of CPU and hundreds of megabytes of
 * nodes to read for nothing, since a paragraph holds no section. The block parse is linear.
 */
public final class MarkdownHeadings {
  private MarkdownHeadings() {}

  /** A heading's title (its plain text) and its 1-based line (for Setext, the line of the text). */
  public record Heading(String title, int line) {}

  // Thread-safe and reusable: every parse gets its own state. Block source spans give the lines.
  private static final Parser PARSER =
      Parser.builder()
          .includeSourceSpans(IncludeSourceSpans.BLOCKS)
          .inlineParserFactory(MarkdownHeadings::headingsOnly)
          .build();

  /**
   * commonmark's own inline parser for a heading, with the document's link reference definitions
   * (so {@code ## [Methods][1]} reads "Methods" as before); any other block's content left as one
   * text node, unread. commonmark offers no public handle on its default inline parser, so its
   * implementation class is named here; the pinned version and the tests that compare titles with
   * markup hold it to the same reading.
   */
  private static InlineParser headingsOnly(InlineParserContext context) {
    InlineParser full = new org.commonmark.internal.InlineParserImpl(context);
    return (lines, block) -> {
      if (block instanceof org.commonmark.node.Heading) {
        full.parse(lines, block);
      } else {
        block.appendChild(new Text(lines.getContent()));
      }
    };
  }

  /**
   * The non-empty headings of the document (outside code, HTML blocks, quotes and lists), in order.
   */
  public static List<Heading> of(String text) {
    List<Heading> out = new ArrayList<>();
    for (Node n = PARSER.parse(text).getFirstChild(); n != null; n = n.getNext()) {
      if (n instanceof org.commonmark.node.Heading h) {
        String title = plainText(h).strip();
        if (!title.isEmpty()) {
          out.add(new Heading(title, line(h)));
        }
      }
    }
    return out;
  }

  /**
   * The title when {@code line}, read on its own, is an ATX heading ({@code "## Title ##"} gives
   * "Title", {@code "#"} gives ""), or null when it is not one ({@code "#hashtag"}, seven {@code
   * #}, four leading spaces).
   */
  public static String atxTitle(String line) {
    Node first = PARSER.parse(line).getFirstChild();
    return first instanceof org.commonmark.node.Heading h && first.getNext() == null
        ? plainText(h).strip()
        : null;
  }

  /**
   * How titles compare: case and spacing do not matter (" Key Findings" matches "key findings").
   */
  public static String key(String title) {
    return title.strip().replaceAll("\\s+", " ").toLowerCase(Locale.ROOT);
  }

  /**
   * The heading's text without its markup ({@code ## The *new* `API`} is "The new API"); a line
   * break inside a Setext heading reads as a space. Walked with a loop rather than recursion, so
   * that deeply nested emphasis cannot exhaust the stack.
   */
  private static String plainText(org.commonmark.node.Heading heading) {
    StringBuilder sb = new StringBuilder();
    Node n = heading.getFirstChild();
    while (n != null) {
      switch (n) {
        case Text t -> sb.append(t.getLiteral());
        case Code c -> sb.append(c.getLiteral());
        case SoftLineBreak b -> sb.append(' ');
        case HardLineBreak b -> sb.append(' ');
        default -> {} // inline HTML is markup, not words; containers are entered below
      }
      if (n.getFirstChild() != null) {
        n = n.getFirstChild();
        continue;
      }
      while (n != heading && n.getNext() == null) {
        n = n.getParent();
      }
      n = n == heading ? null : n.getNext();
    }
    return sb.toString();
  }

  private static int line(org.commonmark.node.Heading heading) {
    List<SourceSpan> spans = heading.getSourceSpans();
    return spans.isEmpty() ? 0 : spans.get(0).getLineIndex() + 1;
  }
}
