package dev.asa.agreement;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import java.math.BigDecimal;
import java.util.Objects;

/**
 * A service level objective: an operator and a target. The target is a number, a boolean (only with
 * {@code eq}/{@code neq}) or an inclusive range (only with {@code between}). Booleans compare as
 * scores: true is 100, false is 0 (NOTES.md), so {@code eq true} is met by a score of 100.
 */
public record Slo(SloOperator operator, Target target) {

  public Slo {
    Objects.requireNonNull(operator, "operator");
    Objects.requireNonNull(target, "target");
    boolean range = target instanceof Target.Range;
    if ((operator == SloOperator.BETWEEN) != range) {
      throw new IllegalArgumentException(
          "operator 'between' takes a [low, high] pair and no other operator does");
    }
    if (target instanceof Target.Flag
        && operator != SloOperator.EQ
        && operator != SloOperator.NEQ) {
      throw new IllegalArgumentException("a boolean target only works with eq or neq");
    }
  }

  /** The target of an SLO. */
  public sealed interface Target {
    /** The target as it is written on the wire (number, boolean or pair). */
    JsonNode toJson();

    record Number(BigDecimal value) implements Target {
      public Number {
        Objects.requireNonNull(value, "value");
      }

      @Override
      public JsonNode toJson() {
        return JsonNodeFactory.instance.numberNode(value);
      }
    }

    record Flag(boolean value) implements Target {
      @Override
      public JsonNode toJson() {
        return JsonNodeFactory.instance.booleanNode(value);
      }
    }

    record Range(BigDecimal low, BigDecimal high) implements Target {
      public Range {
        Objects.requireNonNull(low, "low");
        Objects.requireNonNull(high, "high");
        if (low.compareTo(high) > 0) {
          throw new IllegalArgumentException("range low " + low + " is above high " + high);
        }
      }

      @Override
      public JsonNode toJson() {
        return JsonNodeFactory.instance.arrayNode().add(low).add(high);
      }
    }
  }

  private static final BigDecimal HUNDRED = BigDecimal.valueOf(100);

  /** Whether a measured score meets this objective. Booleans count as 100 (true) or 0 (false). */
  public boolean isMetBy(BigDecimal measured) {
    Objects.requireNonNull(measured, "measured");
    return switch (target) {
      case Target.Range r -> measured.compareTo(r.low()) >= 0 && measured.compareTo(r.high()) <= 0;
      case Target.Flag f -> compare(measured, f.value() ? HUNDRED : BigDecimal.ZERO);
      case Target.Number n -> compare(measured, n.value());
    };
  }

  private boolean compare(BigDecimal measured, BigDecimal goal) {
    int c = measured.compareTo(goal);
    return switch (operator) {
      case GTE -> c >= 0;
      case LTE -> c <= 0;
      case GT -> c > 0;
      case LT -> c < 0;
      case EQ -> c == 0;
      case NEQ -> c != 0;
      case BETWEEN -> throw new IllegalStateException("between always has a range target");
    };
  }

  /** "gte 85", "eq true", "between [10, 20]": for notes and evidence. */
  public String describe() {
    return operator.wireName() + " " + target.toJson();
  }
}
