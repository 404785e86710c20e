package dev.asa.shadow;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.asa.json.Json;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.Objects;
import java.util.Optional;

/**
 * The report's {@code hardening} block (Shadow Score Spec 2.0.0): {@code {cycles_completed,
 * max_cycles, initial_shadow_score, final_shadow_score, hardening_velocity, max_reveal}}.
 *
 * @param initialShadowScore the reported score of the first delivery
 * @param finalShadowScore the reported score that stands (the better delivery, see {@link
 *     HardeningCycle})
 * @param maxReveal the most the provider was shown: always {@code message} here (failure messages,
 *     never names, categories or assertions)
 */
public record Hardening(
    int cyclesCompleted,
    int maxCycles,
    BigDecimal initialShadowScore,
    BigDecimal finalShadowScore,
    String maxReveal) {

  public static final String REVEAL_MESSAGE = "message";

  public Hardening {
    if (maxCycles < 1 || cyclesCompleted < 0 || cyclesCompleted > maxCycles) {
      throw new IllegalArgumentException(
          "cycles must be 0 to maxCycles (at least 1), not "
              + cyclesCompleted
              + " of "
              + maxCycles);
    }
    Objects.requireNonNull(initialShadowScore, "initialShadowScore");
    Objects.requireNonNull(finalShadowScore, "finalShadowScore");
    Objects.requireNonNull(maxReveal, "maxReveal");
  }

  /**
   * Points of score recovered per cycle, (initial - final) / cycles_completed, half-even to one
   * decimal; empty when no cycle ran (NOTES.md: omitted, not 0).
   */
  public Optional<BigDecimal> velocity() {
    if (cyclesCompleted == 0) {
      return Optional.empty();
    }
    return Optional.of(
        initialShadowScore
            .subtract(finalShadowScore)
            .divide(BigDecimal.valueOf(cyclesCompleted), 1, RoundingMode.HALF_EVEN));
  }

  public ObjectNode toJson() {
    ObjectNode o =
        Json.object()
            .put("cycles_completed", cyclesCompleted)
            .put("max_cycles", maxCycles)
            .put("initial_shadow_score", initialShadowScore)
            .put("final_shadow_score", finalShadowScore);
    velocity().ifPresent(v -> o.put("hardening_velocity", v));
    o.put("max_reveal", maxReveal);
    return o;
  }
}
