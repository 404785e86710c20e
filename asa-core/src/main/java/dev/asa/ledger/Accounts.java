package dev.asa.ledger;

/**
 * Ledger account names. A party's account is named by its verification key, so that {@code GET
 * /accounts/{key}} finds it whichever agreements the key took part in; each agreement has its own
 * escrow account, and a collateral account for the provider's stake when its terms ask for one;
 * money entering from (or leaving to) a payment rail goes through that rail's external account,
 * which is where the ledger's balance against the outside world shows.
 */
public final class Accounts {
  private Accounts() {}

  public static String party(String verificationKey) {
    return "party:" + verificationKey;
  }

  public static String escrow(String agreementId) {
    return "escrow:" + agreementId;
  }

  /** Where the provider's stake ({@code escrow.collateral}) is held, beside the escrow. */
  public static String collateral(String agreementId) {
    return "collateral:" + agreementId;
  }

  /**
   * Whether money leaves this account only up to what was put into it: an agreement's escrow or
   * collateral account (the ledger refuses a payout beyond its balance).
   */
  public static boolean isHolding(String account) {
    return account.startsWith("escrow:") || account.startsWith("collateral:");
  }

  public static String external(String bindingType) {
    return "external:" + bindingType;
  }
}
