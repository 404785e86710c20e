package dev.asa.agreement;

import java.util.Objects;

/**
 * One thing wrong with an input document: where (an RFC 6901 JSON pointer, "" for the whole
 * document) and what, phrased so that the sender knows what to change.
 */
public record Violation(String pointer, String message) {
  public Violation {
    Objects.requireNonNull(pointer, "pointer");
    Objects.requireNonNull(message, "message");
  }

  @Override
  public String toString() {
    return (pointer.isEmpty() ? "(document)" : pointer) + ": " + message;
  }
}
