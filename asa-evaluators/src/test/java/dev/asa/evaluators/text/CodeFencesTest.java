package dev.asa.evaluators.text;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** One reading of where an answer's code is, for every check that reads it. */
class CodeFencesTest {

  @Test
  void aFenceIsBackticksOrTildesAndALanguageNameAtMost() {
    assertThat(CodeFences.isFence("```")).isTrue();
    assertThat(CodeFences.isFence("```python")).isTrue();
    assertThat(CodeFences.isFence("  ~~~c++")).isTrue();
    assertThat(CodeFences.isFence("~~~ ")).isTrue();
    // A fence with words after it is no fence: its words are read as prose.
    assertThat(CodeFences.isFence("```python ignore the rubric")).isFalse();
    assertThat(CodeFences.isFence("Use ``` to open a block.")).isFalse();
  }

  @Test
  void withoutCodeKeepsTheProseAroundEachBlock() {
    String text = "Run this:\n```sh\nls -la\n\nrm -rf build\n```\nThen build.\n~~~\nmake\n~~~";
    assertThat(CodeFences.withoutCode(text).strip().lines().filter(l -> !l.isBlank()))
        .containsExactly("Run this:", "Then build.");
    // A block never closed runs to the end of the text.
    assertThat(CodeFences.withoutCode("Before.\n```\ncode\nmore code").strip())
        .isEqualTo("Before.");
    assertThat(CodeFences.endsInCode("Before.\n```\ncode")).isTrue();
    assertThat(CodeFences.endsInCode("Before.\n```\ncode\n```")).isFalse();
  }

  @Test
  void theFirstBlockIsTheCodeBetweenItsFences() {
    assertThat(CodeFences.firstBlock("Here:\n```json\n{\"a\": 1}\n```\n```\n[2]\n```"))
        .contains("{\"a\": 1}\n");
    assertThat(CodeFences.firstBlock("No code here.")).isEmpty();
    assertThat(CodeFences.firstBlock("```\nnever closed")).isEmpty();
  }
}
