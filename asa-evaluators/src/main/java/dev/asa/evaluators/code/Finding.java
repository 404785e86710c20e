package dev.asa.evaluators.code;

import java.util.Objects;

/**
 * One thing a check found, where it is.
 *
 * @param line 1-based line in {@code file}
 * @param detail what exactly, short enough for evidence
 */
public record Finding(Check check, String file, int line, String detail) {

  public Finding {
    Objects.requireNonNull(check, "check");
    Objects.requireNonNull(file, "file");
    Objects.requireNonNull(detail, "detail");
    line = Math.max(1, line);
  }

  /** {@code app.py:12 shell command built from strings (os.system(...))}. */
  public String describe() {
    return file + ":" + line + " " + check.label() + (detail.isEmpty() ? "" : " (" + detail + ")");
  }
}
