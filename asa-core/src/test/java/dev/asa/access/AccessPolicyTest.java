package dev.asa.access;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.asa.agreement.Role;
import dev.asa.document.Agreement;
import dev.asa.document.AgreementDrafts;
import dev.asa.facts.EvaluatorAssignmentFact;
import dev.asa.testing.Fixtures;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * An evaluator assigned from the pool holds the evaluator role exactly as a named one does, and
 * only once it is assigned; everyone else stays a stranger.
 */
class AccessPolicyTest {
  private static final Instant NOW = Instant.parse("2026-11-22T10:00:00Z");

  @Test
  void aNamedEvaluatorIsTheEvaluator() {
    Agreement a = AgreementDrafts.propose(Fixtures.general(), NOW, () -> "asa-access-1");
    assertThat(AccessPolicy.rolesOf(a, Fixtures.caller("eval-1"))).containsExactly(Role.EVALUATOR);
    AccessPolicy.require(a, Fixtures.caller("eval-1"), Operation.SUBMIT_VERIFICATION_RESULT);
    assertThat(a.evaluators())
        .singleElement()
        .satisfies(e -> assertThat(e.evaluatorType()).isEqualTo("agent_as_judge"));
  }

  @Test
  void anAssignedEvaluatorIsTheEvaluatorOnceAssignedAndNotBefore() {
    Agreement proposed = withoutEvaluator();
    assertThatThrownBy(() ->
            AccessPolicy.require(
                proposed, Fixtures.caller("judge-1"), Operation.SUBMIT_VERIFICATION_RESULT))
        .isInstanceOfSatisfying(
            AccessDeniedException.class, e -> assertThat(e.hidesExistence()).isTrue());

    Agreement assigned = proposed.withFacts(f -> f.withAssignedEvaluators(assignment("judge-1")));
    assertThat(AccessPolicy.rolesOf(assigned, Fixtures.caller("judge-1")))
        .containsExactly(Role.EVALUATOR);
    AccessPolicy.require(
        assigned, Fixtures.caller("judge-1"), Operation.SUBMIT_VERIFICATION_RESULT);
    AccessPolicy.require(assigned, Fixtures.caller("judge-1"), Operation.READ);
    assertThatThrownBy(
            () -> AccessPolicy.require(assigned, Fixtures.caller("judge-1"), Operation.CHALLENGE))
        .isInstanceOfSatisfying(
            AccessDeniedException.class,
            e -> {
              assertThat(e.hidesExistence()).isFalse();
              assertThat(e.getMessage()).contains("an evaluator may not challenge");
            });
    assertThat(assigned.evaluators())
        .singleElement()
        .satisfies(e -> {
          assertThat(e.identity().value()).isEqualTo("judge-1");
          assertThat(e.evaluatorType()).isEqualTo(Agreement.POOL_EVALUATOR_TYPE);
        });

    for (String stranger : List.of("judge-2", "eval-1")) {
      assertThatThrownBy(() ->
              AccessPolicy.require(
                  assigned, Fixtures.caller(stranger), Operation.SUBMIT_VERIFICATION_RESULT))
          .isInstanceOfSatisfying(
              AccessDeniedException.class, e -> assertThat(e.hidesExistence()).isTrue());
    }
    assertThat(AccessPolicy.rolesOf(assigned, Fixtures.caller("alice")))
        .containsExactly(Role.CLIENT);
  }

  @Test
  void aBackupAssignedByTheServerTakesTheNamedEvaluatorsPlace() {
    Agreement named = AgreementDrafts.propose(Fixtures.general(), NOW, () -> "asa-access-3");
    assertThat(AccessPolicy.rolesOf(named, Fixtures.caller("eval-1")))
        .containsExactly(Role.EVALUATOR);
    // Only the server writes the assignment fact: at activation when no evaluator is named, and
    // when a backup replaces the evaluator (it timed out, or failed a canary).
    Agreement replaced = named.withFacts(f -> f.withAssignedEvaluators(assignment("judge-1")));
    assertThat(AccessPolicy.rolesOf(replaced, Fixtures.caller("judge-1")))
        .containsExactly(Role.EVALUATOR);
    assertThat(AccessPolicy.rolesOf(replaced, Fixtures.caller("eval-1"))).isEmpty();
  }

  @Test
  void theOperatorReadsEveryAgreementAndActsOnNone() {
    Agreement a = AgreementDrafts.propose(Fixtures.general(), NOW, () -> "asa-access-4");
    Caller operator = new Caller.Key(Fixtures.key("operator").publicKey(), true);
    assertThat(AccessPolicy.rolesOf(a, operator)).isEmpty();
    assertThat(AccessPolicy.mayRead(a, operator)).isTrue();
    AccessPolicy.require(a, operator, Operation.READ);
    for (Operation op : Operation.values()) {
      if (op != Operation.READ && op != Operation.RULE) {
        assertThatThrownBy(() -> AccessPolicy.require(a, operator, op))
            .as(op.name())
            .isInstanceOfSatisfying(
                AccessDeniedException.class, e -> assertThat(e.hidesExistence()).isTrue());
      }
    }
    assertThat(AccessPolicy.mayRead(a, Fixtures.caller("mallory"))).isFalse();
    assertThat(AccessPolicy.mayRead(a, Fixtures.caller("bob"))).isTrue();
  }

  private static Agreement withoutEvaluator() {
    ObjectNode doc = Fixtures.general();
    ((ObjectNode) doc.get("parties")).remove("evaluator");
    return AgreementDrafts.propose(doc, NOW, () -> "asa-access-2");
  }

  private static EvaluatorAssignmentFact assignment(String name) {
    return new EvaluatorAssignmentFact(
        "random_from_pool",
        List.of(
            new EvaluatorAssignmentFact.AssignedEvaluator(
                Fixtures.key(name).publicKey(), "api_key", name, null, name, null)),
        "c2VlZA",
        "sha256:" + "01".repeat(32),
        NOW,
        List.of());
  }
}
