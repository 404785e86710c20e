package dev.asa.facts;

import java.util.Locale;

/**
 * Where a provider's staked collateral stands, as the server records it once staked. Before the
 * stake there is no collateral fact: the escrow view says {@code awaiting} (or {@code not_staked}
 * once the agreement ended without one).
 */
public enum CollateralStatus {
  /** The stake is in the agreement's collateral account. */
  HELD,
  /** A slash event ended the agreement: the slashed share went to the client, the rest back. */
  SLASHED,
  /** The agreement ended without a slash event: the whole stake went back to the provider. */
  RETURNED;

  public String wireName() {
    return name().toLowerCase(Locale.ROOT);
  }

  public static CollateralStatus fromWire(String name) {
    for (CollateralStatus s : values()) {
      if (s.wireName().equals(name)) {
        return s;
      }
    }
    throw new IllegalArgumentException("unknown collateral status '" + name + "'");
  }
}
