package dev.asa.evaluators.embedding;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

/** One evaluation's texts, each embedded once. */
class ModelMemoTest {

  private static final String REQUEST = "How does a refrigerator keep food cold?";
  private static final String SENTENCE = "A compressor pumps refrigerant that absorbs the heat.";

  @Test
  void aTextEmbeddedBeforeInTheSameEvaluationIsNotReadAgain() {
    Model.Memo memo = new Model.Memo();
    Model.Vectors first = memo.embed(List.of(REQUEST, SENTENCE));
    Model.Vectors again = memo.embed(List.of(SENTENCE, REQUEST, SENTENCE));

    assertThat(first.tokens()).isEqualTo(Model.embed(List.of(REQUEST, SENTENCE)).tokens());
    assertThat(again.tokens()).isZero();
    assertThat(again.get(0)).isSameAs(first.get(1)).isSameAs(again.get(2));
    assertThat(again.get(1)).isSameAs(first.get(0));
  }

  @Test
  void aTextRepeatedInOneCallIsReadOnceAndOnlyNewTextsAreRead() {
    Model.Memo memo = new Model.Memo();
    assertThat(memo.embed(List.of(SENTENCE, SENTENCE)).tokens())
        .isEqualTo(Model.embed(List.of(SENTENCE)).tokens());
    assertThat(memo.embed(List.of(SENTENCE, REQUEST)).tokens())
        .isEqualTo(Model.embed(List.of(REQUEST)).tokens());
  }

  @Test
  void itsVectorsAreTheModels() {
    float[] memo = new Model.Memo().embed(List.of(SENTENCE)).get(0);
    float[] direct = Model.embed(List.of(SENTENCE)).get(0);
    assertThat(Model.cosine(memo, direct)).isGreaterThan(0.9999);
  }
}
