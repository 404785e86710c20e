package dev.asa.agreement;

import java.util.Objects;

/**
 * Timeouts that keep an unresponsive party from blocking the agreement forever (section 8.3). The
 * evaluator timeout never defaults to {@code release_to_provider} (NOTES.md).
 */
public record DeadMansSwitch(
    Long clientTimeoutSeconds,
    Long providerTimeoutSeconds,
    Long evaluatorTimeoutSeconds,
    TimeoutAction timeoutAction) {

  public static final DeadMansSwitch NONE =
      new DeadMansSwitch(null, null, null, TimeoutAction.HOLD_FOR_BACKUP_EVALUATOR);

  public DeadMansSwitch {
    Objects.requireNonNull(timeoutAction, "timeoutAction");
  }

  public enum TimeoutAction {
    HOLD_FOR_BACKUP_EVALUATOR,
    SPLIT_50_50,
    RETURN_TO_CLIENT,
    RELEASE_TO_PROVIDER;

    public static TimeoutAction fromWire(String name) {
      return Wire.parse(TimeoutAction.class, name, "timeout_action");
    }
  }
}
