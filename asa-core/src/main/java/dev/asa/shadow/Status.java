package dev.asa.shadow;

import java.util.Arrays;
import java.util.stream.Collectors;

/** The outcome of one test as a test runner reports it. */
public enum Status {
  PASSED("passed"),
  FAILED("failed"),
  /** The test could not run to a verdict (a crash in setup, a timeout). */
  ERROR("error"),
  SKIPPED("skipped");

  private final String wire;

  Status(String wire) {
    this.wire = wire;
  }

  public String wire() {
    return wire;
  }

  /**
   * Whether the test counts against the implementation. Only a pass shows that a sealed requirement
   * is met: counting an error or a skip as a pass would push the score toward 0, the direction the
   * spec calls dangerous because it hides defects.
   */
  public boolean countsAsFailure() {
    return this != PASSED;
  }

  /** The status of this wire name, or null when there is none. */
  static Status fromWire(String text) {
    for (Status s : values()) {
      if (s.wire.equals(text)) {
        return s;
      }
    }
    return null;
  }

  static String allWire() {
    return Arrays.stream(values()).map(Status::wire).collect(Collectors.joining(", "));
  }
}
