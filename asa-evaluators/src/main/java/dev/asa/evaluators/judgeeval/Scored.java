package dev.asa.evaluators.judgeeval;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * One answer as the judge scored it: the composite the pick rests on, and each dimension it scored
 * on the way there, so that a calibration can also say which dimension agrees with people and which
 * misleads.
 *
 * @param composite the score the pick or the ranking uses, higher meaning better
 * @param dimensions each dimension the judge gave a score, by name, in the judge's order; a
 *     dimension it could not judge is absent
 */
public record Scored(double composite, Map<String, Double> dimensions) {

  public Scored {
    dimensions = Collections.unmodifiableMap(new LinkedHashMap<>(dimensions));
  }

  /** A judge that gives one number and no dimensions. */
  public static Scored composite(double composite) {
    return new Scored(composite, Map.of());
  }
}
