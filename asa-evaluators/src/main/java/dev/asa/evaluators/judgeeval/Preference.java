package dev.asa.evaluators.judgeeval;

/** Which of a pairwise record's two answers is preferred. */
public enum Preference {
  A,
  B;

  /** As written in the files and the JSON report: {@code a} or {@code b}. */
  public String wire() {
    return this == A ? "a" : "b";
  }
}
