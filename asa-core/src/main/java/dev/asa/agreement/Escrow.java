package dev.asa.agreement;

import java.util.Objects;
import java.util.Optional;

/**
 * The link between the agreement and a payment system. {@code payment} is absent when the agreement
 * moves no money.
 */
public record Escrow(
    boolean enabled, String bindingType, Payment payment, DeadMansSwitch deadMansSwitch) {

  public static final Escrow NONE = new Escrow(false, "ledger", null, DeadMansSwitch.NONE);

  public Escrow {
    Objects.requireNonNull(bindingType, "bindingType");
    Objects.requireNonNull(deadMansSwitch, "deadMansSwitch");
  }

  public Optional<Payment> paymentTerms() {
    return Optional.ofNullable(payment);
  }

  /** The amount and how a score releases it. */
  public record Payment(Money amount, GraduatedRelease release) {
    public Payment {
      Objects.requireNonNull(amount, "amount");
      Objects.requireNonNull(release, "release");
    }
  }
}
