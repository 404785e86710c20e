package dev.asa.agreement;

import java.util.Locale;

/** The three roles of an agreement. Only the client and the provider sign the terms. */
public enum Role {
  CLIENT,
  PROVIDER,
  EVALUATOR;

  public String wireName() {
    return name().toLowerCase(Locale.ROOT);
  }

  /** The other signing party; only defined for CLIENT and PROVIDER. */
  public Role counterparty() {
    return switch (this) {
      case CLIENT -> PROVIDER;
      case PROVIDER -> CLIENT;
      case EVALUATOR -> throw new IllegalStateException("the evaluator has no counterparty");
    };
  }

  public static Role fromWire(String name) {
    for (Role r : values()) {
      if (r.wireName().equals(name)) {
        return r;
      }
    }
    throw new IllegalArgumentException(
        "unknown role '" + name + "'; expected client, provider or evaluator");
  }
}
