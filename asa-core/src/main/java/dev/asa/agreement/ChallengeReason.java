package dev.asa.agreement;

import java.util.Arrays;
import java.util.Locale;
import java.util.stream.Collectors;

/** Why a party contests a verification result: a fixed list, never free text (section 12.2). */
public enum ChallengeReason {
  QUALITY_BELOW_AGREED_SLO,
  EVALUATOR_ERROR,
  EVALUATOR_BIAS,
  DELIVERABLE_MISMATCH,
  MISSING_EVIDENCE,
  PROCEDURAL_VIOLATION;

  public String wireName() {
    return name().toLowerCase(Locale.ROOT);
  }

  public static ChallengeReason fromWire(String name) {
    return Wire.parse(ChallengeReason.class, name, "reason_code");
  }

  public static String allWireNames() {
    return Arrays.stream(values()).map(ChallengeReason::wireName).collect(Collectors.joining(", "));
  }
}
