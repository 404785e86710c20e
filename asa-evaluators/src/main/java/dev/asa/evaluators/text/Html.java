package dev.asa.evaluators.text;

import org.jsoup.nodes.Document;
import org.jsoup.parser.Parser;

/**
 * A text read as HTML by jsoup, as a browser reads it, with the source position of every node, so
 * that what is found can be cut from or quoted out of the text as written.
 *
 * <p>The text comes from a provider. jsoup reads it in one linear pass, but for one thing: it
 * builds a tag's name by joining the pieces it reads, copying the name so far at each, so a name of
 * megabytes ({@code <aaaa...}, or {@code <a<a<a...}, since a '<' inside a name is part of it) took
 * time in the square of its length, 15 s for 4 MB. jsoup is therefore handed a copy of the text, of
 * the same length, in which a name longer than {@value #LONGEST_NAME} characters is ended there by
 * a space, what follows being read as the tag's attributes. No element has a name that long, so no
 * element is read differently, and the positions are those of the text itself.
 */
public final class Html {
  private Html() {}

  /** The characters of a tag's name read as written. */
  static final int LONGEST_NAME = 64;

  /** The text as a document, every node with its source range in the text. */
  public static Document read(String text) {
    return Parser.htmlParser().setTrackPosition(true).parseInput(bounded(text), "");
  }

  /** The text, of the same length, with every tag's name ended after {@value #LONGEST_NAME}. */
  static String bounded(String text) {
    char[] copy = null;
    int i = 0;
    while (i < text.length()) {
      int name = nameAt(text, i);
      if (name < 0) {
        i++;
        continue;
      }
      int end = name;
      while (end < text.length() && !endsName(text.charAt(end))) {
        end++;
      }
      if (end - name > LONGEST_NAME) {
        if (copy == null) {
          copy = text.toCharArray();
        }
        copy[name + LONGEST_NAME] = ' ';
      }
      i = end;
    }
    return copy == null ? text : new String(copy);
  }

  /** Where the name of a tag opened at {@code i} starts ("<a", "</a"), or -1 when none opens. */
  private static int nameAt(String text, int i) {
    if (text.charAt(i) != '<') {
      return -1;
    }
    int letter = i + 1 < text.length() && text.charAt(i + 1) == '/' ? i + 2 : i + 1;
    return letter < text.length() && isAsciiLetter(text.charAt(letter)) ? letter : -1;
  }

  private static boolean isAsciiLetter(char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
  }

  /** What ends a tag's name in the HTML tokenizer: white space, '/' or '>'. */
  private static boolean endsName(char c) {
    return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '/' || c == '>';
  }
}
