package dev.asa.agreement;

import java.util.Locale;
import java.util.Objects;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Canary tasks (whitepaper 4.1, 6.3, 14.5), from {@code verification.canary_tasks}: known-answer
 * tasks given to the evaluator among its real work, indistinguishable from it, to check that it
 * still judges correctly.
 *
 * <p>Like the release mitigations, canary tasks that are written down are on unless they say {@code
 * "enabled": false}. A server that cannot honour them (no canary set loaded) must refuse the
 * agreement rather than let the parties believe a safeguard is on when it is not.
 *
 * @param frequency how often a canary reaches the evaluator
 * @param failureAction what a failed canary does to the agreement's verification
 */
public record CanaryTerms(boolean enabled, Frequency frequency, FailureAction failureAction) {

  /** What an agreement without {@code canary_tasks} has. */
  public static final CanaryTerms DISABLED =
      new CanaryTerms(false, Frequency.DEFAULT, FailureAction.FLAG_AND_CONTINUE);

  public CanaryTerms {
    Objects.requireNonNull(frequency, "frequency");
    Objects.requireNonNull(failureAction, "failureAction");
  }

  /**
   * One canary per {@code oneIn} real deliveries, written {@code "1_per_5_deliveries"}. The
   * whitepaper's rate is 1 per 5 (20% overhead); evaluators with a long clean record may get 1 per
   * 20.
   */
  public record Frequency(int oneIn) {
    /** The whitepaper's rate. */
    public static final Frequency DEFAULT = new Frequency(5);

    /** The lowest rate that still checks anything: one canary per thousand deliveries. */
    public static final int MAX_ONE_IN = 1000;

    private static final Pattern WIRE = Pattern.compile("1_per_([1-9][0-9]{0,3})_deliveries");

    public Frequency {
      if (oneIn < 1 || oneIn > MAX_ONE_IN) {
        throw new IllegalArgumentException(
            "a canary frequency is 1 per 1 to " + MAX_ONE_IN + " deliveries, got 1 per " + oneIn);
      }
    }

    /**
     * Reads {@code 1_per_N_deliveries}.
     *
     * @throws IllegalArgumentException saying the form, for anything else
     */
    public static Frequency parse(String text) {
      Matcher m = WIRE.matcher(text == null ? "" : text);
      if (!m.matches() || Integer.parseInt(m.group(1)) > MAX_ONE_IN) {
        throw new IllegalArgumentException(
            "'"
                + text
                + "' is not a canary frequency: write 1_per_N_deliveries with N from 1 to "
                + MAX_ONE_IN
                + ", e.g. 1_per_5_deliveries");
      }
      return new Frequency(Integer.parseInt(m.group(1)));
    }

    public String toWire() {
      return "1_per_" + oneIn + "_deliveries";
    }
  }

  /** What a failed canary does (the evaluator's record is updated whatever the action). */
  public enum FailureAction {
    /** Record the failure in the evaluator's record and the agreement's evidence; carry on. */
    FLAG_AND_CONTINUE,
    /** Carry on with this result, but a fresh pool evaluator judges the next deliveries. */
    REPLACE_EVALUATOR,
    /** Discard this evaluator's result and have a fresh pool evaluator judge the delivery. */
    VOID_RESULT_AND_REASSIGN;

    public static FailureAction fromWire(String name) {
      return Wire.parse(FailureAction.class, name, "canary failure_action");
    }

    public String wireName() {
      return name().toLowerCase(Locale.ROOT);
    }
  }
}
