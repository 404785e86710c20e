package dev.asa.evaluators.embedding;

import java.util.ArrayList;
import java.util.List;

/**
 * A deliverable cut into passages the model can embed whole: paragraphs, with a short heading
 * joined to the paragraph under it, and a long paragraph cut at sentence ends.
 *
 * <p>all-MiniLM-L6-v2 was trained on inputs of at most 256 word pieces and truncates beyond that;
 * English prose runs at about 1.3 word pieces a word, so a passage holds at most {@value
 * #MAX_WORDS} words. A very long deliverable is sampled: {@value #MAX_PASSAGES} passages spread
 * evenly over it, and the evidence says so.
 *
 * @param passages the passages embedded, in document order
 * @param total how many passages the whole deliverable has ({@code > passages.size()} when sampled)
 */
record Passages(List<String> passages, int total) {

  static final int MAX_WORDS = 160;
  static final int MAX_PASSAGES = 256;

  /** A block this short (a heading, a label) is context for the next block, not a passage. */
  private static final int HEADING_WORDS = 8;

  static Passages of(String text) {
    List<String> all = new ArrayList<>();
    String carry = "";
    for (String block : text.strip().split("\\n\\s*\\n")) {
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

  boolean sampled() {
    return total > passages.size();
  }
}
