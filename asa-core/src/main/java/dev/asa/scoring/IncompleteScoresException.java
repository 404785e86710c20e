package dev.asa.scoring;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * Scoring was asked for while some dimension that carries weight has no score. The composite would
 * be a guess, so there is none; callers answer with a client error (422) naming the dimensions.
 */
public final class IncompleteScoresException extends RuntimeException {

  private final Map<String, String> missing;

  /**
   * @param missing each unscored dimension with the reason it has no score, in agreement order
   */
  public IncompleteScoresException(Map<String, String> missing) {
    super(describe(missing));
    this.missing = Collections.unmodifiableMap(new LinkedHashMap<>(missing));
  }

  /** Dimension name to the reason it has no score, in the order of the agreement. */
  public Map<String, String> missing() {
    return missing;
  }

  private static String describe(Map<String, String> missing) {
    return "cannot compute the composite: "
        + (missing.size() == 1 ? "dimension " : "dimensions ")
        + missing.entrySet().stream()
            .map(e -> e.getKey() + " (" + e.getValue() + ")")
            .collect(Collectors.joining(", "))
        + (missing.size() == 1 ? " has" : " have")
        + " weight but no score";
  }
}
