package dev.asa.evaluators.embedding;

import java.util.Locale;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

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
 * <p>Scans, not patterns over the whole text: a lazy pattern rescans to the end from each of many
 * unclosed openings. Each step moves forward, so the text is read a bounded number of times.
 *
 * @param text the prose as shown
 * @param hidden how many hidden parts were taken out
 */
record Rendered(String text, int hidden) {

  /** An HTML opening tag's name. */
  private static final Pattern TAG_NAME = Pattern.compile("^<([A-Za-z][A-Za-z0-9-]*)");

  /** The {@code hidden} attribute, in an opening tag whose quoted values are taken out. */
  private static final Pattern HIDDEN_ATTRIBUTE = Pattern.compile("(?i)\\shidden(?=[\\s=/>])");

  /** A style that hides, inside a quoted value. */
  private static final Pattern HIDING_STYLE =
      Pattern.compile("(?i)display\\s*:\\s*none|visibility\\s*:\\s*hidden");

  /** A quoted attribute value; bounded by the tag it is read in. */
  private static final Pattern QUOTED = Pattern.compile("\"[^\"]*\"|'[^']*'");

  /** Elements whose contents are never shown, whatever their attributes. */
  private static final Set<String> UNSHOWN = Set.of("script", "style", "template");

  /** Elements without contents: hiding one hides only itself. */
  private static final Set<String> VOID =
      Set.of(
          "area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "param",
          "source", "track", "wbr");

  /**
   * A link reference definition, one line: up to three spaces, a bracketed label, a colon, a
   * destination, and anything after it (a title). The label is bounded, so each line is matched in
   * time proportional to its length.
   */
  private static final Pattern DEFINITION =
      Pattern.compile("^ {0,3}\\[[^\\]\\n]{1,999}\\]:[ \\t]*(\\S+)[^\\n]*$");

  private static final Pattern WEB_ADDRESS = Pattern.compile("(?i)^<?https?://\\S+?>?$");

  static Rendered of(String prose) {
    Rendered markup = withoutHiddenMarkup(prose);
    Rendered definitions = withoutDefinitions(markup.text());
    return new Rendered(definitions.text(), markup.hidden() + definitions.hidden());
  }

  private static Rendered withoutHiddenMarkup(String prose) {
    StringBuilder out = new StringBuilder(prose.length());
    int hidden = 0;
    int from = 0;
    int nextClose = -1; // the first '>' at or after the scan, found once for many '<' before it
    for (int at = prose.indexOf('<'); at >= 0; ) {
      int end; // where the hidden part ends, or -1 when this '<' hides nothing
      if (prose.startsWith("<!--", at)) {
        int close = prose.indexOf("-->", at + 4);
        end = close < 0 ? prose.length() : close + 3;
      } else {
        if (nextClose < at) {
          nextClose = prose.indexOf('>', at);
        }
        if (nextClose < 0) {
          // No tag can close after here: only a comment, never closed, can still hide anything.
          at = prose.indexOf("<!--", at);
          continue;
        }
        int nextOpen = prose.indexOf('<', at + 1);
        // A '<' with another before the next '>' opens no tag ("a < b <i>"): reading it as one
        // would read the text up to that '>' again for each such '<'.
        end = nextOpen >= 0 && nextOpen < nextClose ? -1 : hiddenElementEnd(prose, at, nextClose);
      }
      if (end < 0) {
        at = prose.indexOf('<', at + 1);
        continue;
      }
      out.append(prose, from, at);
      hidden++;
      from = end;
      at = prose.indexOf('<', end);
    }
    return new Rendered(out.append(prose, from, prose.length()).toString(), hidden);
  }

  /**
   * Where the element whose opening tag runs from {@code open} to {@code close} ends, when it is
   * hidden; -1 when it is not an element or is shown.
   */
  private static int hiddenElementEnd(String prose, int open, int close) {
    String tag = prose.substring(open, close + 1);
    Matcher name = TAG_NAME.matcher(tag);
    if (!name.find()) {
      return -1;
    }
    String element = name.group(1).toLowerCase(Locale.ROOT);
    // "hidden" inside a value ("a hidden gem") is no attribute; a hiding style is inside one.
    boolean hides =
        HIDDEN_ATTRIBUTE.matcher(QUOTED.matcher(tag).replaceAll("\"\"")).find()
            || HIDING_STYLE.matcher(tag).find();
    if (!UNSHOWN.contains(element) && !hides) {
      return -1;
    }
    if (VOID.contains(element) || tag.endsWith("/>")) {
      return close + 1;
    }
    // The matching closing tag, counting elements of the same name opened inside it.
    Matcher nested =
        Pattern.compile("(?i)<(/?)" + Pattern.quote(element) + "(?![A-Za-z0-9-])").matcher(prose);
    int depth = 1;
    int at = close + 1;
    while (nested.find(at)) {
      depth += nested.group(1).isEmpty() ? 1 : -1;
      int tagEnd = prose.indexOf('>', nested.end());
      if (tagEnd < 0) {
        return prose.length();
      }
      if (depth == 0) {
        return tagEnd + 1;
      }
      at = tagEnd + 1;
    }
    return prose.length();
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
