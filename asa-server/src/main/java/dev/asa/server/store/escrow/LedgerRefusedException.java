package dev.asa.server.store.escrow;

/**
 * The ledger refused a transfer that would break one of its own rules: money leaves an escrow
 * account only up to what that account holds (no release or refund without a hold of at least that
 * amount, no escrow account below zero). Nothing of the unit of work is written.
 */
public final class LedgerRefusedException extends RuntimeException {
  public LedgerRefusedException(String message) {
    super(message);
  }
}
