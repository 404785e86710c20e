package dev.asa.negotiation;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.asa.agreement.InvalidDocumentException;
import dev.asa.agreement.Role;
import dev.asa.agreement.Violation;
import dev.asa.document.Agreement;
import dev.asa.document.AgreementDocuments;
import dev.asa.document.AgreementDrafts;
import dev.asa.json.Json;
import dev.asa.testing.Fixtures;
import java.math.BigDecimal;
import java.time.Instant;
import java.util.Optional;
import java.util.Random;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;

class NegotiatorTest {
  static final Instant NOW = Instant.parse("2026-03-01T10:00:00Z");
  static final NegotiationPolicy P = NegotiationPolicy.DEFAULTS;

  static Agreement agreement() {
    return agreement(d -> {});
  }

  static Agreement agreement(Consumer<ObjectNode> edit) {
    ObjectNode doc = Fixtures.general();
    edit.accept(doc);
    return AgreementDrafts.propose(doc, NOW, () -> "asa-test");
  }

  /** A message body; {@code changes} alternates path, value (values as JSON text). */
  public static ObjectNode body(
      String id, int round, String action, String rationale, String... changes) {
    ObjectNode b = Json.object();
    if (id != null) {
      b.put("negotiation_id", id);
    }
    b.put("round", round);
    b.put("action", action);
    b.put("rationale_code", rationale);
    if (changes.length > 0) {
      ObjectNode c = b.putObject("proposed_changes");
      for (int i = 0; i < changes.length; i += 2) {
        c.set(changes[i], Json.parseTrusted(changes[i + 1]));
      }
    }
    return b;
  }

  static NegotiationMessage counter(String id, int round, String... changes) {
    return NegotiationMessage.parse(
        body(id, round, round == 1 ? "propose" : "counter", "risk_adjustment", changes));
  }

  static Negotiator.Outcome apply(
      Agreement a, Optional<NegotiationState> s, NegotiationMessage m, Role r) {
    return apply(a, s, m, r, Optional.empty());
  }

  static Negotiator.Outcome apply(
      Agreement a,
      Optional<NegotiationState> s,
      NegotiationMessage m,
      Role r,
      Optional<MarketMedian> median) {
    return Negotiator.apply(a, s, m, r, median, P, NOW, () -> "neg-1");
  }

  static Negotiator.Changed changed(Negotiator.Outcome o) {
    assertThat(o).isInstanceOf(Negotiator.Changed.class);
    return (Negotiator.Changed) o;
  }

  // --- asymmetry -------------------------------------------------------------------------------

  @Test
  void exactly25PercentIsAllowedAnd2501IsRefused() {
    Agreement a = agreement();
    Negotiator.Changed c =
        changed(
            apply(
                a,
                Optional.empty(),
                counter(
                    null,
                    1,
                    "service.constraints.max_tokens",
                    "25000",
                    "escrow.payment.amount",
                    "\"12.50\"",
                    "quality_criteria.dimensions[0].slo.value",
                    "60"),
                Role.PROVIDER));
    assertThat(c.newDocument().at("/service/constraints/max_tokens").asInt()).isEqualTo(25000);
    assertThat(c.newDocument().at("/escrow/payment/amount").asText()).isEqualTo("12.50");
    assertThat(c.changes())
        .extracting(Negotiator.Change::path)
        .containsExactly(
            "quality_criteria.dimensions[0].slo.value",
            "escrow.payment.amount",
            "service.constraints.max_tokens");
    assertThat(c.changes().get(0).before().asInt()).isEqualTo(80);

    assertThatThrownBy(() ->
            apply(
                a,
                Optional.empty(),
                counter(null, 1, "service.constraints.max_tokens", "25002"),
                Role.PROVIDER))
        .isInstanceOf(NegotiationRefusedException.class)
        .hasMessageContaining("service.constraints.max_tokens")
        .hasMessageContaining("current value 20000")
        .hasMessageContaining("[15000, 25000]");
    assertThatThrownBy(() ->
            apply(
                a,
                Optional.empty(),
                counter(null, 1, "quality_criteria.dimensions[0].slo.value", "59.992"),
                Role.PROVIDER))
        .isInstanceOf(NegotiationRefusedException.class)
        .hasMessageContaining("[60, 100]");
    assertThatThrownBy(() ->
            apply(
                a,
                Optional.empty(),
                counter(null, 1, "escrow.payment.amount", "\"12.51\""),
                Role.CLIENT))
        .isInstanceOf(NegotiationRefusedException.class)
        .hasMessageContaining("escrow.payment.amount");
  }

  @Test
  void aTermAtZeroMayOnlyStayAtZero() {
    Agreement a = agreement(d -> d.putObject("verification").put("challenge_window_seconds", 0));
    assertThatThrownBy(() ->
            apply(
                a,
                Optional.empty(),
                counter(null, 1, "verification.challenge_window_seconds", "1"),
                Role.CLIENT))
        .isInstanceOf(NegotiationRefusedException.class)
        .hasMessageContaining("[0, 0]");
  }

  @Test
  void asymmetryPropertyOverRandomShifts() {
    long seed = System.nanoTime();
    System.out.println("NegotiatorTest.asymmetryPropertyOverRandomShifts seed=" + seed);
    Random rnd = new Random(seed);
    Agreement a = agreement();
    for (int i = 0; i < 300; i++) {
      int tokens = 20000 + rnd.nextInt(12001) - 6000;
      boolean allowed = Math.abs(tokens - 20000) <= 5000;
      long cents = 1000 + rnd.nextInt(601) - 300;
      boolean allowedAmount = Math.abs(cents - 1000) <= 250;
      String amount = BigDecimal.valueOf(cents, 2).toPlainString();
      NegotiationMessage m =
          counter(
              null,
              1,
              "service.constraints.max_tokens",
              Integer.toString(tokens),
              "escrow.payment.amount",
              "\"" + amount + "\"");
      if (allowed && allowedAmount) {
        Negotiator.Changed c = changed(apply(a, Optional.empty(), m, Role.PROVIDER));
        assertThat(c.newDocument().at("/escrow/payment/amount").asText())
            .as("seed %d", seed)
            .isEqualTo(amount);
      } else {
        assertThatThrownBy(() -> apply(a, Optional.empty(), m, Role.PROVIDER))
            .as("seed %d tokens %d amount %s", seed, tokens, amount)
            .isInstanceOf(NegotiationRefusedException.class);
      }
    }
  }

  // --- rounds, turns, ids ----------------------------------------------------------------------

  /** Plays rounds 1..n alternating provider/client, each moving the amount by 1 cent. */
  static Object[] play(int n) {
    Agreement a = agreement();
    Optional<NegotiationState> s = Optional.empty();
    Role r = Role.PROVIDER;
    for (int round = 1; round <= n; round++) {
      String amount = BigDecimal.valueOf(1000 + round, 2).toPlainString();
      Negotiator.Changed c =
          changed(
              apply(
                  a,
                  s,
                  counter(
                      s.map(NegotiationState::negotiationId).orElse(null),
                      round,
                      "escrow.payment.amount",
                      "\"" + amount + "\""),
                  r));
      a = AgreementDocuments.read(c.newDocument());
      s = Optional.of(c.next());
      assertThat(a.toJson().has("metadata"))
          .as("the document never carries server facts")
          .isFalse();
      r = r.counterparty();
    }
    return new Object[] {a, s, r};
  }

  @Test
  void round5IsAllowedAndRound6EndsInRejected() {
    Object[] g = play(5);
    Agreement a = (Agreement) g[0];
    @SuppressWarnings("unchecked")
    Optional<NegotiationState> s = (Optional<NegotiationState>) g[1];
    assertThat(s.orElseThrow().round()).isEqualTo(5);
    assertThat(a.state().name()).isEqualTo("NEGOTIATING");
    Negotiator.Outcome o =
        apply(a, s, counter("neg-1", 6, "escrow.payment.amount", "\"10.00\""), (Role) g[2]);
    assertThat(o).isInstanceOf(Negotiator.Rejected.class);
    assertThat(((Negotiator.Rejected) o).reason())
        .isEqualTo("round 6 exceeds the 5-round limit: the negotiation ends, agreement REJECTED");
    assertThat(o.next().ended()).isTrue();
    assertThatThrownBy(() ->
            apply(
                a,
                Optional.of(o.next()),
                counter("neg-1", 7, "escrow.payment.amount", "\"10.00\""),
                Role.CLIENT))
        .isInstanceOf(NegotiationRefusedException.class)
        .hasMessageContaining("has ended");
  }

  @Test
  void turnsRoundsAndIdsAreChecked() {
    Agreement a = agreement();
    assertThatThrownBy(() ->
            apply(
                a,
                Optional.empty(),
                counter("neg-x", 2, "escrow.payment.amount", "\"10.50\""),
                Role.CLIENT))
        .isInstanceOf(NegotiationRefusedException.class)
        .hasMessageContaining("round 1");
    assertThatThrownBy(() ->
            apply(
                a,
                Optional.empty(),
                counter("neg-x", 1, "escrow.payment.amount", "\"10.50\""),
                Role.CLIENT))
        .isInstanceOf(NegotiationRefusedException.class)
        .hasMessageContaining("leave negotiation_id out");

    Negotiator.Changed first =
        changed(
            apply(
                a,
                Optional.empty(),
                counter(null, 1, "escrow.payment.amount", "\"10.50\""),
                Role.CLIENT));
    assertThat(first.next().negotiationId()).isEqualTo("neg-1");
    assertThat(first.next().lastParty()).isEqualTo(Role.CLIENT);
    Agreement a1 = AgreementDocuments.read(first.newDocument());
    Optional<NegotiationState> s = Optional.of(first.next());

    assertThatThrownBy(() ->
            apply(a1, s, counter("neg-1", 2, "escrow.payment.amount", "\"10.60\""), Role.CLIENT))
        .isInstanceOf(NegotiationRefusedException.class)
        .hasMessageContaining("not your turn");
    assertThatThrownBy(() ->
            apply(a1, s, counter("neg-1", 3, "escrow.payment.amount", "\"10.60\""), Role.PROVIDER))
        .isInstanceOf(NegotiationRefusedException.class)
        .hasMessageContaining("wrong round 3");
    assertThatThrownBy(() ->
            apply(a1, s, counter("neg-1", 1, "escrow.payment.amount", "\"10.60\""), Role.PROVIDER))
        .isInstanceOf(NegotiationRefusedException.class)
        .hasMessageContaining("wrong round 1");
    assertThatThrownBy(() ->
            apply(a1, s, counter("neg-2", 2, "escrow.payment.amount", "\"10.60\""), Role.PROVIDER))
        .isInstanceOf(NegotiationRefusedException.class)
        .hasMessageContaining("wrong negotiation_id");
    assertThatThrownBy(() ->
            apply(a1, s, counter("neg-1", 2, "escrow.payment.amount", "\"10.60\""), Role.EVALUATOR))
        .isInstanceOf(NegotiationRefusedException.class);
    assertThat(
            apply(a1, s, counter("neg-1", 2, "escrow.payment.amount", "\"10.60\""), Role.PROVIDER))
        .isInstanceOf(Negotiator.Changed.class);
    // Round 2 without the id is a malformed message.
    assertThatThrownBy(() ->
            NegotiationMessage.parse(
                body(null, 2, "counter", "risk_adjustment", "escrow.payment.amount", "\"1.00\"")))
        .isInstanceOf(InvalidDocumentException.class)
        .hasMessageContaining("/negotiation_id");
  }

  // --- price bounds ----------------------------------------------------------------------------

  static Optional<MarketMedian> median(String m) {
    return Optional.of(new MarketMedian(new BigDecimal(m), "arp_market_data"));
  }

  @Test
  void priceAtExactlyTheBoundsIsNotFlaggedJustOutsideIs() {
    Agreement a = agreement(); // amount 10.00
    NegotiationMessage m = counter(null, 1, "quality_criteria.composite_threshold", "72");
    assertThat(changed(apply(a, Optional.empty(), m, Role.CLIENT, median("20.00"))).flag())
        .isNull(); // 0.5x
    assertThat(changed(apply(a, Optional.empty(), m, Role.CLIENT, median("3.3334"))).flag())
        .isNull(); // 2.99994x
    PriceFlag low = changed(apply(a, Optional.empty(), m, Role.CLIENT, median("20.01"))).flag();
    assertThat(low).isNotNull();
    assertThat(low.source()).isEqualTo("arp_market_data");
    assertThat(low.ratio()).isEqualByComparingTo("0.4998");

    NegotiationMessage up = counter(null, 1, "escrow.payment.amount", "\"12.00\"");
    assertThat(changed(apply(a, Optional.empty(), up, Role.PROVIDER, median("4.00"))).flag())
        .isNull(); // exactly 3.0x
    Negotiator.Changed high =
        changed(apply(a, Optional.empty(), up, Role.PROVIDER, median("3.99")));
    assertThat(high.flag().ratio()).isEqualByComparingTo("3.0075");
    assertThat(high.next().priceFlag()).isEqualTo(high.flag());
    assertThat(high.next().priceFlag().median()).isEqualByComparingTo("3.99");
    assertThat(high.priceNote()).contains("flagged");

    Negotiator.Changed none =
        changed(apply(a, Optional.empty(), up, Role.PROVIDER, Optional.empty()));
    assertThat(none.flag()).isNull();
    assertThat(none.priceNote()).contains("no market median");
  }

  @Test
  void marketMedianFromClosedNeedsFiveAndFromReferenceNeedsATrustedSource() {
    var five =
        java.util.List.of(
            new BigDecimal("1"),
            new BigDecimal("9"),
            new BigDecimal("5"),
            new BigDecimal("3"),
            new BigDecimal("7"));
    assertThat(MarketMedian.fromClosed(five, P).orElseThrow().median()).isEqualByComparingTo("5");
    assertThat(MarketMedian.fromClosed(five.subList(0, 4), P)).isEmpty();
    var ref = new NegotiationMessage.MarketReference(new BigDecimal("5.50"), "arp_market_data");
    assertThat(MarketMedian.fromReference(ref, java.util.Set.of("arp_market_data"))).isPresent();
    assertThat(MarketMedian.fromReference(ref, java.util.Set.of())).isEmpty();
  }

  // --- validity and renormalisation ------------------------------------------------------------

  @Test
  void weightsAreRenormalisedOnlyWhenAsked() {
    Agreement a = agreement();
    assertThatThrownBy(() ->
            apply(
                a,
                Optional.empty(),
                counter(null, 1, "quality_criteria.dimensions[0].weight", "0.36"),
                Role.CLIENT))
        .isInstanceOf(InvalidDocumentException.class)
        .hasMessageContaining("sum to 1");

    ObjectNode b =
        body(
            null,
            1,
            "propose",
            "quality_requirement_change",
            "quality_criteria.dimensions[0].weight",
            "0.36");
    b.put("renormalize_weights", true);
    Negotiator.Changed c =
        changed(apply(a, Optional.empty(), NegotiationMessage.parse(b), Role.CLIENT));
    BigDecimal sum = BigDecimal.ZERO;
    for (JsonNode d : c.newDocument().at("/quality_criteria/dimensions")) {
      sum = sum.add(d.path("weight").decimalValue());
    }
    assertThat(sum.subtract(BigDecimal.ONE).abs()).isLessThan(new BigDecimal("0.0001"));
    assertThat(c.changes()).hasSize(4); // every weight moved
    assertThat(c.newDocument().at("/quality_criteria/dimensions/0/weight").asDouble())
        .isCloseTo(0.36 / 1.06, org.assertj.core.data.Offset.offset(1e-6));
  }

  @Test
  void aMissingDimensionIsRefusedNamingThePath() {
    assertThatThrownBy(() ->
            apply(
                agreement(),
                Optional.empty(),
                counter(null, 1, "quality_criteria.dimensions[9].slo.value", "50"),
                Role.CLIENT))
        .isInstanceOf(InvalidDocumentException.class)
        .satisfies(e ->
            assertThat(((InvalidDocumentException) e).violations())
                .extracting(Violation::pointer)
                .containsExactly("/proposed_changes/quality_criteria.dimensions[9].slo.value"));
  }

  // --- accept, reject, signatures --------------------------------------------------------------

  @Test
  void acceptFreezesTheTerms() {
    Agreement a = agreement();
    Negotiator.Changed c =
        changed(
            apply(
                a,
                Optional.empty(),
                counter(null, 1, "escrow.payment.amount", "\"11.00\""),
                Role.PROVIDER));
    Agreement a1 = AgreementDocuments.read(c.newDocument());
    Negotiator.Outcome acc =
        apply(
            a1,
            Optional.of(c.next()),
            NegotiationMessage.parse(body("neg-1", 2, "accept", "accept_as_proposed")),
            Role.CLIENT);
    assertThat(acc).isInstanceOf(Negotiator.Accepted.class);
    assertThat(acc.next().acceptedHash()).isEqualTo(a1.hash().toString());
    assertThat(NegotiationState.fromJson(acc.next().toJson())).contains(acc.next());

    assertThatThrownBy(() ->
            apply(
                a1,
                Optional.of(acc.next()),
                counter("neg-1", 3, "escrow.payment.amount", "\"12.00\""),
                Role.PROVIDER))
        .isInstanceOf(NegotiationRefusedException.class)
        .hasMessageContaining("frozen");
    Negotiator.Outcome rej =
        apply(
            a1,
            Optional.of(acc.next()),
            NegotiationMessage.parse(body("neg-1", 3, "reject", "no_agreement_possible")),
            Role.PROVIDER);
    assertThat(rej).isInstanceOf(Negotiator.Rejected.class);
    assertThat(((Negotiator.Rejected) rej).reason())
        .contains("provider")
        .contains("no_agreement_possible");
  }

  @Test
  void aChangeRemovesSignaturesGivenOverTheOldTerms() {
    Agreement a = agreement();
    Agreement signed = a.withSignature(Role.CLIENT, Fixtures.key("alice").sign(a.signingInput()));
    Negotiator.Changed c =
        changed(
            apply(
                signed,
                Optional.empty(),
                counter(null, 1, "escrow.payment.amount", "\"11.00\""),
                Role.PROVIDER));
    Agreement after = AgreementDocuments.read(c.newDocument());
    assertThat(after.isSignedBy(Role.CLIENT)).isFalse();
    assertThat(after.hash()).isNotEqualTo(a.hash());
    assertThat(after.state().name()).isEqualTo("NEGOTIATING");
  }

  @Test
  void stateJsonRoundTripsAndMissingMeansNone() {
    assertThat(NegotiationState.fromJson(Json.object().path("negotiation"))).isEmpty();
    assertThat(NegotiationState.fromJson(null)).isEmpty();
    NegotiationState s =
        new NegotiationState(
            "neg-1",
            2,
            Role.CLIENT,
            NOW,
            NOW.plusSeconds(5),
            null,
            new PriceFlag(
                new BigDecimal("1.00"), new BigDecimal("5"), "x", new BigDecimal("0.2000")),
            false);
    assertThat(NegotiationState.fromJson(s.toJson())).contains(s);
    assertThat(s.stalled(NOW.plusSeconds(3604), P)).isFalse();
    assertThat(s.stalled(NOW.plusSeconds(3605), P)).isTrue();
  }
}
