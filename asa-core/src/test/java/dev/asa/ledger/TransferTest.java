package dev.asa.ledger;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.asa.agreement.Currency;
import dev.asa.agreement.Money;
import java.math.BigDecimal;
import java.time.Instant;
import org.junit.jupiter.api.Test;

/** The rules every transfer obeys before any store sees it: where holding accounts' money goes. */
class TransferTest {
  private static final Money TEN = new Money(new BigDecimal("10.00"), Currency.of("USD").get());
  private static final Instant AT = Instant.parse("2026-12-07T10:00:00.123456Z");

  private static Transfer of(Transfer.Kind kind, String from, String to) {
    return new Transfer("asa-1", kind, from, to, TEN, AT);
  }

  @Test
  void aLifecycleOfTransfersIsAccepted() {
    Transfer hold = of(Transfer.Kind.HOLD, "party:c", Accounts.escrow("asa-1"));
    assertThat(hold.id()).isEqualTo("asa-1/hold");
    assertThat(hold.at()).isEqualTo(Instant.parse("2026-12-07T10:00:00.123Z"));
    of(Transfer.Kind.FUND, Accounts.external("ledger"), "party:c");
    of(Transfer.Kind.RELEASE, Accounts.escrow("asa-1"), "party:p");
    of(Transfer.Kind.REFUND, Accounts.escrow("asa-1"), "party:c");
    of(Transfer.Kind.STAKE, "party:p", Accounts.collateral("asa-1"));
    of(Transfer.Kind.SLASH, Accounts.collateral("asa-1"), "party:c");
    of(Transfer.Kind.RETURN, Accounts.collateral("asa-1"), "party:p");
  }

  @Test
  void escrowAndCollateralMoneyMovesOnlyTheirOwnWay() {
    assertThatThrownBy(() -> of(Transfer.Kind.HOLD, "party:c", "party:p"))
        .hasMessageContaining("escrow account escrow:asa-1");
    assertThatThrownBy(() -> of(Transfer.Kind.RELEASE, "party:c", "party:p"))
        .hasMessageContaining("paid out of the agreement's escrow account");
    assertThatThrownBy(() -> of(Transfer.Kind.STAKE, "party:p", Accounts.escrow("asa-1")))
        .hasMessageContaining("collateral account collateral:asa-1");
    assertThatThrownBy(() -> of(Transfer.Kind.SLASH, Accounts.escrow("asa-1"), "party:c"))
        .hasMessageContaining("collateral account");
  }

  @Test
  void noTransferTouchesAnotherAgreementsHoldingAccount() {
    assertThatThrownBy(() -> of(Transfer.Kind.FUND, Accounts.external("x402"), "escrow:asa-2"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("escrow:asa-2")
        .hasMessageContaining("another agreement's holding account");
    assertThatThrownBy(() -> of(Transfer.Kind.DEPOSIT, "collateral:asa-2", "party:p"))
        .hasMessageContaining("collateral:asa-2");
    assertThatThrownBy(() -> of(Transfer.Kind.RELEASE, Accounts.escrow("asa-1"), "escrow:asa-2"))
        .hasMessageContaining("escrow:asa-2");
  }

  @Test
  void aTransferMovesAPositiveAmountBetweenTwoAccounts() {
    assertThatThrownBy(() ->
            new Transfer(
                "asa-1",
                Transfer.Kind.FUND,
                "external:ledger",
                "party:c",
                new Money(BigDecimal.ZERO, TEN.currency()),
                AT))
        .hasMessageContaining("positive amount");
    assertThatThrownBy(() -> of(Transfer.Kind.FUND, "party:c", "party:c"))
        .hasMessageContaining("two different accounts");
  }
}
