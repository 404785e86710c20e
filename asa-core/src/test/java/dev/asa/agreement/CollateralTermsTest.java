package dev.asa.agreement;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.asa.document.Agreement;
import dev.asa.document.AgreementDocuments;
import dev.asa.document.AgreementDrafts;
import dev.asa.testing.Fixtures;
import java.math.BigDecimal;
import java.time.Instant;
import java.util.EnumSet;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** {@code escrow.collateral} (whitepaper section 10): how the terms read, and what is refused. */
class CollateralTermsTest {
  private static final Instant NOW = Instant.parse("2026-11-22T10:00:00Z");

  private static Agreement propose(ObjectNode doc) {
    return AgreementDrafts.propose(doc, NOW, () -> "asa-collateral-0001");
  }

  private static ObjectNode withCollateral(Consumer<ObjectNode> edit) {
    ObjectNode doc = Fixtures.general();
    ObjectNode c = ((ObjectNode) doc.path("escrow")).putObject("collateral").put("amount", "4.00");
    edit.accept(c);
    return doc;
  }

  private static void assertRefused(ObjectNode doc, String pointer, String fragment) {
    assertThatThrownBy(() -> propose(doc))
        .isInstanceOf(InvalidDocumentException.class)
        .satisfies(e ->
            assertThat(((InvalidDocumentException) e).violations())
                .as(e.getMessage())
                .anySatisfy(v -> {
                  assertThat(v.pointer()).isEqualTo(pointer);
                  assertThat(v.message()).containsIgnoringCase(fragment);
                }));
  }

  @Test
  void leftOutTheStakeSlashesFullyOnAllThreeEventsInTheEscrowsCurrency() {
    Escrow.Collateral c =
        propose(withCollateral(x -> {})).terms().escrow().collateralTerms().orElseThrow();
    assertThat(c.amount().toWire()).isEqualTo("4.00");
    assertThat(c.amount().currency().code()).isEqualTo("USD");
    assertThat(c.slashOn()).isEqualTo(EnumSet.allOf(Escrow.SlashEvent.class));
    assertThat(c.slashPercent()).isEqualByComparingTo("100");
  }

  @Test
  void namedEventsAndAShareAreRead() {
    Escrow.Collateral c =
        propose(
                withCollateral(x -> {
                  x.put("currency", "USD").put("slash_percent", new BigDecimal("40"));
                  x.putArray("slash_on").add("dispute_lost").add("provider_timeout");
                }))
            .terms()
            .escrow()
            .collateralTerms()
            .orElseThrow();
    assertThat(c.slashOn())
        .containsExactly(Escrow.SlashEvent.PROVIDER_TIMEOUT, Escrow.SlashEvent.DISPUTE_LOST);
    assertThat(c.slashesOn(Escrow.SlashEvent.VERIFICATION_FAILURE)).isFalse();
    assertThat(c.slashPercent()).isEqualByComparingTo("40");
  }

  @Test
  void anAgreementWithoutCollateralHasNone() {
    assertThat(propose(Fixtures.general()).terms().escrow().collateralTerms()).isEmpty();
  }

  @Test
  void anotherCurrencyIsRefusedNamingIt() {
    assertRefused(
        withCollateral(x -> x.put("currency", "EUR")),
        "/escrow/collateral/currency",
        "must be the escrow's currency, USD, not EUR");
    assertRefused(
        withCollateral(x -> x.put("currency", "XYZ")),
        "/escrow/collateral/currency",
        "unknown currency");
  }

  @Test
  void everyProblemOfTheCollateralIsReportedAtOnce() {
    ObjectNode doc = withCollateral(x -> x.put("currency", "EUR").put("amount", "0.00"));
    assertThatThrownBy(() -> propose(doc))
        .isInstanceOf(InvalidDocumentException.class)
        .hasMessageContaining("/escrow/collateral/currency")
        .hasMessageContaining("/escrow/collateral/amount");
  }

  @Test
  void anUnknownEventIsRefusedAtItsIndex() {
    assertRefused(
        withCollateral(x -> x.putArray("slash_on").add("provider_timeout").add("late_delivery")),
        "/escrow/collateral/slash_on/1",
        "");
    assertRefused(withCollateral(x -> x.putArray("slash_on")), "/escrow/collateral/slash_on", "");
    assertRefused(
        withCollateral(x -> x.putArray("slash_on").add("dispute_lost").add("dispute_lost")),
        "/escrow/collateral/slash_on",
        "");
  }

  @ParameterizedTest(name = "slash_percent {0}")
  @CsvSource({"0", "150", "-5", "33.333"})
  void aShareOutsideZeroToAHundredIsRefused(String percent) {
    assertRefused(
        withCollateral(x -> x.put("slash_percent", new BigDecimal(percent))),
        "/escrow/collateral/slash_percent",
        "");
  }

  @ParameterizedTest(name = "amount {0}")
  @CsvSource({"0, above zero", "0.00, above zero", "4.001, decimals", "'-1', ''", "'4', ''"})
  void aStakeOfNothingOrBadDecimalsIsRefused(String amount, String fragment) {
    ObjectNode doc =
        withCollateral(x -> {
          if (amount.equals("4")) {
            x.put("amount", 4); // a JSON number, not a decimal string
          } else {
            x.put("amount", amount);
          }
        });
    assertRefused(doc, "/escrow/collateral/amount", fragment);
  }

  @Test
  void aMisspeltMemberIsRefusedRatherThanLeavingTheDefault() {
    assertRefused(
        withCollateral(x -> x.put("slash_percnt", 40)),
        "/escrow/collateral/slash_percnt",
        "unknown member 'slash_percnt'");
  }

  @Test
  void aCollateralNeedsAnEnabledEscrowWithAPayment() {
    ObjectNode disabled = withCollateral(x -> {});
    ((ObjectNode) disabled.path("escrow")).put("enabled", false);
    assertRefused(disabled, "/escrow/collateral", "escrow is disabled");

    // Without a template, so that nothing fills in or turns off what the document leaves out.
    ObjectNode noPayment = propose(Fixtures.general()).toJson();
    noPayment.remove("status");
    ObjectNode escrow = (ObjectNode) noPayment.path("escrow");
    escrow.remove("payment");
    escrow.putObject("collateral").put("amount", "4.00").put("currency", "USD");
    assertThatThrownBy(() -> AgreementDocuments.read(noPayment))
        .isInstanceOf(InvalidDocumentException.class)
        .hasMessageContaining(
            "/escrow/collateral: a collateral is held beside the escrow's payment");
  }

  @Test
  void aSlashNeverExceedsTheShareAndNeverLosesAMinorUnit() {
    Money staked = new Money(new BigDecimal("0.05"), Currency.of("USD").orElseThrow());
    Escrow.Collateral c =
        new Escrow.Collateral(
            staked, EnumSet.allOf(Escrow.SlashEvent.class), new BigDecimal("33.33"));
    assertThat(staked.percent(c.slashPercent()).toWire()).isEqualTo("0.01");
  }
}
