package dev.asa.agreement;

import java.math.BigDecimal;
import java.util.Collections;
import java.util.EnumSet;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * The link between the agreement and a payment system. {@code payment} is absent when the agreement
 * moves no money; {@code collateral} is absent when the provider stakes nothing.
 */
public record Escrow(
    boolean enabled,
    String bindingType,
    Payment payment,
    DeadMansSwitch deadMansSwitch,
    Collateral collateral) {

  public static final Escrow NONE = new Escrow(false, "ledger", null, DeadMansSwitch.NONE, null);

  public Escrow {
    Objects.requireNonNull(bindingType, "bindingType");
    Objects.requireNonNull(deadMansSwitch, "deadMansSwitch");
  }

  public Optional<Payment> paymentTerms() {
    return Optional.ofNullable(payment);
  }

  public Optional<Collateral> collateralTerms() {
    return Optional.ofNullable(collateral);
  }

  /** The amount and how a score releases it. */
  public record Payment(Money amount, GraduatedRelease release) {
    public Payment {
      Objects.requireNonNull(amount, "amount");
      Objects.requireNonNull(release, "release");
    }
  }

  /**
   * Collateral bonding (whitepaper section 10, {@code escrow.collateral}): the provider stakes
   * {@code amount} beside the escrow before it may deliver; the stake is slashed to the client when
   * one of the {@code slashOn} events ends the agreement ({@code slashPercent} of it, the rest back
   * to the provider) and returned whole otherwise. Which ending is which event is {@code
   * dev.asa.ledger.Slashing}'s.
   *
   * @param amount the stake, above zero, in the escrow's currency
   * @param slashOn the events that slash it; all three when the terms name none
   * @param slashPercent the share slashed, above 0 and at most 100 (default 100)
   */
  public record Collateral(Money amount, Set<SlashEvent> slashOn, BigDecimal slashPercent) {
    public static final BigDecimal FULL = BigDecimal.valueOf(100);

    public Collateral {
      Objects.requireNonNull(amount, "amount");
      Objects.requireNonNull(slashOn, "slashOn");
      Objects.requireNonNull(slashPercent, "slashPercent");
      if (amount.amount().signum() <= 0) {
        throw new IllegalArgumentException("a collateral stakes an amount above zero");
      }
      if (slashPercent.signum() <= 0 || slashPercent.compareTo(FULL) > 0) {
        throw new IllegalArgumentException(
            "slash_percent must be above 0 and at most 100, not " + slashPercent.toPlainString());
      }
      // Kept in the enum's order, so that the terms render and compare the same however written.
      slashOn =
          Collections.unmodifiableSet(
              slashOn.isEmpty() ? EnumSet.noneOf(SlashEvent.class) : EnumSet.copyOf(slashOn));
    }

    public boolean slashesOn(SlashEvent event) {
      return slashOn.contains(event);
    }
  }

  /** What slashes a collateral ({@code escrow.collateral.slash_on}). */
  public enum SlashEvent {
    /** The verdict is a FAIL with a composite below {@code composite_threshold}. */
    VERIFICATION_FAILURE,
    /** The provider's delivery deadline passed (the dead-man's switch refunded the client). */
    PROVIDER_TIMEOUT,
    /** A ruling released less to the provider than the verdict did. */
    DISPUTE_LOST;

    public String wireName() {
      return name().toLowerCase(Locale.ROOT);
    }

    public static SlashEvent fromWire(String name) {
      return Wire.parse(SlashEvent.class, name, "slash_on event");
    }
  }
}
