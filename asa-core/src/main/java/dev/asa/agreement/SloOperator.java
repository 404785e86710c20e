package dev.asa.agreement;

import java.util.Locale;

/** The comparison of a service level objective: {@code measured <op> target}. */
public enum SloOperator {
  GTE,
  LTE,
  GT,
  LT,
  EQ,
  NEQ,
  BETWEEN;

  public String wireName() {
    return name().toLowerCase(Locale.ROOT);
  }

  /** The conventional symbol, for human-readable notes ("accuracy 82 < 85"). */
  public String symbol() {
    return switch (this) {
      case GTE -> ">=";
      case LTE -> "<=";
      case GT -> ">";
      case LT -> "<";
      case EQ -> "==";
      case NEQ -> "!=";
      case BETWEEN -> "in";
    };
  }

  public static SloOperator fromWire(String name) {
    return Wire.parse(SloOperator.class, name, "SLO operator");
  }
}
