package dev.asa.facts;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.asa.json.Json;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Reading a stored fact is strict: only this server writes facts, so a member a kind does not have,
 * or a value of the wrong type, is a bug that is refused, naming the member, rather than dropped
 * when the fact is written again. ({@link StoredFactFormsTest} pins what is written.)
 */
class FactCodecTest {
  private static final String DELIVERABLE =
      "{\"delivered_at\":\"2026-11-22T10:00:00Z\",\"content_hash\":\"sha256:ab\",\"size_bytes\":3";

  static Stream<Arguments> badForms() {
    return Stream.of(
        bad(
            "a member a deliverable lacks",
            DeliverableFact.class,
            DELIVERABLE + ",\"colour\":\"red\"}",
            "colour"),
        bad(
            "a member a dispute lacks",
            DisputeFact.class,
            "{\"case_id\":\"c\",\"reason_code\":\"r\",\"filed_at\":\"2026-11-22T10:00:00Z\","
                + "\"filed_on\":\"x\"}",
            "filed_on"),
        bad(
            "a member a proposal lacks",
            EvaluatorProposalsFact.class,
            "{\"client\":{\"evaluators\":[],\"round\":1,\"proposed_at\":\"2026-11-22T10:00:00Z\","
                + "\"weight\":2}}",
            "weight"),
        bad(
            "a size as text",
            DeliverableFact.class,
            DELIVERABLE.replace("3", "\"3\"") + "}",
            "size_bytes"),
        bad(
            "an instant that is none",
            DeliverableFact.class,
            DELIVERABLE.replace("2026-11-22T10:00:00Z", "yesterday") + "}",
            "delivered_at"),
        bad(
            "an unknown hardening status",
            HardeningFact.class,
            "{\"status\":\"closed\",\"opened_at\":\"2026-11-22T10:00:00Z\","
                + "\"redeliveries_allowed\":0}",
            "status"),
        bad(
            "a key that is none",
            EvaluatorProposalsFact.class,
            "{\"provider\":{\"evaluators\":[\"not-a-key\"],\"round\":1,"
                + "\"proposed_at\":\"2026-11-22T10:00:00Z\"}}",
            "provider.evaluators[0]"),
        bad(
            "a member a chain lacks",
            ProvenanceFact.class,
            "{\"client\":{\"scheme\":\"coc\",\"genesis\":\"sha256:"
                + "01".repeat(32)
                + "\",\"length\":1,\"head\":\"sha256:"
                + "01".repeat(32)
                + "\",\"genesis_at\":\"2026-11-22T10:00:00Z\",\"latest_at\":\"2026-11-22T10:00:00Z\","
                + "\"operational_age_seconds\":0,\"source\":\"url\","
                + "\"verified_at\":\"2026-11-22T10:00:00Z\",\"tip\":\"x\"}}",
            "client.tip"),
        bad("a role that is none", ProvenanceFact.class, "{\"judge\":{}}", "judge"));
  }

  private static Arguments bad(
      String what, Class<? extends TypedFact> kind, String stored, String member) {
    return Arguments.of(what, kind, stored, member);
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("badForms")
  void aStoredFactWithAMemberItsKindLacksOrAWrongValueIsRefusedNamingTheMember(
      String what, Class<? extends TypedFact> kind, String stored, String member) {
    assertThatThrownBy(() -> FactCodec.read(Json.parseTrusted(stored), kind))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining(kind.getSimpleName())
        .hasMessageContaining(member);
  }

  @Test
  void aSettlementWithAMemberOnlyAnotherKindHasIsRefusedNamingIt() {
    String stored =
        "{\"settled_at\":\"2026-11-22T10:00:00Z\",\"reason\":\"verification_result\","
            + "\"release_percent\":100,\"amount\":\"1.00\",\"currency\":\"USD\","
            + "\"released_to_provider\":\"1.00\",\"refunded_to_client\":\"0.00\","
            + "\"money_moved\":false,\"note\":\"n\",\"binding\":\"ledger\"}";
    assertThatThrownBy(() -> FactCodec.read(Json.parseTrusted(stored), SettlementFact.class))
        .isInstanceOf(IllegalStateException.class)
        .hasMessage(
            "a stored SettlementFact (NothingMoved) has a member its kind does not: binding");
  }

  @Test
  void anEscrowKeepsEveryMemberNotItsOwnAsTheBindingsDetails() {
    EscrowFact read =
        FactCodec.read(
            Json.parseTrusted(
                "{\"status\":\"held\",\"z\":1,\"payer\":{\"id\":\"p\"},\"a\":[true]}"),
            EscrowFact.class);
    assertThat(Json.write(read.bindingDetails()))
        .isEqualTo("{\"z\":1,\"payer\":{\"id\":\"p\"},\"a\":[true]}");
    assertThat(read.isFunded()).isFalse();
  }

  @Test
  void aMemberStoredAsNullIsAMemberNotStored() {
    DeliverableFact read =
        FactCodec.read(Json.parseTrusted(DELIVERABLE + ",\"format\":null}"), DeliverableFact.class);
    assertThat(read.format()).isNull();
  }
}
