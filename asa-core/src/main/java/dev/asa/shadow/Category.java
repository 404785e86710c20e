package dev.asa.shadow;

import java.util.Arrays;
import java.util.List;
import java.util.stream.Collectors;

/** What kind of scenario a sealed test or criterion covers. */
public enum Category {
  HAPPY_PATH("happy_path"),
  EDGE_CASE("edge_case"),
  ERROR_HANDLING("error_handling"),
  SECURITY("security"),
  /** The sealed-criteria variant's fourth category; the Shadow Score Spec has no such value. */
  COMPLETENESS("completeness"),
  /** No category given. */
  UNKNOWN("unknown");

  /** The categories the spec compares between sealed and open suites, in its order. */
  public static final List<Category> COMPARED =
      List.of(HAPPY_PATH, EDGE_CASE, ERROR_HANDLING, SECURITY);

  private final String wire;

  Category(String wire) {
    this.wire = wire;
  }

  public String wire() {
    return wire;
  }

  /**
   * The name written in spec-format reports. The spec's report schema only knows the four code-test
   * categories and {@code unknown}, so {@code completeness} is reported as {@code unknown}
   * (NOTES.md, Decisions) rather than making the report invalid.
   */
  public String reported() {
    return this == COMPLETENESS ? UNKNOWN.wire : wire;
  }

  /** The category of this wire name, or null when there is none. */
  static Category fromWire(String text) {
    for (Category c : values()) {
      if (c.wire.equals(text)) {
        return c;
      }
    }
    return null;
  }

  static String allWire() {
    return Arrays.stream(values()).map(Category::wire).collect(Collectors.joining(", "));
  }
}
