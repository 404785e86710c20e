package dev.asa.server.escrow.erc8183;

import java.util.Locale;

/** An ERC-8183 job's status, in the contract's enum order. */
public enum JobStatus {
  OPEN,
  FUNDED,
  SUBMITTED,
  COMPLETED,
  REJECTED,
  EXPIRED;

  static JobStatus of(int ordinal) {
    if (ordinal < 0 || ordinal >= values().length) {
      throw new IllegalArgumentException("no ERC-8183 job status " + ordinal);
    }
    return values()[ordinal];
  }

  /** The draft's own name: {@code Funded}, {@code Submitted}, ... */
  public String displayName() {
    return name().charAt(0) + name().substring(1).toLowerCase(Locale.ROOT);
  }

  /** Whether the budget is still held by the contract. */
  public boolean holdsBudget() {
    return this == FUNDED || this == SUBMITTED;
  }

  /** Whether the budget went back to the client (rejected after funding, or expired). */
  public boolean refunded() {
    return this == REJECTED || this == EXPIRED;
  }
}
