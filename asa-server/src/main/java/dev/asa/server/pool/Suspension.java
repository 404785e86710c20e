package dev.asa.server.pool;

import java.util.Objects;

/**
 * The operator's {@code POST /evaluators/{key}/suspend}: why the evaluator may not be assigned. The
 * reason is shown to the evaluator and to anyone reading the registry, so that a suspension is
 * never a silent one.
 */
public record Suspension(String reason) {
  /** Longest reason, as for a ruling's. */
  public static final int MAX_REASON = 2000;

  public Suspension {
    Objects.requireNonNull(reason, "reason");
  }
}
