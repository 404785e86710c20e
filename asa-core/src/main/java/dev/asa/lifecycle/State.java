package dev.asa.lifecycle;

import java.util.Locale;

/**
 * The nine states of an agreement (whitepaper section 4.2). In JSON documents a state is written in
 * lower case ({@code "active"}); in problem details and logs in upper case ({@code ACTIVE}).
 */
public enum State {
  PROPOSED,
  NEGOTIATING,
  ACTIVE,
  DELIVERED,
  VERIFIED,
  CLOSED,
  REJECTED,
  DISPUTED,
  EXPIRED;

  /** CLOSED, REJECTED and EXPIRED never change again. */
  public boolean isFinal() {
    return this == CLOSED || this == REJECTED || this == EXPIRED;
  }

  /** The lower-case name used in agreement documents. */
  public String wireName() {
    return name().toLowerCase(Locale.ROOT);
  }

  /** Reads either spelling; throws IllegalArgumentException naming the accepted values. */
  public static State fromWire(String name) {
    for (State s : values()) {
      if (s.name().equalsIgnoreCase(name)) {
        return s;
      }
    }
    throw new IllegalArgumentException(
        "unknown agreement state '"
            + name
            + "'; expected one of proposed, negotiating, active,"
            + " delivered, verified, closed, rejected, disputed, expired");
  }
}
