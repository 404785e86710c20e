package dev.asa.access;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.asa.document.Agreement;
import dev.asa.document.AgreementDrafts;
import dev.asa.facts.EvaluatorAssignmentFact;
import dev.asa.testing.Fixtures;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Who gives the verdict (issue 52): the built-in evaluator only where the terms say so, otherwise
 * the named or assigned evaluator, and an assignment by the server always wins.
 */
class JudgingTest {
  private static final Instant NOW = Instant.parse("2026-11-22T10:00:00Z");

  private static Agreement proposed(ObjectNode doc) {
    return AgreementDrafts.propose(doc, NOW, () -> "asa-judging");
  }

  @Test
  void anEvaluatorNamedWithItsKeyJudges() {
    Judging judging = Judging.of(proposed(Fixtures.general()));
    assertThat(judging).isInstanceOf(Judging.Evaluators.class);
    Judging.Evaluators evaluators = (Judging.Evaluators) judging;
    assertThat(evaluators.evaluators())
        .singleElement()
        .satisfies(e -> assertThat(e.identity().value()).isEqualTo("eval-1"));
    assertThat(evaluators.because()).contains("'eval-1'").contains("parties.evaluator");
  }

  @Test
  void theTermsGiveTheVerdictToTheBuiltInEvaluatorByItsType() {
    assertThat(Judging.of(proposed(Fixtures.judgedByBuiltIn(Fixtures.general()))))
        .isInstanceOfSatisfying(
            Judging.BuiltIn.class,
            b -> assertThat(b.because()).contains("parties.evaluator.type \"builtin\""));
  }

  @Test
  void anAssignmentByTheServerJudgesWhateverTheDocumentNamed() {
    ObjectNode pooled = Fixtures.general();
    ((ObjectNode) pooled.get("parties")).remove("evaluator");
    Agreement unassigned = proposed(pooled);
    assertThat(Judging.of(unassigned))
        .as("nothing falls to the built-in evaluator by default")
        .isInstanceOfSatisfying(
            Judging.Evaluators.class, e -> assertThat(e.evaluators()).isEmpty());

    for (ObjectNode doc :
        List.of(pooled, Fixtures.general(), Fixtures.judgedByBuiltIn(Fixtures.general()))) {
      Agreement assigned = proposed(doc).withFacts(f -> f.withAssignedEvaluators(assignment()));
      assertThat(Judging.of(assigned))
          .isInstanceOfSatisfying(
              Judging.Evaluators.class,
              e -> {
                assertThat(e.evaluators())
                    .singleElement()
                    .satisfies(p -> assertThat(p.identity().value()).isEqualTo("judge-1"));
                assertThat(e.because()).contains("metadata.assigned_evaluators");
              });
    }
  }

  private static EvaluatorAssignmentFact assignment() {
    return new EvaluatorAssignmentFact(
        "random_from_pool",
        List.of(
            new EvaluatorAssignmentFact.AssignedEvaluator(
                Fixtures.key("judge-1").publicKey(), "api_key", "judge-1", null, "judge-1", null)),
        "c2VlZA",
        "sha256:" + "01".repeat(32),
        NOW,
        List.of());
  }
}
