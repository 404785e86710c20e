package dev.asa.evaluators.judgeeval;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.asa.evaluators.judgeeval.LabelledFileException.Problem;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Reading labelled JSON Lines: both kinds, and every kind of mistake named by line and member. */
class LabelledFileTest {

  @Test
  void readsPairwiseRecords() throws Exception {
    LabelledFile file =
        LabelledFile.parse(
            List.of(
                "{\"request\": \"Why?\", \"answer_a\": \"Because.\", \"answer_b\": \"\", \"human\": \"a\", \"category\": \"reasoning\", \"id\": \"q1\", \"extra\": 1}",
                "",
                "{\"request\": \"How?\", \"answer_a\": \"x\", \"answer_b\": \"y\", \"human\": \"b\", \"type\": \"text/research\", \"format\": \"markdown\"}"));
    assertThat(file.kind()).isEqualTo(LabelledFile.Kind.PAIRWISE);
    assertThat(file.records()).hasSize(2);
    var first = (LabelledRecord.Pairwise) file.records().get(0);
    assertThat(first.line()).isEqualTo(1);
    assertThat(first.id()).isEqualTo("q1");
    assertThat(first.category()).isEqualTo("reasoning");
    assertThat(first.human()).isEqualTo(Preference.A);
    assertThat(first.answerA()).isEqualTo(new Answer("Why?", "Because.", "general", null));
    assertThat(first.answerB().content()).isEmpty();
    var second = (LabelledRecord.Pairwise) file.records().get(1);
    assertThat(second.line()).isEqualTo(3);
    assertThat(second.category()).isNull();
    assertThat(second.answerB()).isEqualTo(new Answer("How?", "y", "text/research", "markdown"));
  }

  @Test
  void readsPointwiseRecords() throws Exception {
    LabelledFile file =
        LabelledFile.parse(
            List.of(
                "{\"request\": \"Sum up\", \"answer\": \"A summary.\", \"human_score\": 4}",
                "{\"request\": \"Sum up\", \"answer\": \"Another.\", \"human_score\": 2.5, \"category\": \"news\"}"));
    assertThat(file.kind()).isEqualTo(LabelledFile.Kind.POINTWISE);
    var second = (LabelledRecord.Pointwise) file.records().get(1);
    assertThat(second.humanScore()).isEqualTo(2.5);
    assertThat(second.answers()).containsExactly(new Answer("Sum up", "Another.", "general", null));
  }

  @Test
  void everyBadLineIsReportedWithItsLineAndMember() {
    LabelledFileException e =
        catchThrowableOfType(
            LabelledFileException.class,
            () ->
                LabelledFile.parse(
                    List.of(
                        "{\"request\": \"ok\", \"answer_a\": \"x\", \"answer_b\": \"y\", \"human\": \"a\"}",
                        "{\"request\": \"ok\", \"answer_a\": \"x\", \"human\": \"tie\"}",
                        "not json",
                        "[1, 2]",
                        "{\"request\": \" \", \"answer_a\": 3, \"answer_b\": \"y\", \"human\": \"b\", \"type\": \"poem\", \"format\": \"Mark Down\"}",
                        "{\"request\": \"ok\", \"note\": \"neither kind\"}",
                        "{\"request\": \"ok\", \"answer\": \"x\", \"answer_a\": \"y\"}")));
    List<Problem> problems = e.problems();
    assertThat(problems)
        .extracting(Problem::line, Problem::field)
        .containsExactly(
            org.assertj.core.groups.Tuple.tuple(2, "answer_b"),
            org.assertj.core.groups.Tuple.tuple(2, "human"),
            org.assertj.core.groups.Tuple.tuple(3, null),
            org.assertj.core.groups.Tuple.tuple(4, null),
            org.assertj.core.groups.Tuple.tuple(5, "request"),
            org.assertj.core.groups.Tuple.tuple(5, "type"),
            org.assertj.core.groups.Tuple.tuple(5, "format"),
            org.assertj.core.groups.Tuple.tuple(5, "answer_a"),
            org.assertj.core.groups.Tuple.tuple(6, null),
            org.assertj.core.groups.Tuple.tuple(7, null));
    assertThat(problems.get(0).toString()).isEqualTo("line 2, answer_b: is missing");
    assertThat(problems.get(1).message()).contains("\"a\" or \"b\"").contains("tie");
    assertThat(problems.get(2).message()).startsWith("is not valid JSON");
    assertThat(problems.get(8).message()).contains("neither pairwise");
    assertThat(problems.get(9).message()).contains("mixes pairwise members");
  }

  @Test
  void aFileMixingBothKindsIsRefused() {
    LabelledFileException e =
        catchThrowableOfType(
            LabelledFileException.class,
            () ->
                LabelledFile.parse(
                    List.of(
                        "{\"request\": \"q\", \"answer_a\": \"x\", \"answer_b\": \"y\", \"human\": \"a\"}",
                        "{\"request\": \"q\", \"answer\": \"x\", \"human_score\": 1}")));
    assertThat(e.problems()).hasSize(1);
    assertThat(e.problems().get(0).toString())
        .contains("mixes pairwise records (the first at line 1)")
        .contains("pointwise ones (the first at line 2)");
  }

  @Test
  void anEmptyFileIsRefused() {
    LabelledFileException e =
        catchThrowableOfType(
            LabelledFileException.class, () -> LabelledFile.parse(List.of("", "  ")));
    assertThat(e.problems().get(0).toString()).contains("no records");
  }

  @Test
  void aScoreMustBeAFiniteNumber() {
    LabelledFileException e =
        catchThrowableOfType(
            LabelledFileException.class,
            () ->
                LabelledFile.parse(
                    List.of("{\"request\": \"q\", \"answer\": \"x\", \"human_score\": \"4\"}")));
    assertThat(e.problems().get(0).toString()).isEqualTo("line 1, human_score: must be a number");
  }
}
