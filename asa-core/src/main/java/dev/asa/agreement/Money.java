package dev.asa.agreement;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.Objects;

/**
 * An exact amount in a currency. Amounts travel as decimal strings ("5.00"), never floats, and
 * never carry more decimals than the currency's minor unit.
 */
public record Money(BigDecimal amount, Currency currency) {

  public Money {
    Objects.requireNonNull(amount, "amount");
    Objects.requireNonNull(currency, "currency");
    if (amount.signum() < 0) {
      throw new IllegalArgumentException("an amount cannot be negative");
    }
    if (amount.stripTrailingZeros().scale() > currency.decimals()) {
      throw new IllegalArgumentException(
          currency.code()
              + " has "
              + currency.decimals()
              + " decimals; "
              + amount.toPlainString()
              + " has more");
    }
    amount = amount.setScale(currency.decimals(), RoundingMode.UNNECESSARY);
  }

  public static Money zero(Currency currency) {
    return new Money(BigDecimal.ZERO, currency);
  }

  /** The amount as it is written on the wire, with the currency's decimals: "8.50". */
  public String toWire() {
    return amount.toPlainString();
  }

  public Money plus(Money other) {
    requireSameCurrency(other);
    return new Money(amount.add(other.amount), currency);
  }

  public Money minus(Money other) {
    requireSameCurrency(other);
    return new Money(amount.subtract(other.amount), currency);
  }

  /**
   * The share of this amount for a percentage, rounded down to the minor unit so that the remainder
   * (which goes back to the client) is never negative.
   */
  public Money percent(BigDecimal percent) {
    BigDecimal share =
        amount
            .multiply(percent)
            .divide(BigDecimal.valueOf(100), currency.decimals(), RoundingMode.DOWN);
    return new Money(share, currency);
  }

  private void requireSameCurrency(Money other) {
    if (!currency.equals(other.currency)) {
      throw new IllegalArgumentException(
          "cannot mix " + currency.code() + " and " + other.currency.code());
    }
  }

  @Override
  public String toString() {
    return toWire() + " " + currency.code();
  }
}
