package dev.asa.evaluators.judgeeval;

import java.util.List;

/** A labelled file that cannot be used as it is; every problem found, each with its line. */
public final class LabelledFileException extends Exception {

  /**
   * One problem.
   *
   * @param line the line (1 for the first), or 0 for the file as a whole
   * @param field the member at fault, or null for the whole line or file
   */
  public record Problem(int line, String field, String message) {

    @Override
    public String toString() {
      String where = line == 0 ? "" : "line " + line + (field == null ? "" : ", " + field) + ": ";
      return where + message;
    }
  }

  private final List<Problem> problems;

  public LabelledFileException(List<Problem> problems) {
    super(problems.size() + " problem(s), the first: " + problems.getFirst());
    this.problems = List.copyOf(problems);
  }

  public List<Problem> problems() {
    return problems;
  }
}
