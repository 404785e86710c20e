package dev.asa.scoring;

import dev.asa.agreement.QualityGate;
import java.util.List;
import java.util.Objects;

/**
 * Everything {@link Scorer} concluded from the scores: the per-dimension results in the order of
 * the agreement, the composite, each gate and the determination.
 *
 * @param gatesPassed whether the gates passed under {@code gateLogic} (true when there are none)
 */
public record Scorecard(
    List<DimensionResult> dimensions,
    CompositeResult composite,
    List<GateResult> gates,
    QualityGate.Logic gateLogic,
    boolean gatesPassed,
    Determination determination) {

  public Scorecard {
    dimensions = List.copyOf(dimensions);
    Objects.requireNonNull(composite, "composite");
    gates = List.copyOf(gates);
    Objects.requireNonNull(gateLogic, "gateLogic");
    Objects.requireNonNull(determination, "determination");
  }

  /** This scorecard with another determination, as when a shadow gate overrides the scores. */
  public Scorecard withDetermination(Determination overriding) {
    return new Scorecard(dimensions, composite, gates, gateLogic, gatesPassed, overriding);
  }
}
