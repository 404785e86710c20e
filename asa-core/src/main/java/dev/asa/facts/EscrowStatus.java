package dev.asa.facts;

import java.util.Locale;

/** Where an agreement's escrowed money stands, as the server records it. */
public enum EscrowStatus {
  /** Active, waiting for the client to fund. */
  UNFUNDED,
  /** The amount is in the agreement's escrow account. */
  HELD,
  /** A dispute froze the money until a ruling. */
  FROZEN,
  /** The escrow paid out: release and refund are booked. */
  SETTLED,
  /** The agreement ended with nothing held: nothing moved. */
  NOTHING_HELD;

  public String wireName() {
    return name().toLowerCase(Locale.ROOT);
  }

  public static EscrowStatus fromWire(String name) {
    for (EscrowStatus s : values()) {
      if (s.wireName().equals(name)) {
        return s;
      }
    }
    throw new IllegalArgumentException("unknown escrow status '" + name + "'");
  }
}
