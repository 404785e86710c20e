package dev.asa.evaluators.text;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.jsoup.nodes.Comment;
import org.jsoup.nodes.Document;
import org.jsoup.nodes.Element;
import org.jsoup.nodes.Entities;
import org.jsoup.nodes.Node;
import org.jsoup.nodes.Range;
import org.jsoup.parser.Parser;
import org.jsoup.select.NodeFilter;
import org.jsoup.select.NodeTraversor;

/**
 * Prose as a rendered answer shows it: without what a Markdown or HTML renderer never puts on the
 * screen, so that words hidden there (the request's terms, a better answer than the one shown) are
 * not scored as if read. A better answer hidden in an HTML comment raised a vague one from 33.3 to
 * 74.9 before comments were taken out; the other hiding places below work the same way.
 *
 * <ul>
 *   <li>HTML comments, {@code <!-- ... -->}; one never closed hides the rest of the text, as it
 *       does in a browser and in CommonMark;
 *   <li>HTML elements hidden by attribute or style ({@code hidden}, {@code display: none}, {@code
 *       visibility: hidden}), and the contents of {@code script}, {@code style} and {@code
 *       template}, with everything nested inside them; one never closed hides the rest;
 *   <li>Markdown link reference definitions ({@code [label]: destination "title"}), which are never
 *       rendered and are the usual Markdown "comment" ({@code [//]: # (hidden words)}): a
 *       definition whose destination is a web address keeps the address, which a reader reaches
 *       through the link and the citation count reads; the rest goes.
 * </ul>
 *
 * <p>What is shown is then read as it is shown: the tags of HTML elements are not words on the
 * screen, so they are taken out (with their attributes, which a reader never sees either), and
 * character references read as the characters they stand for. A block element ends a paragraph, a
 * line break a line, and a list item opens a "- " item, so that an answer delivered as HTML is read
 * with the paragraphs and lists its reader sees. Auto-J's chat answers copied from a web page
 * ({@code <div><p>Sure, ...</p><ol><li>What are your skills...}) had been read as one line of tags,
 * and scored below the plain answers people liked less. Code is shown as written, tags and all:
 * nothing inside a fenced code block or a {@code `code span`} is rendered, and only names of HTML
 * elements are tags ({@code #include <Arduino.h>}, {@code List<String>} and {@code a <b} are text).
 *
 * <p>Comments and hidden elements are found by jsoup, which reads the text as a browser does in one
 * linear pass; the rest is read by scans, not patterns over the whole text: a lazy pattern rescans
 * to the end from each of many unclosed openings. Each step moves forward, so the text is read a
 * bounded number of times.
 *
 * @param text the prose as shown
 * @param hidden how many hidden parts were taken out
 */
public record Rendered(String text, int hidden) {

  /** A style that hides, in a {@code style} attribute. */
  private static final Pattern HIDING_STYLE =
      Pattern.compile("(?i)display\\s*:\\s*none|visibility\\s*:\\s*hidden");

  /** Elements whose contents are never shown, whatever their attributes. */
  private static final Set<String> UNSHOWN = Set.of("script", "style", "template");

  /**
   * A link reference definition, one line: up to three spaces, a bracketed label, a colon, a
   * destination, and anything after it (a title). The label is bounded, so each line is matched in
   * time proportional to its length.
   */
  private static final Pattern DEFINITION =
      Pattern.compile("^ {0,3}\\[[^\\]\\n]{1,999}\\]:[ \\t]*(\\S+)[^\\n]*$");

  private static final Pattern WEB_ADDRESS = Pattern.compile("(?i)^<?https?://\\S+?>?$");

  /**
   * A tag: an element's name and attributes, on one line. The attributes are bounded, so each '<'
   * is read at most that far.
   */
  private static final Pattern TAG =
      Pattern.compile("</?([A-Za-z][A-Za-z0-9]{0,10})(?:\\s[^<>\\n]{0,1000})?/?>");

  /** Elements whose tags end a paragraph. */
  private static final Set<String> BLOCK =
      Set.of(
          "address",
          "article",
          "aside",
          "blockquote",
          "body",
          "caption",
          "dd",
          "details",
          "div",
          "dl",
          "dt",
          "figcaption",
          "figure",
          "footer",
          "h1",
          "h2",
          "h3",
          "h4",
          "h5",
          "h6",
          "header",
          "html",
          "main",
          "nav",
          "ol",
          "p",
          "pre",
          "section",
          "summary",
          "table",
          "tbody",
          "td",
          "tfoot",
          "th",
          "thead",
          "tr",
          "ul");

  /** Elements whose tags are taken out and leave their text where it was. */
  private static final Set<String> INLINE =
      Set.of(
          "a", "abbr", "b", "bdi", "bdo", "big", "cite", "code", "del", "dfn", "em", "font", "i",
          "ins", "kbd", "mark", "q", "s", "samp", "small", "span", "strike", "strong", "sub", "sup",
          "time", "tt", "u", "var", "img", "head", "title", "label", "center");

  /**
   * A character reference written whole, with its semicolon, as CommonMark requires: named ({@code
   * &amp;}), decimal ({@code &#39;}) or hexadecimal ({@code &#x2014;}). Bounded, so each ampersand
   * is read at most that far.
   */
  private static final Pattern REFERENCE =
      Pattern.compile("&(?:#[0-9]{1,7}|#[xX][0-9A-Fa-f]{1,6}|[A-Za-z][A-Za-z0-9]{1,31});");

  public static Rendered of(String prose) {
    Rendered markup = withoutHiddenMarkup(prose);
    Rendered definitions = withoutDefinitions(withTagsRendered(markup.text()));
    return new Rendered(
        withBulletsSpaced(UnfencedCode.fenced(definitions.text())),
        markup.hidden() + definitions.hidden());
  }

  /** A line that opens with a dash against a capitalized word ("-It can be healthier."). */
  private static final Pattern TIGHT_BULLET = Pattern.compile("^([ \\t]*)-(?=\\p{Lu}\\p{Ll})");

  /** Tight bullets a text needs before they are read as a list: one such line is a dash. */
  static final int TIGHT_BULLETS = 2;

  /**
   * Lines written as bullets without the space after the dash ("Pros:\n-It can be healthier
   * ...\n-It may reduce ..."), read as the list items their writer meant and a reader of the text
   * sees; CommonMark and every list pattern here want the space, and without it the items ran
   * together into one sentence of 63 words (Auto-J's vegan-diet answer, clarity 61). Only with
   * {@value #TIGHT_BULLETS} such lines or more, and never inside a fenced code block, where
   * "-Xmx512m" is an option.
   */
  private static String withBulletsSpaced(String text) {
    String[] lines = text.split("\n", -1);
    boolean inCode = false;
    int tight = 0;
    boolean[] spaced = new boolean[lines.length];
    for (int i = 0; i < lines.length; i++) {
      boolean fence = CodeFences.isFence(lines[i]);
      inCode ^= fence;
      if (!fence && !inCode && TIGHT_BULLET.matcher(lines[i]).find()) {
        spaced[i] = true;
        tight++;
      }
    }
    if (tight < TIGHT_BULLETS) {
      return text;
    }
    for (int i = 0; i < lines.length; i++) {
      if (spaced[i]) {
        lines[i] = TIGHT_BULLET.matcher(lines[i]).replaceFirst("$1- ");
      }
    }
    return String.join("\n", lines);
  }

  /**
   * The prose without its comments and hidden elements, as jsoup reads the prose as HTML (the
   * tokenizer and tree rules of browsers, in one linear pass): attributes quoted or not, a closing
   * angle bracket inside a quoted value, case, raw text inside {@code script} and {@code style}.
   * What jsoup finds is cut from the text as written, by the source positions it tracks, so
   * everything shown stays exactly as it was. A hidden element whose closing tag never comes hides
   * the rest of the text, as in a browser (which reads {@code <div hidden/>} as never closed too);
   * a void element ({@code <input hidden>}) hides only its tag.
   */
  private static Rendered withoutHiddenMarkup(String prose) {
    if (prose.indexOf('<') < 0) {
      return new Rendered(prose, 0);
    }
    Document page = Html.read(prose);
    List<int[]> parts = new ArrayList<>();
    NodeTraversor.filter(
        new NodeFilter() {
          @Override
          public FilterResult head(Node node, int depth) {
            int end = hiddenEnd(node, prose);
            if (end < 0) {
              return FilterResult.CONTINUE;
            }
            parts.add(new int[] {node.sourceRange().startPos(), end});
            return FilterResult.SKIP_ENTIRELY;
          }

          @Override
          public FilterResult tail(Node node, int depth) {
            return FilterResult.CONTINUE;
          }
        },
        page);
    // In source order: a browser's tree can move a node away from where it was written (a table's
    // stray text), and a part never closed runs over later ones.
    parts.sort(Comparator.comparingInt(part -> part[0]));
    StringBuilder out = new StringBuilder(prose.length());
    int hidden = 0;
    int from = 0;
    for (int[] part : parts) {
      if (part[0] < from) {
        from = Math.max(from, part[1]);
        continue;
      }
      out.append(prose, from, part[0]);
      hidden++;
      from = part[1];
    }
    return new Rendered(out.append(prose, from, prose.length()).toString(), hidden);
  }

  /**
   * Where a node jsoup read ends in the prose when it is never shown: a comment, or an element
   * hidden by attribute or style or whose contents are never shown; -1 when it is shown, or was not
   * written at all (the {@code html} and {@code body} a parser adds).
   */
  private static int hiddenEnd(Node node, String prose) {
    if (!node.sourceRange().isTracked() || node.sourceRange().isImplicit()) {
      return -1;
    }
    if (node instanceof Comment) {
      // A comment as written ("<!--"); jsoup reads "<?php" and "<!x>" as comments too.
      return prose.startsWith("<!--", node.sourceRange().startPos())
          ? Math.min(node.sourceRange().endPos(), prose.length())
          : -1;
    }
    if (!(node instanceof Element element)) {
      return -1;
    }
    boolean hides =
        UNSHOWN.contains(element.normalName())
            || element.hasAttr("hidden")
            || HIDING_STYLE.matcher(element.attr("style")).find();
    if (!hides) {
      return -1;
    }
    Range end = element.endSourceRange();
    if (end.isTracked() && !end.isImplicit()) {
      return Math.min(end.endPos(), prose.length());
    }
    return element.tag().isEmpty() ? element.sourceRange().endPos() : prose.length();
  }

  /**
   * The text with the tags of HTML elements rendered, outside code: block tags end a paragraph, a
   * line break or list item ends a line, a list item opens a "- " line, and other tags leave
   * nothing. The runs of breaks tags leave ({@code <div><div><p>}) close up to one blank line. The
   * text is returned as it was when it holds no tag or reference to render.
   */
  static String withTagsRendered(String text) {
    if (text.indexOf('<') < 0 && text.indexOf('&') < 0) {
      return text;
    }
    Shown shown = new Shown(text.length());
    boolean inCode = false;
    for (String line : text.split("\n", -1)) {
      boolean fence = CodeFences.isFence(line);
      inCode ^= fence;
      if (fence || inCode) {
        shown.code(line + "\n");
        continue;
      }
      int from = 0;
      for (int[] span : codeSpans(line)) {
        shown.prose(line.substring(from, span[0]));
        shown.code(line.substring(span[0], span[1]));
        from = span[1];
      }
      shown.prose(line.substring(from));
      shown.lineEnd();
    }
    return shown.rendered ? shown.out.toString().strip() : text;
  }

  /**
   * Where the code spans of a line are, as [start, end) pairs: a run of backticks and the next run
   * of the same length. A run with no such partner is text. Each length of run is looked for
   * without a partner at most once, so a line of many runs is read a bounded number of times.
   */
  private static List<int[]> codeSpans(String line) {
    if (line.indexOf('`') < 0) {
      return List.of();
    }
    List<int[]> spans = new ArrayList<>();
    Set<Integer> unpartnered = new HashSet<>();
    int at = line.indexOf('`');
    while (at >= 0) {
      int length = run(line, at);
      int partner = unpartnered.contains(length) ? -1 : partner(line, at + length, length);
      if (partner < 0) {
        unpartnered.add(length);
        at = line.indexOf('`', at + length);
      } else {
        spans.add(new int[] {at, partner + length});
        at = line.indexOf('`', partner + length);
      }
    }
    return spans;
  }

  private static int run(String line, int at) {
    int end = at;
    while (end < line.length() && line.charAt(end) == '`') {
      end++;
    }
    return end - at;
  }

  /** The start of the next run of exactly {@code length} backticks from {@code from}, or -1. */
  private static int partner(String line, int from, int length) {
    for (int at = line.indexOf('`', from); at >= 0; ) {
      int run = run(line, at);
      if (run == length) {
        return at;
      }
      at = line.indexOf('`', at + run);
    }
    return -1;
  }

  /** The text as it is shown, built line by line. */
  private static final class Shown {
    final StringBuilder out;
    boolean rendered;

    /** Whether the last thing shown is a break a tag made: the source's own line end adds none. */
    private boolean brokenByTag;

    Shown(int capacity) {
      out = new StringBuilder(capacity);
    }

    void code(String code) {
      out.append(code);
      brokenByTag = false;
    }

    /** A piece of prose outside code, its tags rendered. */
    void prose(String piece) {
      Matcher tag = TAG.matcher(piece);
      int from = 0;
      while (tag.find()) {
        String name = tag.group(1).toLowerCase(Locale.ROOT);
        int breaks;
        if (BLOCK.contains(name) || name.equals("hr")) {
          breaks = 2;
        } else if (name.equals("li") || name.equals("br")) {
          breaks = 1;
        } else if (INLINE.contains(name)) {
          breaks = 0;
        } else {
          continue; // not an HTML element's name: text ("#include <Arduino.h>")
        }
        text(piece.substring(from, tag.start()));
        if (breaks > 0) {
          breakTo(breaks);
        }
        if (name.equals("li") && !tag.group().startsWith("</")) {
          out.append("- ");
          brokenByTag = false;
        }
        from = tag.end();
        rendered = true;
      }
      text(piece.substring(from));
    }

    void lineEnd() {
      if (!brokenByTag) {
        breakTo(trailingBreaks() + 1);
      }
      brokenByTag = false;
    }

    private void text(String text) {
      String read = references(text);
      rendered |= !read.equals(text);
      out.append(read);
      brokenByTag &= text.isBlank();
    }

    /**
     * Ends the text with {@code breaks} line breaks (at most two: one blank line), without the
     * spaces before them, and never with a break at the very start.
     */
    private void breakTo(int breaks) {
      int end = out.length();
      while (end > 0 && (out.charAt(end - 1) == ' ' || out.charAt(end - 1) == '\t')) {
        end--;
      }
      out.setLength(end);
      for (int have = trailingBreaks(); have < Math.min(breaks, 2) && end > 0; have++) {
        out.append('\n');
      }
      brokenByTag = true;
    }

    private int trailingBreaks() {
      int n = 0;
      while (n < 2 && n < out.length() && out.charAt(out.length() - 1 - n) == '\n') {
        n++;
      }
      return n;
    }
  }

  /**
   * The text with its character references read as the characters they stand for, by jsoup's table
   * of HTML's references (a name it does not know stays as written). What they stand for is then
   * read as {@link PlainText} reads every answer, so that a reference cannot bring back what it
   * takes out: a zero-width space written {@code &#8203;} inside "various" is no more a way to hide
   * the word than the character itself, and {@code &nbsp;} reads as a space.
   */
  private static String references(String text) {
    if (text.indexOf('&') < 0) {
      return text;
    }
    Matcher reference = REFERENCE.matcher(text);
    if (!reference.find()) {
      return text;
    }
    return PlainText.of(
        reference.reset().replaceAll(r -> Matcher.quoteReplacement(shown(r.group()))));
  }

  /** What a whole reference shows: a name by jsoup's table, a number by jsoup's reading of it. */
  private static String shown(String reference) {
    String name = reference.substring(1, reference.length() - 1);
    if (name.charAt(0) == '#') {
      return Parser.unescapeEntities(reference, false);
    }
    return Entities.isNamedEntity(name) ? Entities.getByName(name) : reference;
  }

  /**
   * Link reference definitions taken out. A definition cannot interrupt a paragraph, so only one
   * that opens a block (after a blank line, at the start, or after another definition) is one.
   */
  private static Rendered withoutDefinitions(String text) {
    if (text.indexOf("]:") < 0) {
      return new Rendered(text, 0);
    }
    StringBuilder out = new StringBuilder(text.length());
    int hidden = 0;
    boolean opensBlock = true;
    for (String line : text.split("\n", -1)) {
      Matcher definition = DEFINITION.matcher(line);
      if (opensBlock && definition.matches()) {
        hidden++;
        String destination = definition.group(1);
        if (WEB_ADDRESS.matcher(destination).matches()) {
          out.append(destination).append('\n');
        }
        continue; // the next line may be another definition
      }
      out.append(line).append('\n');
      opensBlock = line.isBlank();
    }
    out.setLength(Math.max(0, out.length() - 1)); // the split's last line had no line break
    return new Rendered(out.toString(), hidden);
  }
}
