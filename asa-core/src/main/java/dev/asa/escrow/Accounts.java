package dev.asa.escrow;

/**
 * Ledger account names. A party's account is named by its verification key, so that {@code GET
 * /accounts/{key}} finds it whichever agreements the key took part in; each agreement has its own
 * escrow account; money entering from (or leaving to) a payment rail goes through that rail's
 * external account, which is where the ledger's balance against the outside world shows.
 */
public final class Accounts {
  private Accounts() {}

  public static String party(String verificationKey) {
    return "party:" + verificationKey;
  }

  public static String escrow(String agreementId) {
    return "escrow:" + agreementId;
  }

  public static String external(String bindingType) {
    return "external:" + bindingType;
  }
}
