package dev.asa.evaluators.text;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;

/**
 * A deliverable cut into passages the model can embed whole: paragraphs, with a short heading
 * joined to the paragraph under it, and a long paragraph cut at sentence ends; and, on demand, its
 * statements: list items and sentences long enough to cover a part of the request on their own.
 *
 * <p>all-MiniLM-L6-v2 was trained on inputs of at most 256 word pieces and truncates beyond that;
 * English prose runs at about 1.3 word pieces a word, so a passage holds at most {@value
 * #MAX_WORDS} words. A very long deliverable is sampled: {@value #MAX_PASSAGES} passages spread
 * evenly over it, and the evidence says so.
 *
 * <p>Statements are what makes coverage paraphrase-aware. A part of the request is often answered
 * by one item of a list or one sentence of a paragraph ("hostname matching against the SAN" by the
 * fourth of six steps: "It matches the hostname in the address bar against the subject alternative
 * name entries"), and the passage as a whole blurs that statement into the others: 0.23 from the
 * part, where the step alone is 0.49. Only the parts of a request of several parts are matched
 * against statements, so they are found only then ({@link #statements}); relevance reads passages.
 *
 * @param passages the passages embedded, in document order
 * @param total how many passages the whole deliverable has ({@code > passages.size()} when sampled)
 */
public record Passages(List<String> passages, int total) {

  public static final int MAX_WORDS = 160;
  public static final int MAX_PASSAGES = 256;

  /**
   * Words a statement needs to cover a part alone. A shorter one ("- Kale", "3. Creative", a title)
   * is a label, which matches a part by sharing its words rather than by saying anything about it.
   * Chosen with {@code asa judge-eval} on the development corpus, against passages alone (PandaLM
   * 71.2%, all 66.7%): list items alone of any length, 70.7% and 66.4%; of at least 10 words, 71.1%
   * and 66.7%; items and sentences of at least 8, 10 and 15 words, PandaLM 71.1, 71.1 and 71.3%,
   * all 66.7, 66.8 and 67.0%. The price: a step of fewer words ("It checks revocation through
   * OCSP.") is read only within its list.
   */
  public static final int STATEMENT_WORDS = 15;

  /**
   * Statements kept, at most, each one more text for the model: as many as the sentences the
   * closeness measure reads (its limit is this one, so the evaluation has already embedded them),
   * so that an answer cut into thousands of items cannot buy thousands of calls.
   */
  public static final int MAX_STATEMENTS = 48;

  /** A block this short (a heading, a label) is context for the next block, not a passage. */
  private static final int HEADING_WORDS = 8;

  public static Passages of(String text) {
    List<String> all = new ArrayList<>();
    String carry = "";
    for (String block : blocks(text)) {
      String b = block.strip();
      if (b.isEmpty()) {
        continue;
      }
      if (Sentences.wordCount(b) < HEADING_WORDS && !b.contains("\n")) {
        carry = carry.isEmpty() ? b : carry + "\n" + b;
        continue;
      }
      cut(carry.isEmpty() ? b : carry + "\n" + b, all);
      carry = "";
    }
    if (!carry.isEmpty()) {
      if (all.isEmpty()) {
        all.add(carry);
      } else {
        all.set(all.size() - 1, all.getLast() + "\n" + carry);
      }
    }
    if (all.size() <= MAX_PASSAGES) {
      return new Passages(List.copyOf(all), all.size());
    }
    List<String> sample = new ArrayList<>(MAX_PASSAGES);
    for (int i = 0; i < MAX_PASSAGES; i++) {
      sample.add(all.get((int) ((long) i * all.size() / MAX_PASSAGES)));
    }
    return new Passages(List.copyOf(sample), all.size());
  }

  /**
   * The text's statements: its list items (each whole, its lines joined, its marker left out), then
   * its sentences, of at least {@value #STATEMENT_WORDS} words each, at most {@value
   * #MAX_STATEMENTS}.
   */
  public static List<String> statements(String text) {
    Set<String> statements = new LinkedHashSet<>();
    for (String item : items(text)) {
      if (statements.size() < MAX_STATEMENTS && Sentences.wordCount(item) >= STATEMENT_WORDS) {
        statements.add(item);
      }
    }
    for (String sentence : Sentences.split(text)) {
      // An item's sentence without its marker is the item itself, already a statement.
      String statement = ListMarkers.withoutMarker(sentence);
      if (statements.size() < MAX_STATEMENTS && Sentences.wordCount(statement) >= STATEMENT_WORDS) {
        statements.add(statement);
      }
    }
    return List.copyOf(statements);
  }

  /**
   * The list items: each line that opens one, with the lines under it up to the next item or a
   * blank line, without its marker and with its spaces made one, as {@link Sentences#split} leaves
   * a sentence: a one-sentence item is then the same statement as its sentence without the marker,
   * not a second one beside it.
   */
  private static List<String> items(String text) {
    List<String> items = new ArrayList<>();
    StringBuilder current = null;
    for (String line : text.split("\n")) {
      Matcher marker = ListMarkers.LIST_MARKER.matcher(line.strip());
      boolean opens = marker.find();
      if ((opens || line.isBlank()) && current != null) {
        items.add(current.toString().replaceAll("\\s+", " ").strip());
        current = null;
      }
      if (opens) {
        current = new StringBuilder(line.strip().substring(marker.end()));
      } else if (current != null) {
        current.append(' ').append(line);
      }
    }
    if (current != null) {
      items.add(current.toString().replaceAll("\\s+", " ").strip());
    }
    return items;
  }

  /**
   * The text's blocks: what blank lines separate, except inside a fenced code block (from a fence,
   * {@link CodeFences#isFence}, to the next), which is one block however many blank lines its code
   * has. Code is one unit: cut at its blank lines, its imports read as a passage of their own, and
   * off the request's topic.
   */
  public static List<String> blocks(String text) {
    List<String> blocks = new ArrayList<>();
    StringBuilder current = new StringBuilder();
    boolean inCode = false;
    for (String line : text.strip().split("\n", -1)) {
      if (!inCode && line.isBlank()) {
        if (!current.isEmpty()) {
          blocks.add(current.toString());
          current.setLength(0);
        }
        continue;
      }
      inCode ^= CodeFences.isFence(line);
      current.append(current.isEmpty() ? "" : "\n").append(line);
    }
    if (!current.isEmpty()) {
      blocks.add(current.toString());
    }
    return blocks;
  }

  /**
   * Adds the block as one passage, or as several cut at sentence ends (or at words, for a run-on).
   */
  private static void cut(String block, List<String> out) {
    if (Sentences.wordCount(block) <= MAX_WORDS) {
      out.add(block);
      return;
    }
    StringBuilder current = new StringBuilder();
    int words = 0;
    for (String sentence : lines(block)) {
      int n = Sentences.wordCount(sentence);
      if (n > MAX_WORDS) {
        if (!current.isEmpty()) {
          out.add(current.toString());
          current.setLength(0);
          words = 0;
        }
        byWords(sentence, out);
        continue;
      }
      if (words + n > MAX_WORDS && !current.isEmpty()) {
        out.add(current.toString());
        current.setLength(0);
        words = 0;
      }
      current.append(current.isEmpty() ? "" : " ").append(sentence);
      words += n;
    }
    if (!current.isEmpty()) {
      out.add(current.toString());
    }
  }

  /** Sentences of prose; for code or tables (many short lines), the lines themselves. */
  private static List<String> lines(String block) {
    String[] lines = block.split("\\n");
    return lines.length > 3 ? List.of(lines) : Sentences.split(block);
  }

  private static void byWords(String sentence, List<String> out) {
    String[] tokens = sentence.strip().split("\\s+");
    for (int i = 0; i < tokens.length; i += MAX_WORDS) {
      out.add(
          String.join(
              " ",
              java.util.Arrays.copyOfRange(tokens, i, Math.min(tokens.length, i + MAX_WORDS))));
    }
  }

  public boolean sampled() {
    return total > passages.size();
  }
}
