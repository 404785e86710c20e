package dev.asa.evaluators.offline;

import static org.assertj.core.api.Assertions.assertThat;

import dev.asa.evaluators.text.Sentences;
import java.util.List;
import org.junit.jupiter.api.Test;

/** A request split into what it asks and the text it hands over, or left whole. */
class MaterialTest {

  private static final String POST =
      "Title: My roommate never cleans up and I am tired of it.\n\n"
          + "Post: We moved in together a year ago. At first things were fine, but for the last"
          + " three months the dishes pile up, the bins overflow and the bathroom is a mess. I have"
          + " asked twice, nicely, and each time it gets better for a week. I pay half the rent"
          + " and I do all of the cleaning. Should I move out or talk to the landlord?";

  @Test
  void anInstructionPointingAtTheTextBelowHandsItOver() {
    Material m = Material.of("Summarize the following post\n\n" + POST);
    assertThat(m.present()).isTrue();
    assertThat(m.instruction()).isEqualTo("Summarize the following post");
    assertThat(m.text()).startsWith("Title: My roommate").endsWith("talk to the landlord?");
    assertThat(m.withMaterial("Summarize the following post"))
        .isEqualTo("Summarize the following post\n\n" + m.text());
  }

  @Test
  void aPartIsMeasuredWithTheOpeningOfALongTextOnly() {
    String longText = "The harbour froze that winter and the boats stayed in. ".repeat(100);
    Material m = Material.of("Summarize the following text:\n\n" + longText);
    String measured = m.withMaterial("Summarize the following text");
    assertThat(Sentences.wordCount(measured))
        .isEqualTo(Sentences.wordCount("Summarize the following text") + Material.CONTEXT_WORDS);
    assertThat(measured).endsWith("The harbour froze that winter and the boats stayed in.");
  }

  /**
   * A long instruction around a text it sets off itself: read by the delimiters, the fact sheet's
   * lines are no longer thirty-nine parts of the request (a good description "covered 17 of 39").
   */
  @Test
  void textBetweenTripleBackticksIsTheMaterialHoweverLongTheInstruction() {
    String instruction =
        "Your task is to help a marketing team create a description for a retail website of a"
            + " product based on a technical fact sheet.\n\nWrite a product description based on"
            + " the information provided in the technical specifications delimited by triple"
            + " backticks. The description is intended for furniture retailers, so should be"
            + " technical in nature and focus on the materials the product is constructed from."
            + "\n\nUse at most 50 words.\n\nTechnical specifications: ";
    String sheet =
        "OVERVIEW\n- Part of a beautiful family of mid-century inspired office furniture,"
            + " including filing cabinets, desks, bookcases, meeting tables, and more.\n- Several"
            + " options of shell color and base finishes.\n- Base finish options are: stainless"
            + " steel, matte black, gloss white, or chrome.\n\nDIMENSIONS\n- WIDTH 53 CM |"
            + " 20.87\"\n- DEPTH 51 CM | 20.08\"\n\nCOUNTRY OF ORIGIN\n- Italy";
    for (String fenced :
        List.of(
            "```\"\"\"\n" + sheet + "\n\"\"\"```",
            "```text\n" + sheet + "\n```",
            "\"\"\"" + sheet + "\"\"\"")) {
      Material m = Material.of(instruction + fenced);
      assertThat(m.text()).as(fenced).isEqualTo(sheet);
      assertThat(m.instruction()).startsWith("Your task is").endsWith("Technical specifications:");
      assertThat(RequestParts.of(m.instruction()).content()).hasSizeLessThan(8);
    }
  }

  @Test
  void aFencedListOfQuestionsIsTheAskItself() {
    String questions =
        "```\n1. What is the capital of France and why was it chosen?\n2. Explain how the Seine"
            + " shaped the growth of the city over the centuries.\n3. Describe three landmarks"
            + " that a first-time visitor should see and say why.\n4. List the districts known"
            + " for food markets.\n```";
    assertThat(Material.of("Answer these in order: " + questions).present()).isFalse();
  }

  @Test
  void aShortQuotedPhraseIsPartOfTheRequest() {
    assertThat(Material.of("Translate ```good morning, my friend``` into French.").present())
        .isFalse();
  }

  @Test
  void theTextMayFollowAColonOnTheSameLine() {
    Material m = Material.of("Proofread this: " + POST.replace("\n", " "));
    assertThat(m.instruction()).isEqualTo("Proofread this:");
    assertThat(m.text()).startsWith("Title: My roommate");
  }

  @Test
  void anInstructionAfterTheTextIsReadAsWell() {
    Material m = Material.of(POST + "\n\nWhat is the author's main complaint in the post above?");
    assertThat(m.instruction()).isEqualTo("What is the author's main complaint in the post above?");
    assertThat(m.text()).startsWith("Title:");
  }

  @Test
  void aLastLineThatAsksJoinsTheInstruction() {
    Material m =
        Material.of("Summarize the following text:\n\n" + POST + "\n\nKeep it under 40 words.");
    assertThat(m.instruction()).isEqualTo("Summarize the following text:\nKeep it under 40 words.");
    assertThat(m.text()).endsWith("talk to the landlord?");
  }

  @Test
  void labelledInstructionLinesInTheMaterialAreInstructions() {
    Material m =
        Material.of(
            "Web search results:\n\n[1] \"A landing page should focus on one offer; that is the case"
                + " with a 400-word landing page as much as a long one, and every ad links to it.\"\n"
                + "Source: https://example.com/landing\nCurrent date: 2023. 01. 14.\n"
                + "Instructions: Using the provided web search results, write a reply.\n"
                + "Prompt: write me sales copy for my PPC service landing page");
    assertThat(m.instruction())
        .isEqualTo(
            "Web search results:\nInstructions: Using the provided web search results, write a"
                + " reply.\nPrompt: write me sales copy for my PPC service landing page");
    assertThat(m.text()).contains("400-word landing page").doesNotContain("Prompt:");
  }

  @Test
  void asksAndQuestionsAfterALeadInAreThePartsNotMaterial() {
    String asks =
        "Write a report on our backups, covering the following:\n"
            + "- Explain what is backed up today and where the copies are kept\n"
            + "- Compare nightly and hourly snapshots for cost and recovery time\n"
            + "- Recommend a retention policy for the next two years\n"
            + "- Estimate the storage we will need by the end of next year";
    assertThat(Material.of(asks).instruction()).isEqualTo(asks);
    String questions =
        "Answer the following questions:\n1. What is a heat pump and how does it work in winter?\n"
            + "2. Why is it cheaper to run than a gas boiler in most of Europe today?\n"
            + "3. How long does one usually last, and what maintenance does it need each year?";
    String requirements =
        "Write a report about the migration project:\n"
            + "The report should cover the budget, the timeline and the risks we have found so far."
            + " It must be written for executives who have not followed the work. Make sure it ends"
            + " with a recommendation, and please keep it under 500 words.";
    // The question it points at is the ask, however plainly its scene is set (pandalm-666).
    String question =
        "You will be asked to answer the following question as part of the LinkedIn Skill"
            + " assessments.\n\nYou find that your project has a tag and branch both named"
            + " push-notifications, which causes confusion when trying to print out given reference."
            + " How can you specify which branch you want to look at?";
    for (String request : List.of(asks, questions, requirements, question)) {
      assertThat(Material.of(request).present()).as(request).isFalse();
    }
  }

  /**
   * Found on Auto-J: "a note summarizing the fitness guide" and the guide, "can you rewrite this?"
   * and the code, "optimize this C++ code" and the code were each read as a request of forty parts,
   * and an honest summary of the guide scored 57 for restating it.
   */
  @Test
  void moreWaysOfPointingAtTheTextHandedOver() {
    String guide =
        "# 30-Day Body Transformation\n\nWelcome to the program. It combines exercise, nutrition and"
            + " rest. Week one builds the habit with three short workouts; week two adds strength"
            + " training; weeks three and four raise the intensity and add a longer run on Sundays.";
    String code =
        "#include <set>\nint main() {\n  std::set<int> a{1, 2, 3}, b{2, 3, 4};\n  // the"
            + " intersection is computed by hand below, one element of a at a time, and printed to"
            + " the standard output with a space after each element found in both sets\n}";
    for (String instruction :
        List.of(
            "Create an upbeat note summarizing the fitness guide '30-Day Body Transformation.'",
            "Optimize this C++ code for finding the intersection of two sets.",
            "can you rewrite and explain this?",
            "Revamp this legal contract so that non-lawyers understand it.",
            // "the following job requirements" are asks, unless words are picked out of them
            "Please list the key words from the following job requirements.")) {
      String text = instruction.contains("code") || instruction.contains("this?") ? code : guide;
      Material m = Material.of(instruction + "\n" + text);
      assertThat(m.instruction()).as(instruction).isEqualTo(instruction);
      assertThat(m.text()).as(instruction).isEqualTo(text);
    }
  }

  @Test
  void theInstructionAndTheTextMayShareALine() {
    String text =
        "The 2022 FIFA World Cup is scheduled to be played in Qatar, from 20 November to 18"
            + " December 2022. It is the first World Cup held in the Arab world, and matches are"
            + " played in Lusail, Al Khor and Doha, all within an hour's drive of one another.";
    Material m =
        Material.of(
            "Extract all the place names from the paragraph. Keep them in the order they appear. "
                + text);
    assertThat(m.instruction())
        .isEqualTo(
            "Extract all the place names from the paragraph. Keep them in the order they appear.");
    assertThat(m.text()).isEqualTo(text);

    // Its first sentence must rework the text or pick from it; this one says what it wants later.
    String announced =
        "I am going to give you the text of a bill. I want you to list who it affects. " + text;
    assertThat(Material.of(announced).present()).isFalse();
  }

  @Test
  void aShortQuoteOrAPlainRequestIsLeftWhole() {
    assertThat(Material.of("Rewrite this sentence: The cat sat on the mat.").present()).isFalse();
    String plain =
        "Explain how a web browser validates an HTTPS server certificate, including the chain of"
            + " trust, hostname matching against the SAN, and revocation checking.";
    assertThat(Material.of(plain).present()).isFalse();
    assertThat(Material.of(plain).instruction()).isEqualTo(plain);
    assertThat(Material.of("   ").present()).isFalse();
  }
}
