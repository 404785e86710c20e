package dev.asa.server.store.escrow;

import dev.asa.agreement.Money;
import dev.asa.ledger.Transfer;
import java.math.BigDecimal;
import java.time.Instant;
import java.util.Objects;

/** One leg of a ledger transfer: {@code account} is debited or credited {@code amount}. */
public record LedgerEntry(
    String transferId,
    String agreementId,
    Transfer.Kind kind,
    String account,
    Direction direction,
    Money amount,
    Instant at) {

  public LedgerEntry {
    Objects.requireNonNull(transferId, "transferId");
    Objects.requireNonNull(agreementId, "agreementId");
    Objects.requireNonNull(kind, "kind");
    Objects.requireNonNull(account, "account");
    Objects.requireNonNull(direction, "direction");
    Objects.requireNonNull(amount, "amount");
    Objects.requireNonNull(at, "at");
  }

  public enum Direction {
    DEBIT,
    CREDIT
  }

  /** What the entry does to its account's balance: credits add, debits subtract. */
  public BigDecimal signedAmount() {
    return direction == Direction.CREDIT ? amount.amount() : amount.amount().negate();
  }
}
