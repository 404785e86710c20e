package dev.asa.agreement;

import java.math.BigDecimal;
import java.util.Objects;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A binary pass/fail boundary (section 6.4). Its {@code condition} is one of:
 *
 * <ul>
 *   <li>{@code all_slos_met}: every dimension (and shadow metric) meets its objective;
 *   <li>a threshold {@code <subject>_<op>_<number>}, where the subject is a dimension name or
 *       {@code composite} and op is gte, gt, lte or lt: {@code accuracy_gte_80}, {@code
 *       composite_gte_75};
 *   <li>a named boolean check reported by an evaluator, such as {@code
 *       no_critical_security_vulnerabilities}, {@code all_tests_pass}, {@code format_valid}, or the
 *       name of a boolean dimension.
 * </ul>
 */
public record QualityGate(String text, Kind kind, Condition condition) {

  public QualityGate {
    Objects.requireNonNull(text, "text");
    Objects.requireNonNull(kind, "kind");
    Objects.requireNonNull(condition, "condition");
  }

  /** Parses a gate; throws IllegalArgumentException when the condition is not understood. */
  public static QualityGate of(String text, Kind kind) {
    return new QualityGate(text, kind, Condition.parse(text));
  }

  private static final Pattern THRESHOLD =
      Pattern.compile("^([a-z][a-z0-9_]*?)_(gte|gt|lte|lt)_([0-9]+(?:\\.[0-9]+)?)$");

  /** What a gate tests. */
  public sealed interface Condition {
    record AllSlosMet() implements Condition {}

    record Threshold(String subject, SloOperator operator, BigDecimal value) implements Condition {
      public boolean isComposite() {
        return subject.equals("composite");
      }
    }

    record Check(String name) implements Condition {}

    static Condition parse(String text) {
      if (text.equals("all_slos_met")) {
        return new AllSlosMet();
      }
      Matcher m = THRESHOLD.matcher(text);
      if (m.matches()) {
        return new Threshold(
            m.group(1), SloOperator.fromWire(m.group(2)), new BigDecimal(m.group(3)));
      }
      return new Check(text);
    }
  }

  public enum Kind {
    BOOLEAN,
    THRESHOLD;

    public static Kind fromWire(String name) {
      return Wire.parse(Kind.class, name, "quality gate type");
    }
  }

  public enum Logic {
    ALL_MUST_PASS,
    ANY_MUST_PASS;

    public static Logic fromWire(String name) {
      return Wire.parse(Logic.class, name, "gate_logic");
    }
  }
}
