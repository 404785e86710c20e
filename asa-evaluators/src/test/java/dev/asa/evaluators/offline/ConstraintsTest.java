package dev.asa.evaluators.offline;

import static org.assertj.core.api.Assertions.assertThat;

import dev.asa.evaluators.offline.Constraints.Check;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** The request's explicit instructions, each found and checked against a count made by hand. */
class ConstraintsTest {

  private static List<Boolean> met(String request, String answer) {
    return Constraints.of(request, answer).checks().stream().map(Check::met).toList();
  }

  @Test
  void wordLimitsAllowALittleSlack() {
    String request = "Describe a heat pump in under 10 words.";
    assertThat(met(request, "It moves heat from outside air into the house."))
        .containsExactly(true);
    // 12 words: within 10 and a fifth.
    assertThat(met(request, "It moves heat from cold outside air into the warm house, cheaply."))
        .containsExactly(true);
    assertThat(
            met(
                request,
                "A heat pump is a machine that moves heat from the cold outside air into a warm"
                    + " house using a refrigerant cycle."))
        .containsExactly(false);
  }

  @Test
  void sentenceAndParagraphLimitsAreExact() {
    assertThat(met("Explain TCP in one sentence.", "TCP delivers bytes in order, reliably."))
        .containsExactly(true);
    assertThat(met("Explain TCP in one sentence.", "TCP is reliable. It orders bytes."))
        .containsExactly(false);
    assertThat(met("Answer in no more than two paragraphs.", "One.\n\nTwo.\n\nThree."))
        .containsExactly(false);
    assertThat(met("Answer in no more than two paragraphs.", "One.\n\nTwo.")).containsExactly(true);
  }

  private static String words(int n) {
    return "word ".repeat(n).strip() + ".";
  }

  @Test
  void aSizeAskedForIsMetFromHalfBelowToHalfAbove() {
    String request = "Write me a 30 word description for an NFT product strategy";
    assertThat(Constraints.of(request, words(30)).describe())
        .isEqualTo("\"a 30 word\" followed (30 words)");
    assertThat(met(request, words(15))).containsExactly(true);
    assertThat(met(request, words(45))).containsExactly(true);
    assertThat(met(request, words(14))).containsExactly(false);
    assertThat(met(request, words(70))).containsExactly(false);
    assertThat(met("Generate a 100-word article on sleep.", words(120))).containsExactly(true);
    assertThat(met("Write a fictional news article of about 500 words.", words(200)))
        .containsExactly(false);
    assertThat(met("The paper should be approximately 6,000 words long.", words(5000)))
        .containsExactly(true);
  }

  @Test
  void rangesFloorsAndOtherLimitsAreRead() {
    String range = "Write a 3-5 sentence description of the condition.";
    assertThat(met(range, "One. Two. Three. Four.")).containsExactly(true);
    assertThat(met(range, "One. Two. Three. Four. Five. Six. Seven.")).containsExactly(false);
    assertThat(met("The pitch must be between 750 and 1000 words.", words(1100)))
        .containsExactly(true);
    assertThat(met("The pitch must be between 750 and 1000 words.", words(300)))
        .containsExactly(false);
    assertThat(met("Write an essay of at least 500 words on AI.", words(420)))
        .containsExactly(true);
    assertThat(met("Write an essay of at least 500 words on AI.", words(250)))
        .containsExactly(false);
    assertThat(met("Summarize it. Word limit is 250 words.", words(400))).containsExactly(false);
    assertThat(met("Keep it limited to 200 words.", words(150))).containsExactly(true);
    assertThat(met("Describe it (max 300 words).", words(500))).containsExactly(false);
    assertThat(met("Write a three paragraph biography of Ada Lovelace.", "A.\n\nB.\n\nC."))
        .containsExactly(true);
    assertThat(met("Write a three paragraph biography of Ada Lovelace.", "A."))
        .containsExactly(false);
  }

  @Test
  void aNumberOfWordsOrSentencesNamedInPassingIsNoInstruction() {
    assertThat(
            met("Combine the two sentences into a single sentence without losing meaning.", "x."))
        .isEmpty();
    assertThat(met("You are given three words and you need to generate a joke.", "x.")).isEmpty();
    assertThat(met("Paraphrase the following sentence with one word changed.", "x.")).isEmpty();
    // One instruction read once, however many patterns could read it.
    assertThat(met("Describe it in under 50 words.", words(40))).containsExactly(true);
  }

  @Test
  void aSummaryIsShorterThanTheTextItSummarizes() {
    String text =
        "The harbour froze in the winter of that year, and the boats stayed in. ".repeat(4);
    Material request = Material.of("Summarize the following text:\n\n" + text);
    assertThat(request.present()).isTrue();
    Constraints summary = Constraints.of(request, "The harbour froze; the boats stayed in.");
    assertThat(summary.describe())
        .isEqualTo(
            "\"shorter than the text it summarizes (at most half its 56 words)\" followed (7"
                + " words)");
    String half = text.substring(0, text.length() / 2 + 10);
    assertThat(Constraints.of(request, half).checks())
        .extracting(Check::met)
        .containsExactly(false);
    // Text handed over for another purpose asks for no summary.
    Material proofread = Material.of("Proofread the following text:\n\n" + text);
    assertThat(Constraints.of(proofread, text).checks()).isEmpty();
  }

  /**
   * Found on Auto-J: "Condense the language and sentence structures of this philosophical essay ...
   * while retaining its depth of thought" held a 485-word version of a 677-word essay to half its
   * length, and halved its completeness; people preferred it.
   */
  @Test
  void aTextToShortenIsShorterThanItWasNotASummary() {
    String text =
        "The harbour froze in the winter of that year, and the boats stayed in. ".repeat(4);
    Material request =
        Material.of("Condense the language of the following text, keeping all of it:\n\n" + text);
    String threeQuarters = "The harbour froze that winter and the boats stayed in. ".repeat(3);
    assertThat(Constraints.of(request, threeQuarters).describe())
        .isEqualTo("\"shorter than the text it shortens (its 56 words)\" followed (30 words)");
    assertThat(Constraints.of(request, text).checks())
        .extracting(Check::met)
        .containsExactly(false);
    // Asked for a summary as well, it is held to half.
    Material both = Material.of("Condense the following text into a short summary:\n\n" + text);
    assertThat(Constraints.of(both, threeQuarters).checks())
        .extracting(Check::met)
        .containsExactly(false);
  }

  @Test
  void anAnswerForAChildReadsEasierThanTheTextItRetells() {
    String text =
        "Photosynthesis is the physiological mechanism through which chlorophyll-containing"
            + " organisms convert electromagnetic radiation into chemical energy, synthesizing"
            + " carbohydrates from atmospheric carbon dioxide and water while liberating molecular"
            + " oxygen as a metabolic byproduct. This transformation underpins terrestrial"
            + " ecosystems and regulates atmospheric composition.";
    Material request =
        Material.of("Rewrite the following text so a 7 year old can understand:\n\n" + text);
    assertThat(request.present()).isTrue();
    String plain =
        "Plants make their own food. They use light from the sun. They take in air and water."
            + " Then they make sugar to grow. They also give out the air we breathe. That is why"
            + " plants are good for us and for the whole world.";
    Constraints child = Constraints.of(request, plain);
    assertThat(child.checks()).extracting(Check::met).containsExactly(true);
    assertThat(child.describe())
        .startsWith("\"so a 7 year old can understand (reading ease at least")
        .contains("the text's is");
    // The text given back in other long words is no rewrite for a child.
    String learned =
        "Photosynthesis constitutes the physiological transformation whereby chlorophyll-bearing"
            + " organisms utilize electromagnetic radiation, generating carbohydrates from"
            + " atmospheric carbon dioxide and liberating molecular oxygen; consequently, terrestrial"
            + " ecosystems and atmospheric composition fundamentally depend upon it.";
    assertThat(Constraints.of(request, learned).checks())
        .extracting(Check::met)
        .containsExactly(false);
    // Without a text, plain words are asked for against fixed levels.
    Material ask = Material.of("Explain how vaccines work in simple terms.");
    assertThat(Constraints.of(ask, learned).checks()).extracting(Check::met).containsExactly(false);
    assertThat(Constraints.of(ask, plain).checks()).extracting(Check::met).containsExactly(true);
    // Children named as a topic ask for no reading level, and too short an answer is not measured.
    assertThat(
            Constraints.of(Material.of("Write an Instagram post on fun things for kids."), learned)
                .checks())
        .isEmpty();
    assertThat(Constraints.of(ask, "Vaccines teach the body to fight germs.").checks()).isEmpty();
    // Code has no reading ease: only the prose around it is read.
    String code =
        "Here is the function.\n\n```python\ndef total_price(items, tax_rate):\n"
            + "    subtotal = sum(item.price * item.quantity for item in items)\n"
            + "    return round(subtotal * (1 + tax_rate), 2)\n```\n";
    Material readable =
        Material.of("Write a Python function for a basket's total in simple terms.");
    assertThat(Constraints.of(readable, code).checks()).isEmpty();
    // Whichever fence it wears: every check reads code where the others do (CodeFences).
    assertThat(
            Constraints.of(readable, code.replace("```python", "~~~c++").replace("```", "~~~"))
                .checks())
        .isEmpty();
  }

  @Test
  void lineLimitsCountTheAnswersLines() {
    String poem = "Write a poem about the sea in four lines.";
    assertThat(met(poem, "Grey waves fold\nover the stones\n\nsalt in the air\nand gulls"))
        .containsExactly(true);
    assertThat(met(poem, "Grey waves fold\nover the stones\nsalt in the air\nand gulls\ncry"))
        .containsExactly(false);
  }

  @Test
  void aTitleAskedForHeadsTheAnswer() {
    String plot =
        "Come up with an idea for a new movie plot, described with a title and a summary.";
    assertThat(
            met(
                plot,
                "The Last Lighthouse\nA keeper on a dying island finds a radio that receives"
                    + " tomorrow's storms."))
        .containsExactly(true);
    assertThat(met(plot, "Title: The Last Lighthouse. A keeper finds a radio from tomorrow."))
        .containsExactly(true);
    assertThat(met(plot, "## The Last Lighthouse\n\nA keeper finds a radio from tomorrow."))
        .containsExactly(true);
    // A summary alone, in one line or two, has no title.
    assertThat(
            met(
                plot,
                "A group of friends embark on a road trip across the United States in search of a"
                    + " mysterious treasure."))
        .containsExactly(false);
    assertThat(
            met(
                plot,
                "A group of friends embark on a road trip in search of a treasure.\nThey meet"
                    + " strange creatures on the way."))
        .containsExactly(false);
    assertThat(met("Write a blog post about tides.", "Tides\nThe moon pulls the sea.")).isEmpty();
  }

  @Test
  void countsAreTheNumberAskedFor() {
    String request = "List 3 prime numbers.";
    assertThat(met(request, "- 2\n- 3\n- 5")).containsExactly(true);
    assertThat(met(request, "2, 3, 5")).containsExactly(true);
    assertThat(met(request, "1. 2\n2. 3\n3. 5\n4. 7")).containsExactly(false);
    assertThat(met("Name two countries in Africa.", "Kenya and Ghana, Egypt, Chad"))
        .containsExactly(false);
  }

  /**
   * The layout is read on the answer as delivered, sizes on what is scored: a JSON whose lines
   * restate the request is JSON, though those lines are taken out before scoring, and restated
   * lines meet no word floor.
   */
  @Test
  void layoutIsReadOnTheAnswerAsDeliveredAndSizesOnWhatIsScored() {
    Material request =
        Material.of(
            "Sort apple, carrot, pear and leek into fruit and vegetables in at least 8 words. Output in JSON format.");
    String delivered =
        "{\"note\": \"both lists are sorted alphabetically\",\n"
            + "\"fruit\": [\"apple\", \"pear\"],\n"
            + "\"vegetables\": [\"carrot\", \"leek\"]\n}";
    String scored = "{\"note\": \"both lists are sorted alphabetically\",\n}";
    List<Check> checks = Constraints.of(request, scored, delivered).checks();
    assertThat(checks).extracting(Check::instruction).containsExactly("at least 8 words", "JSON");
    assertThat(checks).extracting(Check::met).containsExactly(false, true);
    assertThat(Constraints.of(request, scored).checks())
        .extracting(Check::met)
        .containsExactly(false, false);
  }

  @Test
  void layoutsAreRecognisedInTheAnswer() {
    assertThat(met("Return the result as JSON.", "{\"a\": 1}")).containsExactly(true);
    assertThat(met("Return the result as JSON.", "```json\n[1, 2]\n```")).containsExactly(true);
    assertThat(met("Return the result as JSON.", "Here it is:\n\n~~~\n{\"a\": 1}\n~~~\n"))
        .containsExactly(true);
    assertThat(met("Return the result as JSON.", "a: 1")).containsExactly(false);
    assertThat(met("Show it in a table.", "| a | b |\n|---|---|\n| 1 | 2 |")).containsExactly(true);
    assertThat(met("Show it in a table.", "a is 1 and b is 2")).containsExactly(false);
    assertThat(met("Answer in bullet points.", "- one\n- two")).containsExactly(true);
    assertThat(met("Answer in bullet points.", "One and two.")).containsExactly(false);
    assertThat(met("Use a numbered list.", "1. one\n2. two")).containsExactly(true);
  }

  @Test
  void aCsvIsRowsOfValuesNotTheProgramThatWouldPrintThem() {
    String request = "Return the highest and lowest closing prices of each month as a CSV string.";
    assertThat(met(request, "Month,High,Low\n2022-01,156.25,153.80\n2022-02,163.90,161.80"))
        .containsExactly(true);
    assertThat(met(request, "```csv\nJanuary,156.25,153.80\nFebruary,163.90,161.80\n```"))
        .containsExactly(true);
    // Code that would build it, a sentence with commas, and one row are not a CSV.
    assertThat(
            met(
                request,
                "```python\nfor month, rows in data.items():\n    high, low = max(rows), min(rows)\n"
                    + "    out += f'{month},{high},{low}'\n```"))
        .containsExactly(false);
    assertThat(met(request, "January was high, at 156.25, and low, at 153.80.\nFebruary, too."))
        .containsExactly(false);
    assertThat(met(request, "Month,High,Low")).containsExactly(false);
    assertThat(Constraints.of("Write a Rust library for common csv functionality.", "x").checks())
        .isEmpty();
  }

  @Test
  void startingWordsAndForbiddenWords() {
    String start = "Write three sentences about rain. Start every sentence with \"Rain\".";
    assertThat(met(start, "Rain falls. Rain feeds rivers. Rain cools the air."))
        .containsExactly(true);
    assertThat(met(start, "Rain falls. It feeds rivers. Rain cools the air."))
        .containsExactly(false);
    String avoid = "Describe the sea without using the word \"blue\".";
    assertThat(met(avoid, "The sea is deep and salty.")).containsExactly(true);
    assertThat(met(avoid, "The sea is deep, salty and Blue.")).containsExactly(false);
    // "blueprint" is another word.
    assertThat(met(avoid, "The sea is a blueprint of calm.")).containsExactly(true);
  }

  @Test
  void theLanguageAskedForIsTheLanguageOfTheAnswer() {
    String french = "Explain why the sky is blue. Answer in French.";
    assertThat(
            met(
                french,
                "Le ciel est bleu parce que la lumière du soleil est diffusée par les molécules"
                    + " de l'air, et le bleu est diffusé plus que le rouge."))
        .containsExactly(true);
    assertThat(
            met(
                french,
                "The sky is blue because sunlight is scattered by the molecules of the air, and"
                    + " blue light is scattered more than red."))
        .containsExactly(false);
    String german =
        "Translate this sentence into German: the house is small and the garden is large.";
    assertThat(met(german, "Das Haus ist klein und der Garten ist groß, und das ist gut."))
        .containsExactly(true);
    assertThat(met(german, "The house is small and the garden is large, and that is fine."))
        .containsExactly(false);
    assertThat(met("Reply in Japanese only.", "これは日本語の文章です。東京は大きい都市です。")).containsExactly(true);
    assertThat(met("Reply in Japanese only.", "这是中文的句子。北京是一个很大的城市。"))
        .as("Chinese is not Japanese")
        .containsExactly(false);
    assertThat(met("Respond in Russian.", "Москва является столицей России и большим городом."))
        .containsExactly(true);
  }

  @Test
  void aLanguageIsNotJudgedOnTooLittleTextNorWhenOnlyNamed() {
    // one word cannot tell French from anything else: no check, rather than a guess
    assertThat(met("Translate 'good morning' into French.", "Bonjour")).isEmpty();
    // naming a language is not asking for the answer in it
    assertThat(
            met(
                "What is 'thank you' in French?",
                "It is \"merci\", which is said in France and in many other countries."))
        .isEmpty();
  }

  @Test
  void aRequestWithoutExplicitInstructionsChecksNothing() {
    Constraints c =
        Constraints.of(
            "Explain how a web browser validates an HTTPS server certificate.", "Anything.");
    assertThat(c.any()).isFalse();
    assertThat(c.share()).isEqualTo(1.0);
  }

  /**
   * Whatever is appended to an answer that is over a word limit, it stays over: padding never turns
   * a broken length instruction into a followed one.
   */
  @Test
  void paddingNeverMeetsALengthLimitItBroke() {
    Random random = new Random(15);
    String request = "Summarise the plot in at most 20 words.";
    String answer =
        "A farmer finds a map, crosses the mountains with his daughter, loses the map, and still"
            + " finds the lost valley and the hidden river beyond it at dawn.";
    assertThat(met(request, answer)).containsExactly(false);
    String[] filler = {"Indeed.", "The plot is summarised.", "Words words words.", "In short."};
    for (int trial = 0; trial < 50; trial++) {
      StringBuilder padded = new StringBuilder(answer);
      for (int k = 0, n = 1 + random.nextInt(6); k < n; k++) {
        padded.append(' ').append(filler[random.nextInt(filler.length)]);
      }
      assertThat(met(request, padded.toString())).containsExactly(false);
    }
  }
}
