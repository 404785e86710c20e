package dev.asa.facts;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.asa.json.Json;
import dev.asa.testing.Fixtures;
import java.math.BigDecimal;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * Each typed fact survives the store (its one JSON form) unchanged, and typed facts are written
 * only as records.
 */
class ServerFactsTest {
  private static final Instant T = Instant.parse("2026-11-22T10:00:00Z");

  @Test
  void everyTypedFactRoundTripsThroughTheStoredForm() {
    EscrowFact escrow = heldEscrow();
    DeliverableFact deliverable =
        new DeliverableFact(T, "sha256:" + "ab".repeat(32), 42, "markdown", null, true);
    VerificationFact verification =
        new VerificationFact(
            "ver-1",
            T,
            "PASS",
            new BigDecimal("80.5"),
            new BigDecimal("85"),
            "sha256:" + "cd".repeat(32),
            T.plusSeconds(7200),
            null,
            Json.object().put("gate", "quarantine"));
    HardeningFact hardening =
        HardeningFact.opened(T, "/agreements/a/hardening").redelivered(T.plusSeconds(60));
    DisputeFact dispute =
        new DisputeFact(
            "case_a_1", "ajp", "quality_below_agreed_slo", "client", T, "operator", null);
    SettlementFact settlement =
        SettlementFact.moved(
                T,
                "ruling",
                new BigDecimal("40"),
                new SettlementFact.Amounts("10.00", "USD", "4.00", "6.00"),
                "ledger")
            .closedOnRuling(T, Json.object().put("reason", "partial"), Optional.of("ver-1"));
    EvaluatorAssignmentFact assigned =
        new EvaluatorAssignmentFact(
            "random_from_pool",
            List.of(
                new EvaluatorAssignmentFact.AssignedEvaluator(
                    Fixtures.key("judge-1").publicKey(),
                    "api_key",
                    "judge-1",
                    "sha256:" + "ef".repeat(32),
                    "Judge One",
                    "Impartial Ltd"),
                new EvaluatorAssignmentFact.AssignedEvaluator(
                    Fixtures.key("judge-2").publicKey(), "did", "did:web:j2", null, "J2", null)),
            "c2VlZA",
            "sha256:" + "01".repeat(32),
            T,
            List.of("the parties agreed on no eligible evaluator; drawn at random from the pool"));

    ServerFacts facts =
        ServerFacts.NONE
            .withTemplate("general")
            .withActivatedAt(T)
            .withEscrow(escrow)
            .withDeliverable(deliverable)
            .withVerification(verification)
            .withHardening(hardening)
            .withDispute(dispute)
            .withSettlement(settlement)
            .withAssignedEvaluators(assigned);
    ServerFacts stored = ServerFacts.fromStored(facts.toStored());

    assertThat(stored).isEqualTo(facts);
    assertThat(stored.template()).contains("general");
    assertThat(stored.activatedAt()).contains(T);
    assertThat(stored.escrow()).contains(escrow);
    assertThat(stored.deliverable()).contains(deliverable);
    assertThat(stored.verification().orElseThrow().shadowGate()).isEqualTo("quarantine");
    assertThat(stored.verification().orElseThrow().composite()).isEqualByComparingTo("80.5");
    assertThat(stored.hardening()).contains(hardening);
    assertThat(stored.hardeningOpen()).isFalse();
    assertThat(stored.dispute()).contains(dispute);
    assertThat(stored.settlement()).contains(settlement);
    assertThat(stored.settlement().orElseThrow().escrowStatus()).isEqualTo(EscrowStatus.SETTLED);
    assertThat(stored.assignedEvaluators()).contains(assigned);
    assertThat(stored.assignedEvaluators().orElseThrow().primary().identityValue())
        .isEqualTo("judge-1");
    assertThat(stored.toJson().path("escrow").path("url").asText())
        .as("binding details render flat")
        .isEqualTo("https://pay.example/asa");
  }

  @Test
  void aTypedFactCannotBeWrittenAsRawJson() {
    assertThatThrownBy(
            () -> ServerFacts.NONE.with(Fact.ESCROW, Json.object().put("status", "held")))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("typed record");
    assertThat(
            ServerFacts.NONE.with(Fact.RULING, Json.object().put("reason", "x")).has(Fact.RULING))
        .isTrue();
  }

  @Test
  void anUnfundedEscrowIsNotFunded() {
    ServerFacts facts = ServerFacts.NONE.withEscrow(EscrowFact.unfunded());
    assertThat(facts.escrowStatus()).contains(EscrowStatus.UNFUNDED);
    assertThat(facts.fundedAt()).isEmpty();
  }

  /**
   * A typed fact is decoded once per facts value: what a reader does with the value it got cannot
   * change what the next reader gets, and new facts are decoded afresh.
   */
  @Test
  void aFactReadTwiceIsTheSameAndWhatAReaderChangesStaysWithIt() {
    EscrowFact held = heldEscrow();
    ServerFacts facts = ServerFacts.fromStored(ServerFacts.NONE.withEscrow(held).toStored());
    EscrowFact first = facts.escrow().orElseThrow();
    first.bindingDetails().put("url", "https://attacker.example");
    assertThat(facts.escrow()).contains(held);
    assertThat(facts.escrow().orElseThrow().bindingDetails().path("url").asText())
        .isEqualTo("https://pay.example/asa");
    ServerFacts settled = facts.withEscrow(held.withStatus(EscrowStatus.SETTLED));
    assertThat(settled.escrowStatus()).contains(EscrowStatus.SETTLED);
    assertThat(facts.escrowStatus()).contains(EscrowStatus.HELD);
    assertThat(ServerFacts.NONE.escrow()).isEmpty();
  }

  /** An escrow held through an HTTP callback binding, with the binding's own detail. */
  @Test
  void aNewFactLeavesTheFactsItWasMadeFromAsTheyWere() {
    // The facts a change starts from (a cached agreement's) share their members with the facts it
    // makes: neither may see the other's change.
    ServerFacts first =
        ServerFacts.NONE
            .withEscrow(heldEscrow())
            .with(Fact.NEGOTIATION, Json.object().put("round", 1));
    assertThat(first.escrow()).contains(heldEscrow()); // decoded, so carried along
    String before = first.toStored();

    ServerFacts second =
        first
            .with(Fact.NEGOTIATION, Json.object().put("round", 2))
            .withEscrow(heldEscrow().withStatus(EscrowStatus.FROZEN));
    ServerFacts third = second.withActivatedAt(T);

    assertThat(first.toStored()).isEqualTo(before);
    assertThat(first.get(Fact.NEGOTIATION).path("round").asInt()).isEqualTo(1);
    assertThat(first.escrowStatus()).contains(EscrowStatus.HELD);
    assertThat(second.get(Fact.NEGOTIATION).path("round").asInt()).isEqualTo(2);
    assertThat(second.escrowStatus()).contains(EscrowStatus.FROZEN);
    assertThat(second.activatedAt()).isEmpty();
    assertThat(third.escrowStatus()).contains(EscrowStatus.FROZEN);
    assertThat(third.activatedAt()).contains(T);
    // Members keep their places, as the stored form has them.
    assertThat(ServerFacts.fromStored(third.toStored())).isEqualTo(third);
    assertThat(third.toStored()).startsWith("{\"escrow\":");
  }

  private static EscrowFact heldEscrow() {
    return new EscrowFact(
        EscrowStatus.HELD,
        "http_callback",
        "10.00",
        "USD",
        T,
        "escrow:a",
        Json.object().put("url", "https://pay.example/asa"));
  }
}
