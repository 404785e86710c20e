package dev.asa.agreement;

/**
 * How many pool evaluators judge each delivery and how their results are combined (whitepaper 6.3,
 * multi-evaluator consensus), from {@code verification.evaluators}: {@code {"count": 3, "method":
 * "median"}}. One evaluator unless the agreement asks for more.
 */
public record EvaluatorPanel(int count, Method method) {

  /** One evaluator; the method is then moot. */
  public static final EvaluatorPanel SINGLE = new EvaluatorPanel(1, Method.MEDIAN);

  /**
   * Consensus over more than this many evaluators costs more than it adds (as for verifications).
   */
  public static final int MAX_COUNT = 7;

  public EvaluatorPanel {
    java.util.Objects.requireNonNull(method, "method");
    if (count < 1 || count > MAX_COUNT) {
      throw new IllegalArgumentException("count must be from 1 to " + MAX_COUNT + ", got " + count);
    }
  }

  /** How several evaluators' results become one. */
  public enum Method {
    /** The median score per dimension (majority vote for boolean dimensions). */
    MEDIAN,
    /** The majority's verdict. */
    MAJORITY;

    public static Method fromWire(String name) {
      return Wire.parse(Method.class, name, "evaluators method");
    }

    public String wireName() {
      return name().toLowerCase(java.util.Locale.ROOT);
    }
  }
}
