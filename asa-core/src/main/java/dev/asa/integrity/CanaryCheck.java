package dev.asa.integrity;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.asa.json.Json;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;

/**
 * How an evaluator did on one canary: it passes when it answered and every dimension with a known
 * score was scored within the canary's tolerance. A dimension it left unscored fails (an evaluator
 * that skips what it cannot fake is not judging), and an unanswered canary fails whole: an
 * evaluator that goes silent is as useless to the parties as one that judges wrongly.
 *
 * @param answered false when the evaluator let the deadline pass
 * @param dimensions one check per known dimension, by name (empty when unanswered)
 */
public record CanaryCheck(String canaryId, boolean answered, List<DimensionCheck> dimensions) {

  public CanaryCheck {
    Objects.requireNonNull(canaryId, "canaryId");
    dimensions = List.copyOf(dimensions);
    if (!answered && !dimensions.isEmpty()) {
      throw new IllegalArgumentException("an unanswered canary has no scores");
    }
  }

  /** One known dimension: its known score, the score given (null: not scored), the tolerance. */
  public record DimensionCheck(
      String dimension, BigDecimal known, BigDecimal score, BigDecimal tolerance) {
    public DimensionCheck {
      Objects.requireNonNull(dimension, "dimension");
      Objects.requireNonNull(known, "known");
      Objects.requireNonNull(tolerance, "tolerance");
    }

    public boolean scored() {
      return score != null;
    }

    /** score - known; null when not scored. */
    public BigDecimal deviation() {
      return score == null ? null : score.subtract(known);
    }

    public boolean within() {
      return score != null && deviation().abs().compareTo(tolerance) <= 0;
    }

    /** Why it failed, for a person; null when within. */
    public String problem() {
      if (score == null) {
        return dimension + ": not scored (known score " + known.toPlainString() + ")";
      }
      if (within()) {
        return null;
      }
      return dimension
          + ": scored "
          + score.toPlainString()
          + " against a known "
          + known.toPlainString()
          + " (off by "
          + deviation().abs().toPlainString()
          + "; tolerance "
          + tolerance.toPlainString()
          + ")";
    }
  }

  /**
   * Checks the scores an evaluator gave a canary (per dimension; dimensions without a known score
   * are ignored).
   */
  public static CanaryCheck of(Canary canary, Map<String, BigDecimal> scores) {
    List<DimensionCheck> checks = new ArrayList<>();
    canary
        .knownScores()
        .forEach((dim, known) ->
            checks.add(new DimensionCheck(dim, known, scores.get(dim), canary.tolerance())));
    return new CanaryCheck(canary.id(), true, checks);
  }

  /** The evaluator did not answer the canary in time. */
  public static CanaryCheck unanswered(Canary canary) {
    return new CanaryCheck(canary.id(), false, List.of());
  }

  public boolean passed() {
    return answered && dimensions.stream().allMatch(DimensionCheck::within);
  }

  /** Why it failed, one line per problem; empty when it passed. */
  public List<String> problems() {
    if (!answered) {
      return List.of("did not answer by the deadline");
    }
    return dimensions.stream().map(DimensionCheck::problem).filter(Objects::nonNull).toList();
  }

  /**
   * Per scored dimension, the deviation from the known score: what the evaluator's calibration
   * learns from this canary.
   */
  public Map<String, Deviation> deviations() {
    Map<String, Deviation> out = new TreeMap<>();
    for (DimensionCheck d : dimensions) {
      if (d.scored()) {
        out.put(d.dimension(), Deviation.of(d.score(), d.known()));
      }
    }
    return out;
  }

  /** For the evaluator's record and the agreement's evidence. */
  public ObjectNode toJson() {
    ObjectNode o = Json.object();
    o.put("canary_id", canaryId);
    o.put("answered", answered);
    o.put("passed", passed());
    ObjectNode dims = o.putObject("dimensions");
    for (DimensionCheck d : dimensions) {
      ObjectNode x = dims.putObject(d.dimension());
      x.put("known", d.known());
      if (d.scored()) {
        x.put("score", d.score());
        x.put("deviation", d.deviation());
      }
      x.put("within_tolerance", d.within());
    }
    if (!passed()) {
      ArrayNode p = o.putArray("problems");
      problems().forEach(p::add);
    }
    return o;
  }
}
