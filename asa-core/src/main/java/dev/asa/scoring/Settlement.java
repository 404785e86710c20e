package dev.asa.scoring;

import dev.asa.agreement.Money;
import java.util.Objects;

/**
 * How an escrowed amount is divided: {@code released} goes to the provider, {@code refunded} back
 * to the client. Built by {@link Release#split}, so the two always add up to the amount.
 */
public record Settlement(Money released, Money refunded) {
  public Settlement {
    Objects.requireNonNull(released, "released");
    Objects.requireNonNull(refunded, "refunded");
    if (!released.currency().equals(refunded.currency())) {
      throw new IllegalArgumentException("released and refunded must be in the same currency");
    }
  }

  public Money total() {
    return released.plus(refunded);
  }
}
