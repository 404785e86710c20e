package dev.asa.scoring;

/**
 * The outcome of a named yes/no check such as {@code format_valid}, {@code schema_valid} or {@code
 * all_tests_pass}, with the evidence a person needs to see why.
 */
public record CheckResult(boolean passed, String evidence) {

  public static CheckResult passed(String evidence) {
    return new CheckResult(true, evidence);
  }

  public static CheckResult failed(String evidence) {
    return new CheckResult(false, evidence);
  }
}
