package dev.example.text;

/** Counts words, lines and characters in a text, like the Unix wc command. */
public final class WordCount {

  public record Counts(long lines, long words, long characters) {}

  public static Counts of(String text) {
    long lines = text.chars().filter(c -> c == '\n').count();
    long words = 0;
    boolean inWord = false;
    for (int i = 0; i < text.length(); i++) {
      boolean space = Character.isWhitespace(text.charAt(i));
      if (!space && !inWord) {
        words++;
      }
      inWord = !space;
    }
    return new Counts(lines, words, text.codePointCount(0, text.length()));
  }

  public static void main(String[] args) throws java.io.IOException {
    String text = new String(System.in.readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
    Counts c = of(text);
    System.out.printf("%d %d %d%n", c.lines(), c.words(), c.characters());
  }
}
