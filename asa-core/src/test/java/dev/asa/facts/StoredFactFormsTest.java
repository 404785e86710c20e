package dev.asa.facts;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.asa.agreement.Role;
import dev.asa.coc.CocSummary;
import dev.asa.crypto.Digest;
import dev.asa.json.Json;
import dev.asa.testing.Fixtures;
import java.math.BigDecimal;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The stored form of every typed fact, byte for byte: databases in the field hold these texts, and
 * events carry the same form as their payload. Each literal below is what the server wrote before
 * the facts shared one codec; a fact must still be written exactly so, and read back equal. ({@link
 * SettlementFactTest} pins the settlement kinds the same way.)
 */
class StoredFactFormsTest {
  private static final Instant T = Instant.parse("2026-11-22T10:00:00Z");
  private static final Instant T_NANOS = Instant.parse("2026-11-22T10:00:00.123456789Z");
  private static final String HASH = "sha256:" + "ab".repeat(32);

  /** One fact: its name, the fact, how it is stored and read, and its stored text. */
  record Form<T>(
      String name,
      T fact,
      Fact slot,
      Function<ServerFacts, T> read,
      java.util.function.BiFunction<ServerFacts, T, ServerFacts> write,
      String stored) {
    @Override
    public String toString() {
      return name;
    }
  }

  private static <T> Arguments form(
      String name,
      T fact,
      Fact slot,
      Function<ServerFacts, T> read,
      java.util.function.BiFunction<ServerFacts, T, ServerFacts> write,
      String stored) {
    return Arguments.of(new Form<>(name, fact, slot, read, write, stored));
  }

  static Stream<Arguments> forms() {
    var judge = Fixtures.key("judge-1").publicKey();
    var other = Fixtures.key("judge-2").publicKey();
    var gone = Fixtures.key("judge-0").publicKey();
    CocSummary summary =
        new CocSummary(
            12,
            Digest.parse("sha256:" + "01".repeat(32)),
            Digest.parse("sha256:" + "02".repeat(32)),
            T.minusSeconds(86_400),
            T_NANOS);
    return Stream.of(
        form(
            "escrow, funded, with binding details",
            new EscrowFact(
                EscrowStatus.HELD,
                "http_callback",
                "10.00",
                "USD",
                T_NANOS,
                "escrow:a",
                (com.fasterxml.jackson.databind.node.ObjectNode)
                    Json.parseTrusted(
                        "{\"url\":\"https://pay.example/asa\",\"payer\":{\"id\":7,\"w\":1.50}}")),
            Fact.ESCROW,
            f -> f.escrow().orElseThrow(),
            ServerFacts::withEscrow,
            "{\"binding\":\"http_callback\",\"status\":\"held\",\"amount\":\"10.00\",\"currency\":\"USD\",\"funded_at\":\"2026-11-22T10:00:00.123456789Z\",\"escrow_account\":\"escrow:a\",\"url\":\"https://pay.example/asa\",\"payer\":{\"id\":7,\"w\":1.50}}"),
        form(
            "escrow, unfunded",
            EscrowFact.unfunded(),
            Fact.ESCROW,
            f -> f.escrow().orElseThrow(),
            ServerFacts::withEscrow,
            "{\"status\":\"unfunded\"}"),
        form(
            "deliverable, every member",
            new DeliverableFact(T, HASH, 42, "markdown", "https://cdn.example/d", true),
            Fact.DELIVERABLE,
            f -> f.deliverable().orElseThrow(),
            ServerFacts::withDeliverable,
            "{\"delivered_at\":\"2026-11-22T10:00:00Z\",\"content_hash\":\"sha256:abababababababababababababababababababababababababababababababab\",\"size_bytes\":42,\"format\":\"markdown\",\"content_url\":\"https://cdn.example/d\",\"hardening_redelivery\":true}"),
        form(
            "deliverable, fewest members",
            new DeliverableFact(T_NANOS, HASH, 0, null, null, false),
            Fact.DELIVERABLE,
            f -> f.deliverable().orElseThrow(),
            ServerFacts::withDeliverable,
            "{\"delivered_at\":\"2026-11-22T10:00:00.123456789Z\",\"content_hash\":\"sha256:abababababababababababababababababababababababababababababababab\",\"size_bytes\":0}"),
        form(
            "verification, every member",
            new VerificationFact(
                "ver-1",
                T,
                "PASS",
                new BigDecimal("80.50"),
                new BigDecimal("85"),
                HASH,
                T.plusSeconds(7200),
                Json.parseTrusted("[{\"min_score\":90,\"release_percent\":100}]"),
                Json.object().put("gate", "quarantine").put("score", new BigDecimal("0.25"))),
            Fact.VERIFICATION,
            f -> f.verification().orElseThrow(),
            ServerFacts::withVerification,
            "{\"verification_id\":\"ver-1\",\"verified_at\":\"2026-11-22T10:00:00Z\",\"result\":\"PASS\",\"composite\":80.50,\"payment_release_percent\":85,\"evaluation_hash\":\"sha256:abababababababababababababababababababababababababababababababab\",\"challenge_window_closes_at\":\"2026-11-22T12:00:00Z\",\"release_tiers\":[{\"min_score\":90,\"release_percent\":100}],\"shadow\":{\"gate\":\"quarantine\",\"score\":0.25}}"),
        form(
            "verification, fewest members",
            new VerificationFact(
                "ver-2", T, null, null, new BigDecimal("1E+2"), null, T_NANOS, null, null),
            Fact.VERIFICATION,
            f -> f.verification().orElseThrow(),
            ServerFacts::withVerification,
            "{\"verification_id\":\"ver-2\",\"verified_at\":\"2026-11-22T10:00:00Z\",\"payment_release_percent\":1E+2,\"challenge_window_closes_at\":\"2026-11-22T10:00:00.123456789Z\"}"),
        form(
            "hardening, open",
            HardeningFact.opened(T, "/agreements/a/hardening"),
            Fact.SHADOW,
            f -> f.hardening().orElseThrow(),
            ServerFacts::withHardening,
            "{\"status\":\"open\",\"opened_at\":\"2026-11-22T10:00:00Z\",\"redeliveries_allowed\":1,\"messages_url\":\"/agreements/a/hardening\"}"),
        form(
            "hardening, redelivered, no messages url",
            HardeningFact.opened(T, null).redelivered(T_NANOS),
            Fact.SHADOW,
            f -> f.hardening().orElseThrow(),
            ServerFacts::withHardening,
            "{\"status\":\"redelivered\",\"opened_at\":\"2026-11-22T10:00:00Z\",\"redeliveries_allowed\":0,\"redelivered_at\":\"2026-11-22T10:00:00.123456789Z\"}"),
        form(
            "dispute, every member",
            new DisputeFact(
                "case_a_1",
                "ajp",
                "quality_below_agreed_slo",
                "client",
                T,
                "https://disputes.example/ajp",
                Json.parseTrusted("{\"report\":{\"gate\":\"quarantine\"},\"n\":[1,2.0]}")),
            Fact.DISPUTE,
            f -> f.dispute().orElseThrow(),
            ServerFacts::withDispute,
            "{\"case_id\":\"case_a_1\",\"protocol\":\"ajp\",\"reason_code\":\"quality_below_agreed_slo\",\"filed_by\":\"client\",\"filed_at\":\"2026-11-22T10:00:00Z\",\"filed_with\":\"https://disputes.example/ajp\",\"evidence\":{\"report\":{\"gate\":\"quarantine\"},\"n\":[1,2.0]}}"),
        form(
            "dispute, fewest members",
            new DisputeFact("case_a_2", null, "evaluator_timeout", null, T_NANOS, null, null),
            Fact.DISPUTE,
            f -> f.dispute().orElseThrow(),
            ServerFacts::withDispute,
            "{\"case_id\":\"case_a_2\",\"reason_code\":\"evaluator_timeout\",\"filed_at\":\"2026-11-22T10:00:00.123456789Z\"}"),
        form(
            "collateral, held",
            CollateralFact.held("5.00", "USD", "collateral:a", T),
            Fact.COLLATERAL,
            f -> f.collateral().orElseThrow(),
            ServerFacts::withCollateral,
            "{\"status\":\"held\",\"amount\":\"5.00\",\"currency\":\"USD\",\"collateral_account\":\"collateral:a\",\"staked_at\":\"2026-11-22T10:00:00Z\"}"),
        form(
            "collateral, slashed",
            CollateralFact.held("5.00", "USD", "collateral:a", T)
                .settled("2.50", "2.50", "verification_fail", "verification_result", T_NANOS),
            Fact.COLLATERAL,
            f -> f.collateral().orElseThrow(),
            ServerFacts::withCollateral,
            "{\"status\":\"slashed\",\"amount\":\"5.00\",\"currency\":\"USD\",\"collateral_account\":\"collateral:a\",\"staked_at\":\"2026-11-22T10:00:00Z\",\"slashed\":\"2.50\",\"returned\":\"2.50\",\"trigger\":\"verification_fail\",\"reason\":\"verification_result\",\"settled_at\":\"2026-11-22T10:00:00.123456789Z\"}"),
        form(
            "assigned evaluators, every member",
            new EvaluatorAssignmentFact(
                "random_from_pool",
                List.of(
                    new EvaluatorAssignmentFact.AssignedEvaluator(
                        judge, "api_key", "judge-1", HASH, "Judge One", "Impartial Ltd"),
                    new EvaluatorAssignmentFact.AssignedEvaluator(
                        other, "did", "did:web:j2", null, "J2", null)),
                "c2VlZA",
                "sha256:" + "01".repeat(32),
                T,
                List.of("drawn at random from the pool", "second note"),
                List.of(gone)),
            Fact.ASSIGNED_EVALUATORS,
            f -> f.assignedEvaluators().orElseThrow(),
            ServerFacts::withAssignedEvaluators,
            "{\"mode\":\"random_from_pool\",\"evaluators\":[{\"key\":\"5FooMGzH3mOLqNdb8DD8cdIoCphzwlJ8gUZs3tyg5M4\",\"identity\":{\"scheme\":\"api_key\",\"value\":\"judge-1\",\"lineage\":\"sha256:abababababababababababababababababababababababababababababababab\"},\"display_name\":\"Judge One\",\"organization\":\"Impartial Ltd\"},{\"key\":\"k_QJfq9YPv-KMFv3erpO8NiK4C24CaJuddjO1wqUNEc\",\"identity\":{\"scheme\":\"did\",\"value\":\"did:web:j2\"},\"display_name\":\"J2\"}],\"seed\":\"c2VlZA\",\"candidates_digest\":\"sha256:0101010101010101010101010101010101010101010101010101010101010101\",\"assigned_at\":\"2026-11-22T10:00:00Z\",\"notes\":[\"drawn at random from the pool\",\"second note\"],\"replaced\":[\"mIokJwcTM1tGmbR7zkrtY8bLD5hDHe3IDDCe8RkTe6Y\"]}"),
        form(
            "assigned evaluators, no notes, nobody replaced",
            new EvaluatorAssignmentFact(
                "mutual",
                List.of(
                    new EvaluatorAssignmentFact.AssignedEvaluator(
                        judge, "api_key", "judge-1", null, "Judge One", null)),
                "c2VlZA",
                HASH,
                T_NANOS,
                List.of()),
            Fact.ASSIGNED_EVALUATORS,
            f -> f.assignedEvaluators().orElseThrow(),
            ServerFacts::withAssignedEvaluators,
            "{\"mode\":\"mutual\",\"evaluators\":[{\"key\":\"5FooMGzH3mOLqNdb8DD8cdIoCphzwlJ8gUZs3tyg5M4\",\"identity\":{\"scheme\":\"api_key\",\"value\":\"judge-1\"},\"display_name\":\"Judge One\"}],\"seed\":\"c2VlZA\",\"candidates_digest\":\"sha256:abababababababababababababababababababababababababababababababab\",\"assigned_at\":\"2026-11-22T10:00:00.123456789Z\"}"),
        form(
            "evaluator proposals, both parties",
            EvaluatorProposalsFact.NONE
                .withProvider(new EvaluatorProposalsFact.Proposal(List.of(), 3, T_NANOS))
                .withClient(new EvaluatorProposalsFact.Proposal(List.of(other, judge), 2, T)),
            Fact.EVALUATOR_PROPOSALS,
            ServerFacts::evaluatorProposals,
            ServerFacts::withEvaluatorProposals,
            "{\"client\":{\"evaluators\":[\"k_QJfq9YPv-KMFv3erpO8NiK4C24CaJuddjO1wqUNEc\",\"5FooMGzH3mOLqNdb8DD8cdIoCphzwlJ8gUZs3tyg5M4\"],\"round\":2,\"proposed_at\":\"2026-11-22T10:00:00Z\"},\"provider\":{\"evaluators\":[],\"round\":3,\"proposed_at\":\"2026-11-22T10:00:00.123456789Z\"}}"),
        form(
            "evaluator proposals, the provider only",
            EvaluatorProposalsFact.NONE.withProvider(
                new EvaluatorProposalsFact.Proposal(List.of(judge), 1, T)),
            Fact.EVALUATOR_PROPOSALS,
            ServerFacts::evaluatorProposals,
            ServerFacts::withEvaluatorProposals,
            "{\"provider\":{\"evaluators\":[\"5FooMGzH3mOLqNdb8DD8cdIoCphzwlJ8gUZs3tyg5M4\"],\"round\":1,\"proposed_at\":\"2026-11-22T10:00:00Z\"}}"),
        form(
            "provenance, two parties",
            new ProvenanceFact(
                Map.of(
                    Role.PROVIDER,
                    new ProvenanceFact.Chain(summary, ProvenanceFact.Source.INLINE, T),
                    Role.CLIENT,
                    new ProvenanceFact.Chain(summary, ProvenanceFact.Source.URL, T_NANOS))),
            Fact.PROVENANCE,
            ServerFacts::provenance,
            ServerFacts::withProvenance,
            "{\"client\":{\"scheme\":\"coc\",\"genesis\":\"sha256:0101010101010101010101010101010101010101010101010101010101010101\",\"length\":12,\"head\":\"sha256:0202020202020202020202020202020202020202020202020202020202020202\",\"genesis_at\":\"2026-11-21T10:00:00Z\",\"latest_at\":\"2026-11-22T10:00:00.123456789Z\",\"operational_age_seconds\":86400,\"source\":\"url\",\"verified_at\":\"2026-11-22T10:00:00.123456789Z\"},\"provider\":{\"scheme\":\"coc\",\"genesis\":\"sha256:0101010101010101010101010101010101010101010101010101010101010101\",\"length\":12,\"head\":\"sha256:0202020202020202020202020202020202020202020202020202020202020202\",\"genesis_at\":\"2026-11-21T10:00:00Z\",\"latest_at\":\"2026-11-22T10:00:00.123456789Z\",\"operational_age_seconds\":86400,\"source\":\"inline\",\"verified_at\":\"2026-11-22T10:00:00Z\"}}"),
        form(
            "provenance, none",
            ProvenanceFact.NONE,
            Fact.PROVENANCE,
            ServerFacts::provenance,
            ServerFacts::withProvenance,
            "{}"));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("forms")
  <T> void isStoredAsItAlwaysWas(Form<T> form) {
    String stored = form.write().apply(ServerFacts.NONE, form.fact()).toStored();
    String expected =
        form.slot() == Fact.SHADOW
            ? "{\"shadow\":{\"hardening\":" + form.stored() + "}}"
            : "{\"" + form.slot().wireName() + "\":" + form.stored() + "}";
    assertThat(stored).isEqualTo(expected);
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("forms")
  <T> void isCarriedInEventsAsItAlwaysWas(Form<T> form) {
    assertThat(Json.write(payload(form.fact()))).isEqualTo(form.stored());
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("forms")
  <T> void readsBackEqualAndWritesAgainUnchanged(Form<T> form) {
    String column =
        form.slot() == Fact.SHADOW
            ? "{\"shadow\":{\"hardening\":" + form.stored() + "}}"
            : "{\"" + form.slot().wireName() + "\":" + form.stored() + "}";
    T read = form.read().apply(ServerFacts.fromStored(column));
    assertThat(read).isEqualTo(form.fact());
    assertThat(form.write().apply(ServerFacts.NONE, read).toStored()).isEqualTo(column);
  }

  /** The form an event carries (what the server puts in a payload). */
  private static JsonNode payload(Object fact) {
    return FactCodec.write((TypedFact) fact);
  }
}
