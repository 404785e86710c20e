package dev.asa.text;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import dev.asa.text.MarkdownHeadings.Heading;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.commonmark.node.Code;
import org.commonmark.node.HardLineBreak;
import org.commonmark.node.Node;
import org.commonmark.node.SoftLineBreak;
import org.commonmark.node.Text;
import org.commonmark.parser.IncludeSourceSpans;
import org.commonmark.parser.Parser;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class MarkdownHeadingsTest {

  private static List<String> titles(String text) {
    return MarkdownHeadings.of(text).stream().map(Heading::title).toList();
  }

  @Test
  void setextHeadingsCountWithTheLineOfTheirText() {
    String doc = "Intro text.\n\nSummary\n=======\n\nBody.\n\nKey findings\n---\nMore.\n";
    assertThat(MarkdownHeadings.of(doc))
        .containsExactly(new Heading("Summary", 3), new Heading("Key findings", 8));
  }

  @Test
  void aMultiLineSetextHeadingReadsAsOneTitle() {
    assertThat(titles("Known\nLimitations\n===\n")).containsExactly("Known Limitations");
  }

  @Test
  void theTitleIsThePlainTextWithoutMarkup() {
    assertThat(titles("## The *new* `API` and [its docs](https://example.com) <b>now</b>\n"))
        .containsExactly("The new API and its docs now");
    assertThat(titles("# Closing hashes ##\n# C#\n#\n#hashtag\n"))
        .containsExactly("Closing hashes", "C#");
  }

  @ParameterizedTest
  @ValueSource(strings = {"```", "~~~", "````", "~~~~~", "```python", "  ```"})
  void aHeadingInsideAFenceDoesNotCount(String fence) {
    String close = fence.strip().replaceAll("[a-z]+$", "");
    assertThat(titles("# Before\n" + fence + "\n# Methods\n" + close + "\n# After\n"))
        .containsExactly("Before", "After");
  }

  @Test
  void aShorterOrDifferentMarkerDoesNotCloseAFence() {
    // Four backticks are closed only by four or more; ~~~ never closes a ``` fence.
    assertThat(titles("````\n```\n# Methods\n~~~\n# Results\n````\n# After\n"))
        .containsExactly("After");
  }

  @Test
  void anUnclosedFenceRunsToTheEnd() {
    assertThat(titles("# Intro\n```\n# Methods\n\n# Results\n")).containsExactly("Intro");
  }

  @Test
  void aFenceMarkerInsideAnIndentedBlockTogglesNothing() {
    // The old reader saw "```" after up to 3 spaces only, but a marker at 4 spaces inside indented
    // code must not open a fence either, and so must not swallow the heading below it.
    String doc = "# Intro\n\n    ```\n    # not a heading\n\n# Methods\n\n    ~~~\n\n# Results\n";
    assertThat(titles(doc)).containsExactly("Intro", "Methods", "Results");
  }

  @Test
  void htmlBlocksBlockQuotesAndListItemsHoldNoSections() {
    String doc = "# Own\n\n<div>\n# Methods\n</div>\n\n> ## Quoted\n\n- ## Listed\n\n# Also own\n";
    assertThat(titles(doc)).containsExactly("Own", "Also own");
  }

  @Test
  void atxTitleReadsOneLine() {
    assertThat(MarkdownHeadings.atxTitle("## Title ##")).isEqualTo("Title");
    assertThat(MarkdownHeadings.atxTitle("    # four spaces is code")).isNull();
    assertThat(MarkdownHeadings.atxTitle("plain")).isNull();
  }

  @Test
  void adversarialInputsStayLinearAndOffTheStack() {
    String deepQuotes = ">".repeat(200_000) + " # deep\n# After\n";
    String deepEmphasis = "# " + "*".repeat(100_000) + "a" + "*".repeat(100_000) + "\n";
    String manyFences = "```\n".repeat(100_000) + "# Last\n";
    String manyBrackets = "# " + "[".repeat(100_000) + "x\n";
    assertTimeoutPreemptively(
        Duration.ofSeconds(10),
        () -> {
          // commonmark-java stops nesting blocks past a depth limit and reads the rest as paragraph
          // text, so even "# After" is swallowed: a document can only hide its own sections this
          // way.
          assertThat(titles(deepQuotes)).isEmpty();
          assertThat(titles(deepEmphasis)).hasSize(1);
          assertThat(titles(manyFences))
              .containsExactly("Last"); // an even number of fences: all closed
          assertThat(titles(manyBrackets)).hasSize(1);
        });
  }

  /**
   * Megabytes of unclosed emphasis, links and code spans in a paragraph, the inline rules' costly
   * case: only headings are read inline, so the text is read once, in time linear in its length.
   * The bound only tells "ends" from "never ends" on a loaded machine.
   */
  @Test
  void megabytesOfUnclosedInlineMarkupInAParagraphAreNotReadInline() {
    String[] units = {"*a ", "_a ", "[a ", "`a ", "<a<a "};
    for (String unit : units) {
      String doc = "# Intro\n\n" + unit.repeat(16_000_000 / unit.length()) + "\n\n# After\n";
      assertTimeoutPreemptively(
          Duration.ofSeconds(60),
          () -> assertThat(titles(doc)).as(unit).containsExactly("Intro", "After"));
    }
  }

  /**
   * The titles are those a full commonmark parse (every block read inline, as this class read them
   * before) gives, on headings with every kind of inline markup: emphasis, code spans, inline and
   * reference links (defined before or after the heading), images, inline HTML, entities, escapes,
   * hard and soft breaks in Setext headings, and emphasis across their lines.
   */
  @Test
  void titlesAreThoseOfAFullParseOnOrdinaryDocuments() {
    String[] headings = {
      "# Plain title",
      "## The *new* `API` and [its docs](https://example.com) <b>now</b>",
      "### A [reference link][ref] and [another] one",
      "# ![an image](x.png) caption",
      "## Entities &amp; escapes \\*not emphasis\\* &copy; &#35;",
      "# __strong__ and _em_ and ***both***",
      "#### Unclosed *emphasis and `code",
      "Setext with *emphasis\nacross* lines\n===",
      "Setext with a hard  \nbreak\n---",
      "# <https://auto.link> and www.example.com",
      "## Trailing hashes ###",
      "# C# and F#",
    };
    String definitions = "[ref]: https://example.com/ref\n[another]: /another \"title\"\n";
    long seed = new Random().nextLong();
    System.out.println("MarkdownHeadingsTest full-parse seed " + seed);
    Random r = new Random(seed);
    for (int round = 0; round < 200; round++) {
      StringBuilder doc = new StringBuilder();
      if (r.nextBoolean()) {
        doc.append(definitions).append('\n');
      }
      doc.append(headings[r.nextInt(headings.length)]).append("\n\n");
      for (int b = 0; b < r.nextInt(8); b++) {
        doc.append(
                switch (r.nextInt(4)) {
                  case 0, 1 -> headings[r.nextInt(headings.length)];
                  case 2 -> "A paragraph with *emphasis*, [a link][ref] and `code`.";
                  default -> "> # A quoted " + headings[r.nextInt(headings.length)];
                })
            .append("\n\n");
      }
      if (r.nextBoolean()) {
        doc.append(definitions);
      }
      assertThat(MarkdownHeadings.of(doc.toString()))
          .as("seed %d round %d:\n%s", seed, round, doc)
          .isEqualTo(fullParse(doc.toString()))
          .isNotEmpty();
    }
  }

  /** The headings as a full commonmark parse reads them: the reading before only headings were. */
  private static List<Heading> fullParse(String text) {
    Parser full = Parser.builder().includeSourceSpans(IncludeSourceSpans.BLOCKS).build();
    List<Heading> out = new ArrayList<>();
    for (Node n = full.parse(text).getFirstChild(); n != null; n = n.getNext()) {
      if (n instanceof org.commonmark.node.Heading h) {
        StringBuilder sb = new StringBuilder();
        appendPlain(h, sb);
        String title = sb.toString().strip();
        if (!title.isEmpty()) {
          out.add(new Heading(title, h.getSourceSpans().get(0).getLineIndex() + 1));
        }
      }
    }
    return out;
  }

  private static void appendPlain(Node node, StringBuilder sb) {
    for (Node n = node.getFirstChild(); n != null; n = n.getNext()) {
      switch (n) {
        case Text t -> sb.append(t.getLiteral());
        case Code c -> sb.append(c.getLiteral());
        case SoftLineBreak b -> sb.append(' ');
        case HardLineBreak b -> sb.append(' ');
        default -> appendPlain(n, sb);
      }
    }
  }

  /**
   * Random documents built from blocks whose headings are known: ATX and Setext headings count; the
   * same heading lines inside fences (``` or ~~~, 3 to 6 long), indented code, HTML blocks and
   * block quotes do not.
   */
  @Test
  void randomDocumentsYieldExactlyTheirOwnHeadings() {
    long seed = new Random().nextLong();
    System.out.println("MarkdownHeadingsTest seed " + seed);
    Random r = new Random(seed);
    for (int round = 0; round < 300; round++) {
      StringBuilder doc = new StringBuilder();
      List<Heading> expected = new ArrayList<>();
      int line = 1;
      int blocks = 1 + r.nextInt(12);
      for (int b = 0; b < blocks; b++) {
        String title = "Title " + round + "-" + b;
        String block =
            switch (r.nextInt(7)) {
              case 0 -> {
                expected.add(new Heading(title, line));
                yield " ".repeat(r.nextInt(4))
                    + "#".repeat(1 + r.nextInt(6))
                    + " "
                    + title
                    + (r.nextBoolean() ? " ##" : "")
                    + "\n";
              }
              case 1 -> {
                expected.add(new Heading(title, line));
                yield title + "\n" + (r.nextBoolean() ? "=" : "-").repeat(1 + r.nextInt(5)) + "\n";
              }
              case 2 -> {
                String fence = (r.nextBoolean() ? "`" : "~").repeat(3 + r.nextInt(4));
                yield fence + "\n# " + title + "\n" + title + "\n===\n" + fence + "\n";
              }
              case 3 -> "    # " + title + "\n    ```\n";
              case 4 -> "<div>\n# " + title + "\n</div>\n";
              case 5 -> "> # " + title + "\n";
              default -> "Some words about " + title + ".\n";
            };
        doc.append(block).append('\n');
        line += (int) block.chars().filter(c -> c == '\n').count() + 1;
      }
      assertThat(MarkdownHeadings.of(doc.toString()))
          .as("seed %d round %d:\n%s", seed, round, doc)
          .isEqualTo(expected);
    }
  }
}
