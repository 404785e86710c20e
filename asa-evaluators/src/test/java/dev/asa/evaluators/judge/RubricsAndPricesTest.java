package dev.asa.evaluators.judge;

import static org.assertj.core.api.Assertions.assertThat;

import dev.asa.text.ModelNames;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class RubricsAndPricesTest {

  /** Every dimension of the whitepaper's section 5.4 default table. */
  private static final List<String> DEFAULT_TABLE =
      List.of(
          "accuracy",
          "completeness",
          "relevance",
          "sources",
          "writing",
          "methodology",
          "depth",
          "clarity",
          "actionability",
          "correctness",
          "performance",
          "security",
          "maintainability",
          "documentation",
          "consistency",
          "format_compliance",
          "metadata",
          "fluency",
          "terminology",
          "cultural_fit",
          "timeliness",
          "thoroughness",
          "tone");

  @Test
  void everyDefaultDimensionHasAVersionedRubricWithAnchors() {
    for (String name : DEFAULT_TABLE) {
      Rubric r = Rubrics.forDimension(name);
      assertThat(r.id()).as(name).isEqualTo(name + "-v1");
      assertThat(r.render(name, null)).contains("- 90: ", "- 70: ", "- 40: ", "- 10: ");
    }
    assertThat(Rubrics.all()).hasSize(DEFAULT_TABLE.size());
  }

  @Test
  void unknownNamesGetTheGenericRubricAndAliasesTheirOwn() {
    assertThat(Rubrics.forDimension("insight_quality")).isEqualTo(Rubrics.GENERIC);
    assertThat(Rubrics.forDimension("Source_Quality").id()).isEqualTo("sources-v1");
    assertThat(Rubrics.forDimension("writing_quality").id()).isEqualTo("writing-v1");
    assertThat(Rubrics.isStructural("timeliness")).isTrue();
    assertThat(Rubrics.isStructural("accuracy")).isFalse();
  }

  @ParameterizedTest
  @CsvSource({
    "gpt-4o, 2.50, 10.00",
    "gpt-4o-2024-08-06, 2.50, 10.00",
    "openai/gpt-4o-mini, 0.15, 0.60",
    "gpt-4.1, 2.00, 8.00",
    "gpt-4.1-mini-2025-04-14, 0.40, 1.60",
    "claude-sonnet-4-5, 3.00, 15.00",
    "claude-sonnet-4-20250514, 3.00, 15.00",
    "claude-haiku-4-5, 1.00, 5.00",
    "claude-3-5-haiku-20241022, 0.80, 4.00",
    "claude-opus-4-1, 15.00, 75.00",
    "claude-opus-4-5, 5.00, 25.00",
  })
  void listPrices(String model, String in, String out) {
    Price p = PriceTable.lookup(model).orElseThrow();
    assertThat(p.inputPerMillion()).isEqualByComparingTo(in);
    assertThat(p.outputPerMillion()).isEqualByComparingTo(out);
  }

  @Test
  void unknownModelsHaveNoPrice() {
    assertThat(PriceTable.lookup("llama3.1:8b")).isEmpty();
    assertThat(PriceTable.lookup("gpt-4")).isEmpty();
    assertThat(PriceTable.lookup("gpt-4omega")).isEmpty();
  }

  @Test
  void costIsRoundedUpToAMillionthOfADollar() {
    assertThat(Price.of("2.50", "10.00").cost(1, 0)).isEqualByComparingTo("0.000003");
    assertThat(Price.of("2.50", "10.00").cost(1000, 200)).isEqualByComparingTo("0.0045");
  }

  @ParameterizedTest
  @CsvSource({
    "gpt-4o, openai/GPT-4o, true",
    "gpt-4o, gpt-4o-2024-08-06, true",
    "claude-3-5-sonnet-20241022, anthropic/claude-3-5-sonnet-latest, true",
    "gpt-4o, gpt-4o-mini, false",
    "claude-sonnet-4-5, claude-opus-4-5, false",
  })
  void sameModel(String a, String b, boolean same) {
    assertThat(ModelNames.same(a, b)).isEqualTo(same);
  }

  @Test
  void fencesAreStrippedOnlyWhenWhole() {
    assertThat(JudgeReply.unfenced("```json\n{\"a\":1}\n```")).isEqualTo("{\"a\":1}");
    assertThat(JudgeReply.unfenced("```\n{\"a\":1}\n```")).isEqualTo("{\"a\":1}");
    assertThat(JudgeReply.unfenced("{\"a\":1}")).isEqualTo("{\"a\":1}");
    assertThat(JudgeReply.unfenced("```python\nx\n```")).startsWith("```");
  }

  @Test
  void refusalWording() {
    assertThat(JudgeReply.looksLikeRefusal("I can't help with that.")).isTrue();
    assertThat(JudgeReply.looksLikeRefusal("I’m sorry, I cannot evaluate this.")).isTrue();
    assertThat(JudgeReply.looksLikeRefusal("{\"dimensions\": []}")).isFalse();
    assertThat(JudgeReply.looksLikeRefusal("Sorry: {\"dimensions\": []}")).isFalse();
  }
}
