package dev.asa.facts;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.asa.agreement.Currency;
import dev.asa.agreement.Money;
import dev.asa.json.Json;
import dev.asa.scoring.Release;
import dev.asa.scoring.Settlement;
import java.math.BigDecimal;
import java.time.Instant;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Each kind of settlement, ended each way it can end, is stored exactly as the single 15-member
 * record it replaced stored it, and what that record stored reads back as the same kind.
 *
 * <p>The JSON below is what the old record wrote (its {@code toJson}, through {@link
 * ServerFacts#toStored}) for the same settlements, built as the old {@code Enforcement.settle} and
 * {@code Closing} built them; it is written out literally so that a change to the stored form fails
 * here.
 */
class SettlementFactTest {
  private static final Instant T = Instant.parse("2026-11-22T10:00:00Z");
  private static final Instant L = Instant.parse("2026-11-22T12:30:00.123Z");
  private static final String NEVER_FUNDED =
      "the escrow was never funded: nothing was held, nothing moved";
  private static final String DISABLED =
      "escrow is disabled: the amounts are what the terms say, to be settled outside this server";

  private static final JsonNode DISPUTE =
      FactCodec.write(
          new DisputeFact("case_a_1", "ajp", "quality_below_agreed_slo", "server", L, null, null));

  private static ObjectNode ruling(String percent, boolean key) {
    ObjectNode r = Json.object();
    r.put("release_percent", new BigDecimal(percent));
    r.put("reason", "partial delivery");
    r.put("ruled_by", "operator");
    if (key) r.put("key", "op-key-1");
    r.put("ruled_at", L.toString());
    return r;
  }

  private static SettlementFact moved(String reason, String percent, String released, String back) {
    return SettlementFact.moved(
        T,
        reason,
        new BigDecimal(percent),
        new SettlementFact.Amounts("10.00", "USD", released, back),
        "ledger");
  }

  private static SettlementFact nothingMoved(
      String reason, String percent, String released, String back, String note) {
    return SettlementFact.nothingMoved(
        T,
        reason,
        new BigDecimal(percent),
        new SettlementFact.Amounts("10.00", "USD", released, back),
        note);
  }

  private static SettlementFact withoutPaymentTerms(String reason, String percent) {
    return SettlementFact.withoutPaymentTerms(T, reason, new BigDecimal(percent));
  }

  static Stream<Arguments> everyKind() {
    return Stream.of(
        Arguments.of(
            "moved, not yet ended",
            moved("verification_result", "100", "10.00", "0.00"),
            """
            {"settled_at":"2026-11-22T10:00:00Z","reason":"verification_result",\
            "release_percent":100,"amount":"10.00","currency":"USD",\
            "released_to_provider":"10.00","refunded_to_client":"0.00","money_moved":true,\
            "binding":"ledger"}\
            """),
        Arguments.of(
            "moved, closed on its result",
            moved("verification_result", "100", "10.00", "0.00")
                .closedOnResult(L, "ver-1", Optional.empty()),
            """
            {"settled_at":"2026-11-22T10:00:00Z","reason":"verification_result",\
            "release_percent":100,"amount":"10.00","currency":"USD",\
            "released_to_provider":"10.00","refunded_to_client":"0.00","money_moved":true,\
            "binding":"ledger","closed_at":"2026-11-22T12:30:00.123Z","verification_id":"ver-1"}\
            """),
        Arguments.of(
            "moved, closed on its result that filed a dispute",
            moved("verification_result", "40", "4.00", "6.00")
                .closedOnResult(L, "ver-1", Optional.of(DISPUTE)),
            """
            {"settled_at":"2026-11-22T10:00:00Z","reason":"verification_result",\
            "release_percent":40,"amount":"10.00","currency":"USD",\
            "released_to_provider":"4.00","refunded_to_client":"6.00","money_moved":true,\
            "binding":"ledger","closed_at":"2026-11-22T12:30:00.123Z","verification_id":"ver-1",\
            "auto_filed_dispute":{"case_id":"case_a_1","protocol":"ajp",\
            "reason_code":"quality_below_agreed_slo","filed_by":"server",\
            "filed_at":"2026-11-22T12:30:00.123Z"}}\
            """),
        Arguments.of(
            "moved, closed on a ruling",
            moved("ruling", "40", "4.00", "6.00")
                .closedOnRuling(L, ruling("40", true), Optional.of("ver-1")),
            """
            {"settled_at":"2026-11-22T10:00:00Z","reason":"ruling","release_percent":40,\
            "amount":"10.00","currency":"USD","released_to_provider":"4.00",\
            "refunded_to_client":"6.00","money_moved":true,"binding":"ledger",\
            "closed_at":"2026-11-22T12:30:00.123Z","verification_id":"ver-1",\
            "ruling":{"release_percent":40,"reason":"partial delivery","ruled_by":"operator",\
            "key":"op-key-1","ruled_at":"2026-11-22T12:30:00.123Z"}}\
            """),
        Arguments.of(
            "moved, expired",
            moved("evaluator_timeout_split_50_50", "50", "5.00", "5.00").expired(L),
            """
            {"settled_at":"2026-11-22T10:00:00Z","reason":"evaluator_timeout_split_50_50",\
            "release_percent":50,"amount":"10.00","currency":"USD",\
            "released_to_provider":"5.00","refunded_to_client":"5.00","money_moved":true,\
            "binding":"ledger","expired_at":"2026-11-22T12:30:00.123Z"}\
            """),
        Arguments.of(
            "nothing moved, not yet ended",
            nothingMoved("verification_result", "100", "10.00", "0.00", NEVER_FUNDED),
            """
            {"settled_at":"2026-11-22T10:00:00Z","reason":"verification_result",\
            "release_percent":100,"amount":"10.00","currency":"USD",\
            "released_to_provider":"10.00","refunded_to_client":"0.00","money_moved":false,\
            "note":"the escrow was never funded: nothing was held, nothing moved"}\
            """),
        Arguments.of(
            "nothing moved, expired",
            nothingMoved("client_funding_timeout", "0", "0.00", "10.00", NEVER_FUNDED).expired(L),
            """
            {"settled_at":"2026-11-22T10:00:00Z","reason":"client_funding_timeout",\
            "release_percent":0,"amount":"10.00","currency":"USD",\
            "released_to_provider":"0.00","refunded_to_client":"10.00","money_moved":false,\
            "note":"the escrow was never funded: nothing was held, nothing moved",\
            "expired_at":"2026-11-22T12:30:00.123Z"}\
            """),
        Arguments.of(
            "nothing moved, closed on a ruling without a result",
            nothingMoved("ruling", "12.5", "1.25", "8.75", DISABLED)
                .closedOnRuling(L, ruling("12.5", false), Optional.empty()),
            """
            {"settled_at":"2026-11-22T10:00:00Z","reason":"ruling","release_percent":12.5,\
            "amount":"10.00","currency":"USD","released_to_provider":"1.25",\
            "refunded_to_client":"8.75","money_moved":false,\
            "note":"escrow is disabled: the amounts are what the terms say, to be settled \
            outside this server","closed_at":"2026-11-22T12:30:00.123Z",\
            "ruling":{"release_percent":12.5,"reason":"partial delivery","ruled_by":"operator",\
            "ruled_at":"2026-11-22T12:30:00.123Z"}}\
            """),
        Arguments.of(
            "without payment terms, not yet ended",
            withoutPaymentTerms("verification_result", "100"),
            """
            {"settled_at":"2026-11-22T10:00:00Z","reason":"verification_result",\
            "release_percent":100,"money_moved":false}\
            """),
        Arguments.of(
            "without payment terms, closed on its result",
            withoutPaymentTerms("verification_result", "100")
                .closedOnResult(L, "ver-2", Optional.empty()),
            """
            {"settled_at":"2026-11-22T10:00:00Z","reason":"verification_result",\
            "release_percent":100,"money_moved":false,"closed_at":"2026-11-22T12:30:00.123Z",\
            "verification_id":"ver-2"}\
            """),
        Arguments.of(
            "without payment terms, expired",
            withoutPaymentTerms("expires_at", "0").expired(L),
            """
            {"settled_at":"2026-11-22T10:00:00Z","reason":"expires_at","release_percent":0,\
            "money_moved":false,"expired_at":"2026-11-22T12:30:00.123Z"}\
            """));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("everyKind")
  void eachKindIsStoredAsTheOldRecordStoredIt(String name, SettlementFact fact, String old) {
    assertThat(Json.write(FactCodec.write(fact))).isEqualTo(old);
    assertThat(ServerFacts.NONE.withSettlement(fact).toStored())
        .isEqualTo("{\"settlement\":" + old + "}");
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("everyKind")
  void whatTheOldRecordStoredReadsBackAsTheSameKind(String name, SettlementFact fact, String old) {
    SettlementFact read =
        ServerFacts.fromStored("{\"settlement\":" + old + "}").settlement().orElseThrow();

    // Not read.equals(fact): a number in the ruling reads back as an IntNode where the fact built
    // it as a DecimalNode, and JsonNode's equals tells those apart; the written form does not.
    assertThat(read.getClass()).isEqualTo(fact.getClass());
    assertThat(read.ending().map(Object::getClass)).isEqualTo(fact.ending().map(Object::getClass));
    assertThat(read.escrowStatus()).isEqualTo(fact.escrowStatus());
    assertThat(Json.write(FactCodec.write(read))).as("written again, unchanged").isEqualTo(old);
  }

  @Test
  void theKindsSayWhetherMoneyMoved() {
    SettlementFact moved = moved("verification_result", "100", "10.00", "0.00");
    SettlementFact nothing = nothingMoved("verification_result", "100", "10.00", "0.00", DISABLED);
    SettlementFact none = withoutPaymentTerms("verification_result", "100");

    assertThat(moved.moneyMoved()).isTrue();
    assertThat(moved.escrowStatus()).isEqualTo(EscrowStatus.SETTLED);
    assertThat(nothing.moneyMoved()).isFalse();
    assertThat(nothing.escrowStatus()).isEqualTo(EscrowStatus.NOTHING_HELD);
    assertThat(none.moneyMoved()).isFalse();
    assertThat(none.escrowStatus()).isEqualTo(EscrowStatus.NOTHING_HELD);
  }

  @Test
  void theAmountsComeFromTheAmountAndItsSplit() {
    Money ten = new Money(new BigDecimal("10"), Currency.of("USD").orElseThrow());
    Settlement split = Release.split(ten, new BigDecimal("33.3"));

    assertThat(SettlementFact.Amounts.of(ten, split))
        .isEqualTo(new SettlementFact.Amounts("10.00", "USD", "3.33", "6.67"));
    Money nine = new Money(new BigDecimal("9"), Currency.of("USD").orElseThrow());
    assertThatThrownBy(() -> SettlementFact.Amounts.of(nine, split))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("does not add up");
  }

  @Test
  void aSettlementEndsOnce() {
    SettlementFact expired = withoutPaymentTerms("expires_at", "0").expired(L);

    assertThatThrownBy(() -> expired.closedOnResult(L, "ver-1", Optional.empty()))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("ends once");
    assertThatThrownBy(() -> expired.expired(L)).isInstanceOf(IllegalStateException.class);
    assertThatThrownBy(() ->
            moved("ruling", "40", "4.00", "6.00")
                .closedOnRuling(L, ruling("40", true), Optional.empty())
                .closedOnRuling(L, ruling("40", true), Optional.empty()))
        .isInstanceOf(IllegalStateException.class);
  }

  @Test
  void theRulingAndTheAutoFiledDisputeAreCopiedInAndOut() {
    ObjectNode ruling = ruling("40", true);
    ObjectNode dispute = DISPUTE.deepCopy();
    SettlementFact onRuling =
        moved("ruling", "40", "4.00", "6.00").closedOnRuling(L, ruling, Optional.empty());
    SettlementFact onResult =
        moved("verification_result", "40", "4.00", "6.00")
            .closedOnResult(L, "ver-1", Optional.of(dispute));
    String rulingJson = Json.write(FactCodec.write(onRuling));
    String resultJson = Json.write(FactCodec.write(onResult));

    ruling.put("reason", "changed");
    dispute.put("case_id", "changed");
    var ending = (SettlementFact.Ending.ClosedOnRuling) onRuling.ending().orElseThrow();
    ((ObjectNode) ending.ruling()).put("reason", "changed");
    ((ObjectNode) onResult.autoFiledDispute().orElseThrow()).put("case_id", "changed");
    ((ObjectNode) FactCodec.write(onRuling).get("ruling")).put("reason", "changed");

    assertThat(Json.write(FactCodec.write(onRuling))).isEqualTo(rulingJson);
    assertThat(Json.write(FactCodec.write(onResult))).isEqualTo(resultJson);
    assertThat(onResult.autoFiledDispute()).contains(DISPUTE);
    assertThat(onRuling.autoFiledDispute()).isEmpty();
  }

  @Test
  void aStoredFormWithAMemberItsKindHasNotIsABug() {
    assertThatThrownBy(() ->
            FactCodec.read(
                Json.parseTrusted(
                    """
                    {"settled_at":"2026-11-22T10:00:00Z","reason":"verification_result",\
                    "release_percent":100,"money_moved":false,"binding":"ledger"}\
                    """),
                SettlementFact.class))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("binding");
    assertThatThrownBy(() ->
            FactCodec.read(
                Json.parseTrusted(
                    """
                    {"settled_at":"2026-11-22T10:00:00Z","reason":"ruling",\
                    "release_percent":100,"money_moved":false,\
                    "closed_at":"2026-11-22T12:30:00.123Z","expired_at":"2026-11-22T12:30:00Z"}\
                    """),
                SettlementFact.class))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("closed_at");
  }
}
