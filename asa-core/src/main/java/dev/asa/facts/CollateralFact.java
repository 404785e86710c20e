package dev.asa.facts;

import com.fasterxml.jackson.annotation.JsonProperty;
import java.time.Instant;
import java.util.Objects;

/**
 * The provider's staked collateral ({@code escrow.collateral}): held from the stake until the
 * agreement ends, then slashed or returned, once.
 *
 * @param amount the staked amount as a decimal string
 * @param account the ledger account that holds it ({@code collateral:<agreement id>})
 * @param slashed what went to the client, as a decimal string; null while held
 * @param returned what went back to the provider, as a decimal string; null while held
 * @param trigger the {@code slash_on} event that slashed it; null while held or when returned
 * @param reason what ended the agreement ({@code verification_result}, {@code ruling}, a timer's
 *     name); null while held
 * @param settledAt when it was slashed or returned; null while held
 */
public record CollateralFact(
    CollateralStatus status,
    String amount,
    String currency,
    @JsonProperty("collateral_account") String account,
    Instant stakedAt,
    String slashed,
    String returned,
    String trigger,
    String reason,
    Instant settledAt)
    implements TypedFact {

  public CollateralFact {
    Objects.requireNonNull(status, "status");
    Objects.requireNonNull(amount, "amount");
    Objects.requireNonNull(currency, "currency");
    Objects.requireNonNull(account, "account");
    Objects.requireNonNull(stakedAt, "stakedAt");
  }

  /** Just staked. */
  public static CollateralFact held(String amount, String currency, String account, Instant at) {
    return new CollateralFact(
        CollateralStatus.HELD, amount, currency, account, at, null, null, null, null, null);
  }

  public boolean isHeld() {
    return status == CollateralStatus.HELD;
  }

  /**
   * The stake once the agreement ended: {@code SLASHED} when a trigger applied (even for a share
   * that rounds to nothing), {@code RETURNED} otherwise.
   */
  public CollateralFact settled(
      String slashedAmount, String returnedAmount, String slashTrigger, String why, Instant at) {
    return new CollateralFact(
        slashTrigger == null ? CollateralStatus.RETURNED : CollateralStatus.SLASHED,
        amount,
        currency,
        account,
        stakedAt,
        slashedAmount,
        returnedAmount,
        slashTrigger,
        why,
        at);
  }
}
