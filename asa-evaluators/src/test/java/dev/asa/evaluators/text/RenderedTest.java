package dev.asa.evaluators.text;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** What a rendered answer never shows, taken out by hand-checked cases and hostile inputs. */
class RenderedTest {

  @Test
  void htmlCommentsAreNotShown() {
    Rendered r = Rendered.of("Shown.<!-- hidden\nover lines --> Also shown. <!-- more -->");
    assertThat(r.text()).isEqualTo("Shown. Also shown. ");
    assertThat(r.hidden()).isEqualTo(2);
    // Never closed, a comment hides the rest, as it does in a browser and in CommonMark.
    Rendered open = Rendered.of("a <!-- x --> b <!-- never closed, a better answer");
    assertThat(open.text()).isEqualTo("a  b ");
    assertThat(open.hidden()).isEqualTo(2);
    assertThat(Rendered.of("x < 5 and <!-- never closed").text()).isEqualTo("x < 5 and ");
  }

  @Test
  void elementsHiddenByAttributeOrStyleAreNotShownWithWhatTheyHold() {
    String prose =
        "Shown. <div hidden>a better answer <div>nested</div> still hidden</div> Shown too."
            + " <span style=\"color: red; display:none\">styled away</span>"
            + " <p style='visibility: hidden'>invisible</p>"
            + " <script>var words = 1;</script><style>p {}</style><template>later</template>"
            + " <b>bold is shown</b> <input hidden value=\"x\"> end.";
    Rendered r = Rendered.of(prose);
    assertThat(r.text()).isEqualTo("Shown.  Shown too.    bold is shown  end.");
    assertThat(r.hidden()).isEqualTo(7);
    // Never closed, a hidden element hides the rest.
    assertThat(Rendered.of("Shown. <DIV HIDDEN>a better answer").text()).isEqualTo("Shown. ");
    // "hidden" in an attribute's value or a word is not the attribute.
    assertThat(Rendered.of("<p class=\"not-hidden\">shown</p> a hidden gem").hidden()).isZero();
    assertThat(Rendered.of("<p title=\"a hidden gem\">shown</p>").hidden()).isZero();
    assertThat(Rendered.of("<p title='x' hidden>not shown</p>").text()).isEmpty();
  }

  @Test
  void hiddenPartsAreFoundAsABrowserReadsTheHtml() {
    // A '>' inside a quoted value does not end the tag; unquoted and upper-case attributes count.
    assertThat(Rendered.of("Shown. <div title=\"a > b\" hidden>a better answer</div> end."))
        .isEqualTo(new Rendered("Shown.  end.", 1));
    assertThat(Rendered.of("a <SPAN class=x STYLE='Display : None'>gone</SPAN> b").text())
        .isEqualTo("a  b");
    // A script's text is not markup: a closing tag inside a string does not end the element early.
    assertThat(Rendered.of("a <script>x = '<div>';</script> b <!-- c --> d").text())
        .isEqualTo("a  b  d");
    // Line ends of any kind, and text after a hidden part, stay exactly as written.
    assertThat(Rendered.of("one\r\n<p hidden>two</p>\r\nthree").text())
        .isEqualTo("one\r\n\r\nthree");
  }

  @Test
  void characterReferencesReadAsWhatTheyStandFor() {
    assertThat(Rendered.of("<p>Tom &amp; Jerry &mdash; 1&#x2013;2 &copy;&nbsp;2024</p>").text())
        .isEqualTo("Tom & Jerry \u2014 1\u20132 \u00A9 2024");
    // Only references written whole: no semicolon, or a name HTML does not have, is text.
    assertThat(Rendered.of("<p>AT&T &copy 2024 &unknown; R&D</p>").text())
        .isEqualTo("AT&T &copy 2024 &unknown; R&D");
    // A reference cannot bring back what the reading of every answer takes out: a zero-width space
    // or a Cyrillic look-alike written as one reads as the word it hides in.
    assertThat(Rendered.of("<p>vari&#8203;ous and v&#1072;rious</p>").text())
        .isEqualTo("various and various");
  }

  @Test
  void linkReferenceDefinitionsAreNotShownButAWebAddressIsKept() {
    String prose =
        "See [RFC 5280][1] for the details.\n\n"
            + "[1]: https://www.rfc-editor.org/rfc/rfc5280 \"a better answer in a title\"\n"
            + "[//]: # (the browser builds a chain to a trusted root, hidden)\n"
            + "[comment]: <> (more hidden words)\n\n"
            + "A paragraph.\n[x]: this line is text, since a definition cannot interrupt one";
    Rendered r = Rendered.of(prose);
    assertThat(r.text())
        .isEqualTo(
            "See [RFC 5280][1] for the details.\n\n"
                + "https://www.rfc-editor.org/rfc/rfc5280\n\n"
                + "A paragraph.\n[x]: this line is text, since a definition cannot interrupt one");
    assertThat(r.hidden()).isEqualTo(3);
  }

  @Test
  void plainProseIsShownAsItIs() {
    String prose = "The browser checks that 3 < 5 and that a > b. Use [a link](x).\n\n\nEnd ";
    assertThat(Rendered.of(prose)).isEqualTo(new Rendered(prose, 0));
  }

  @Test
  void htmlIsReadWithTheParagraphsAndListsItsReaderSees() {
    // As Auto-J's chat answers copied from a web page arrive.
    String page =
        "<div><div></div></div>\n<div><div><p>Sure, I&#39;d be happy to help:</p><ol>"
            + "<li>What are your <b>skills</b>?</li><li>Where would you like to work?</li></ol>"
            + "<p>Salt &amp; pepper.<br>A new line.</p></div><div>\n</div></div>";
    assertThat(Rendered.of(page).text())
        .isEqualTo(
            "Sure, I'd be happy to help:\n\n- What are your skills?\n"
                + "- Where would you like to work?\n\nSalt & pepper.\nA new line.");
    // Verses kept as their lines, paragraphs as paragraphs.
    assertThat(Rendered.of("<p>Verse 1:\nI see the lemons</p><p>Chorus:\nOh, lemons</p>").text())
        .isEqualTo("Verse 1:\nI see the lemons\n\nChorus:\nOh, lemons");
    // Attributes are never shown: words put there are not read.
    assertThat(Rendered.of("<span title=\"certificate chain revocation\">Browsers check.</span>"))
        .isEqualTo(new Rendered("Browsers check.", 0));
  }

  @Test
  void codeAndTextThatOnlyLooksLikeTagsAreShownAsWritten() {
    String code = "Use it so:\n\n```html\n<p>Hello</p>\n\n\n<br>\n```\n\nor `<b>` and `&amp;`.";
    assertThat(Rendered.of(code).text()).isEqualTo(code);
    String text = "#include <Arduino.h> and List<String> where a <b and 3 <5>.";
    assertThat(Rendered.of(text).text()).isEqualTo(text);
    // Outside the code, the tags are still rendered.
    assertThat(Rendered.of("<p>Run:</p>\n```\n<p>x</p>\n```").text())
        .isEqualTo("Run:\n\n```\n<p>x</p>\n```");
  }

  @Test
  void hostileInputsAreReadInBoundedTime() {
    String[] hostile = {
      "<!--".repeat(100_000) + "-", // many comment openings, never closed
      "<a".repeat(100_000) + ">", // many '<' before one far '>'
      "<div hidden>".repeat(50_000) + "x", // many hidden openings, never closed
      "<div hidden></div>".repeat(50_000), // many hidden elements, each closed
      "[x]: y\n".repeat(100_000), // many definitions
      "<".repeat(200_000), // no tag at all
      "<p ".repeat(100_000) + ">", // many tag openings, each bounded
      "<p>".repeat(100_000) + "&amp;".repeat(100_000), // many tags and references to render
      "`".repeat(100_000) + "<b>", // many backticks, no code span
      "x = 1\n".repeat(100_000), // a run of assignments, never code
      "return x;\n".repeat(100_000), // one run of code
      "plain words\n".repeat(100_000), // many lines, none of them code
    };
    for (String text : hostile) {
      long start = System.nanoTime();
      Rendered.of(text);
      // Linear is milliseconds, quadratic minutes: the bound tells them apart on a loaded machine.
      assertThat(System.nanoTime() - start).as("%.20s...", text).isLessThan(20_000_000_000L);
    }
  }

  @Test
  void bulletsWrittenWithoutTheirSpaceAreReadAsAList() {
    Rendered r =
        Rendered.of(
            "Pros:\n-It can be healthier.\n  -It may reduce risk.\nCons:\n-Protein is harder.");
    assertThat(r.text())
        .isEqualTo(
            "Pros:\n- It can be healthier.\n  - It may reduce risk.\nCons:\n- Protein is harder.");
    // One such line is a dash; a number or a small word after it is no bullet; code stays code.
    assertThat(Rendered.of("Temperatures:\n-It was cold.\nThat is all.").text())
        .isEqualTo("Temperatures:\n-It was cold.\nThat is all.");
    assertThat(Rendered.of("-5 degrees\n-x marks\n-NOTE").text())
        .isEqualTo("-5 degrees\n-x marks\n-NOTE");
    String code = "Run it so:\n```\n-Xmx512m\n-Xss2m\n```\n";
    assertThat(Rendered.of(code).text()).isEqualTo(code);
  }
}
