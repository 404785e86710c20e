package dev.asa.evaluators.text;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import java.time.Duration;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** A text's Markdown blocks, read once by the CommonMark rules and within bounds. */
class ParsedTextTest {

  /**
   * Far above what any of the inputs below takes (well under a second each when measured on a
   * loaded two-core machine); the inline rules they would trip took 5 to 10 seconds.
   */
  private static final Duration BOUND = Duration.ofSeconds(10);

  private static final int FIVE_MB = 5 * 1024 * 1024;

  @Test
  void headingsAndListItemsAreWhatCommonMarkMakesThem() {
    ParsedText parsed =
        ParsedText.of(
            "# Title\n\nIntro.\n\nSetext\n======\n\n- one\n- two\n  1. nested\n\n#hashtag\n\n"
                + "> ## Quoted\n");
    assertThat(parsed.headings()).containsExactly("Title", "Setext", "Quoted");
    assertThat(parsed.listItems()).isEqualTo(3);
    assertThat(parsed.fencedBlocks()).isZero();
  }

  @Test
  void aHeadingOrAListTypedInsideCodeIsCode() {
    ParsedText parsed =
        ParsedText.of(
            "Prose.\n\n```markdown\n# Not a heading\n- not an item\n```\n\n    # indented\n");
    assertThat(parsed.headings()).isEmpty();
    assertThat(parsed.listItems()).isZero();
    assertThat(parsed.fencedBlocks()).isEqualTo(1);
    assertThat(Structure.of("```\n# a\n## b\n- c\n```")).isEqualTo(new Structure(1, 0, 0));
  }

  @Test
  void bulletedAndNumberedItemsAreToldApart() {
    ParsedText parsed = ParsedText.of("Steps:\n1. one\n2) two\n\n- a\n* b\n+ c\n• d\n");
    assertThat(parsed.numberedItems()).isEqualTo(2);
    assertThat(parsed.bulletItems()).isEqualTo(4);
    assertThat(parsed.listItems()).isEqualTo(6);
  }

  @Test
  void aMarkerAloneIsNoItemSoEmptyBulletsPadNothing() {
    assertThat(ParsedText.of("- one\n-\n-\n- \n1.\n2. two\n").listItems()).isEqualTo(2);
  }

  @Test
  void typographicBulletsCountAsTheItemsEveryReaderSees() {
    assertThat(ParsedText.of("Pros:\n• fast\n• cheap\n•not one\n").listItems()).isEqualTo(2);
    assertThat(ParsedText.of("```\n• in code\n```").listItems()).isZero();
  }

  @Test
  void inlineMarkupIsKeptAsWrittenSoItCostsNothingToRead() {
    assertThat(ParsedText.of("## The *new* `API`").headings()).containsExactly("The *new* `API`");
  }

  /** Five megabytes of each shape a Markdown parser is known to struggle with. */
  @Test
  void fiveMegabytesOfPathologicalMarkdownParseWithinTheBound() {
    Map<String, String> attacks =
        Map.of(
            "nested block quotes", ">".repeat(FIVE_MB),
            "nested list markers", "- ".repeat(FIVE_MB / 2) + "x",
            "nested ordered lists", "1. ".repeat(FIVE_MB / 3) + "x",
            "indented nested lists", indentedList(FIVE_MB),
            "quotes inside lists", "> - ".repeat(FIVE_MB / 4) + "x",
            "unclosed emphasis", "*a ".repeat(FIVE_MB / 3),
            "unclosed link brackets", "[".repeat(FIVE_MB) + "](x)",
            "one huge Setext heading", "word ".repeat(FIVE_MB / 5) + "\n===");
    attacks.forEach((name, text) -> {
      long start = System.nanoTime();
      assertTimeoutPreemptively(BOUND, () -> ParsedText.of(text), name);
      System.out.printf("%s: %d ms%n", name, (System.nanoTime() - start) / 1_000_000);
    });
    // Read whole, not given up on: the heading under five megabytes of words is found.
    assertThat(ParsedText.of(attacks.get("one huge Setext heading")).headings()).hasSize(1);
    assertThat(ParsedText.of(attacks.get("nested list markers")).listItems())
        .as("nesting is capped by the parser, the rest read as text")
        .isBetween(1, 1000);
  }

  /** Random mixes of Markdown's openers never fail the parse nor take long. */
  @Test
  void randomMarkdownNeverFailsTheParse() {
    long seed = new Random().nextLong();
    System.out.println("ParsedTextTest seed: " + seed);
    Random random = new Random(seed);
    String[] pieces = {
      "> ", "- ", "1. ", "# ", "```", "~~~", "\n", "    ", "*", "[", "](", "<div>", "•", "=", "x"
    };
    for (int round = 0; round < 200; round++) {
      StringBuilder text = new StringBuilder();
      for (int i = random.nextInt(2000); i > 0; i--) {
        text.append(pieces[random.nextInt(pieces.length)]);
      }
      ParsedText parsed = ParsedText.of(text.toString());
      long lines = text.chars().filter(c -> c == '\n').count() + 1;
      assertThat(parsed.headings().size()).as("seed %d", seed).isLessThanOrEqualTo((int) lines);
      assertThat(parsed.fencedBlocks()).as("seed %d", seed).isLessThanOrEqualTo((int) lines);
    }
  }

  private static String indentedList(int size) {
    StringBuilder sb = new StringBuilder(size);
    for (int depth = 0; sb.length() < size; depth = (depth + 1) % 400) {
      sb.append("  ".repeat(depth)).append("- item\n");
    }
    return sb.toString();
  }
}
