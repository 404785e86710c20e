package dev.asa.ledger;

import dev.asa.agreement.Money;
import java.time.Instant;
import java.util.List;
import java.util.Locale;
import java.util.Objects;

/**
 * One movement of money between two ledger accounts: a double-entry transaction of exactly two legs
 * (a debit of {@code from}, a credit of {@code to}, same amount), so the ledger balances to zero by
 * construction. An agreement has at most one transfer of each {@link Kind}; its id says so ({@code
 * <agreement id>/<kind>}) and the store refuses a second one, which is what makes a payment happen
 * at most once whatever retries or races occur.
 */
public record Transfer(
    String agreementId, Kind kind, String from, String to, Money amount, Instant at) {

  public Transfer {
    Objects.requireNonNull(agreementId, "agreementId");
    Objects.requireNonNull(kind, "kind");
    Objects.requireNonNull(from, "from");
    Objects.requireNonNull(to, "to");
    Objects.requireNonNull(amount, "amount");
    Objects.requireNonNull(at, "at");
    if (amount.amount().signum() <= 0) {
      throw new IllegalArgumentException(
          "a transfer moves a positive amount; leave out a zero " + kind.wireName());
    }
    if (from.equals(to)) {
      throw new IllegalArgumentException(
          "a transfer moves money between two different accounts, not within " + from);
    }
    // Escrow money moves one way: held into the agreement's own escrow account, paid out of it.
    String escrow = Accounts.escrow(agreementId);
    if (kind == Kind.HOLD && !to.equals(escrow)) {
      throw new IllegalArgumentException(
          "a hold goes into the agreement's escrow account " + escrow + ", not " + to);
    }
    if ((kind == Kind.RELEASE || kind == Kind.REFUND) && !from.equals(escrow)) {
      throw new IllegalArgumentException(
          "a "
              + kind.wireName()
              + " is paid out of the agreement's escrow account "
              + escrow
              + ", not "
              + from);
    }
    // So does the provider's stake: into the agreement's collateral account, and out of it only
    // to settle it.
    String collateral = Accounts.collateral(agreementId);
    if (kind == Kind.STAKE && !to.equals(collateral)) {
      throw new IllegalArgumentException(
          "a stake goes into the agreement's collateral account " + collateral + ", not " + to);
    }
    if ((kind == Kind.SLASH || kind == Kind.RETURN) && !from.equals(collateral)) {
      throw new IllegalArgumentException(
          "a "
              + kind.wireName()
              + " is paid out of the agreement's collateral account "
              + collateral
              + ", not "
              + from);
    }
    // An agreement's holding accounts are its own: no transfer of another agreement touches them
    // (the store reads a holding account's balance through its agreement).
    for (String account : List.of(from, to)) {
      if (Accounts.isHolding(account) && !account.equals(escrow) && !account.equals(collateral)) {
        throw new IllegalArgumentException(
            "a transfer of agreement "
                + agreementId
                + " cannot touch "
                + account
                + ", another agreement's holding account");
      }
    }
    at = Instant.ofEpochMilli(at.toEpochMilli());
  }

  public String id() {
    return id(agreementId, kind);
  }

  /** The id of an agreement's transfer of a kind: {@code <agreement id>/<kind>}. */
  public static String id(String agreementId, Kind kind) {
    return agreementId + "/" + kind.wireName();
  }

  /** What a transfer is for. */
  public enum Kind {
    /** Money enters the ledger from outside, into the client's account. */
    FUND,
    /** The client's money is locked in the agreement's escrow account. */
    HOLD,
    /** The escrow pays the provider its share. */
    RELEASE,
    /** The escrow returns the rest to the client. */
    REFUND,
    /**
     * Money enters the ledger from outside, into the provider's account, for its collateral (as
     * {@link #FUND} does for the client's payment).
     */
    DEPOSIT,
    /** The provider's collateral is locked in the agreement's collateral account. */
    STAKE,
    /** A slash event: the collateral account pays the slashed share to the client. */
    SLASH,
    /** The collateral account gives the provider back its stake, or what a slash left of it. */
    RETURN;

    public String wireName() {
      return name().toLowerCase(Locale.ROOT);
    }

    public static Kind fromWire(String name) {
      return valueOf(name.toUpperCase(Locale.ROOT));
    }
  }
}
