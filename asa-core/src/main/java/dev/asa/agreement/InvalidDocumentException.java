package dev.asa.agreement;

import java.util.List;
import java.util.stream.Collectors;

/** An input document (or message) broke one or more rules; every violation is listed. */
public final class InvalidDocumentException extends RuntimeException {
  private final List<Violation> violations;

  public InvalidDocumentException(List<Violation> violations) {
    super(violations.stream().map(Violation::toString).collect(Collectors.joining("; ")));
    if (violations.isEmpty()) {
      throw new IllegalArgumentException(
          "an InvalidDocumentException needs at least one violation");
    }
    this.violations = List.copyOf(violations);
  }

  public InvalidDocumentException(String pointer, String message) {
    this(List.of(new Violation(pointer, message)));
  }

  public List<Violation> violations() {
    return violations;
  }
}
