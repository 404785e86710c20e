package dev.asa.integrity;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.asa.agreement.InvalidDocumentException;
import dev.asa.agreement.StrictJson;
import dev.asa.json.Json;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.TreeMap;

/**
 * An evaluator's calibration (whitepaper 6.3): per dimension, how far its scores lie from the known
 * scores of canary tasks, and from the consensus of the other evaluators where several scored the
 * same deliverable. The two are kept apart because they mean different things: a known score is
 * ground truth, a consensus only tells who disagrees with the majority.
 *
 * @param fromKnown per dimension, the deviation from canaries' known scores
 * @param fromConsensus per dimension, the deviation from the median of the other evaluators
 */
public record Calibration(Map<String, Deviation> fromKnown, Map<String, Deviation> fromConsensus) {

  /** No sample yet. */
  public static final Calibration EMPTY = new Calibration(Map.of(), Map.of());

  /**
   * A consensus needs at least this many other evaluators of the same deliverable: against one
   * other, a disagreement says nothing about which of the two is off.
   */
  public static final int MIN_OTHERS_FOR_CONSENSUS = 2;

  public Calibration {
    fromKnown = Collections.unmodifiableSortedMap(new TreeMap<>(fromKnown));
    fromConsensus = Collections.unmodifiableSortedMap(new TreeMap<>(fromConsensus));
  }

  /** The two calibrations together (exact, in any order). */
  public Calibration plus(Calibration other) {
    return new Calibration(
        merge(fromKnown, other.fromKnown), merge(fromConsensus, other.fromConsensus));
  }

  /** This calibration with one more comparison against a canary's known score. */
  public Calibration plusKnown(String dimension, Deviation deviation) {
    return new Calibration(merge(fromKnown, Map.of(dimension, deviation)), fromConsensus);
  }

  private static Map<String, Deviation> merge(Map<String, Deviation> a, Map<String, Deviation> b) {
    Map<String, Deviation> out = new HashMap<>(a);
    b.forEach((k, v) -> out.merge(k, v, Deviation::plus));
    return out;
  }

  /** Per dimension, known and consensus samples pooled, by dimension name. */
  public Map<String, Deviation> byDimension() {
    return new TreeMap<>(merge(fromKnown, fromConsensus));
  }

  /** Every sample of every dimension pooled: what qualification bounds. */
  public Deviation overall() {
    Deviation d = Deviation.NONE;
    for (Deviation x : fromKnown.values()) {
      d = d.plus(x);
    }
    for (Deviation x : fromConsensus.values()) {
      d = d.plus(x);
    }
    return d;
  }

  /**
   * How many scores of real work were compared with other evaluators' scores of the same
   * deliverable: the real work judged in agreement with others that qualification asks for beside
   * canaries.
   */
  public int consensusSamples() {
    return fromConsensus.values().stream().mapToInt(Deviation::samples).sum();
  }

  /** The dimension with the largest mean absolute deviation, if any was sampled. */
  public Optional<Map.Entry<String, BigDecimal>> worstDimension() {
    Map.Entry<String, BigDecimal> worst = null;
    for (var e : byDimension().entrySet()) {
      BigDecimal m = e.getValue().meanAbsolute().orElse(null);
      if (m != null && (worst == null || m.compareTo(worst.getValue()) > 0)) {
        worst = Map.entry(e.getKey(), m);
      }
    }
    return Optional.ofNullable(worst);
  }

  /** One evaluator's score of one dimension of one deliverable. */
  public record Score(String evaluator, String deliverable, String dimension, BigDecimal score) {
    public Score {
      Objects.requireNonNull(evaluator, "evaluator");
      Objects.requireNonNull(deliverable, "deliverable");
      Objects.requireNonNull(dimension, "dimension");
      Objects.requireNonNull(score, "score");
    }
  }

  /**
   * Every evaluator's calibration over a set of scores: a score of a dimension whose known score is
   * given (a canary) is compared with it; any other is compared with the median of the other
   * evaluators' scores of the same deliverable and dimension when there are at least {@link
   * #MIN_OTHERS_FOR_CONSENSUS}, and otherwise not at all.
   *
   * @param known per deliverable id, the known score of each dimension (canaries only)
   * @throws IllegalArgumentException when one evaluator scored the same dimension of the same
   *     deliverable twice (one of the two would silently count double)
   */
  public static Map<String, Calibration> compute(
      List<Score> scores, Map<String, Map<String, BigDecimal>> known) {
    Map<List<String>, List<Score>> byItem = new LinkedHashMap<>();
    for (Score s : scores) {
      List<Score> same =
          byItem.computeIfAbsent(List.of(s.deliverable(), s.dimension()), k -> new ArrayList<>());
      if (same.stream().anyMatch(o -> o.evaluator().equals(s.evaluator()))) {
        throw new IllegalArgumentException(
            "evaluator "
                + s.evaluator()
                + " scored "
                + s.dimension()
                + " of "
                + s.deliverable()
                + " twice; give each evaluator's score once");
      }
      same.add(s);
    }
    Map<String, Calibration> out = new TreeMap<>();
    for (List<Score> same : byItem.values()) {
      for (Score s : same) {
        BigDecimal knownScore = known.getOrDefault(s.deliverable(), Map.of()).get(s.dimension());
        Calibration c = out.getOrDefault(s.evaluator(), EMPTY);
        if (knownScore != null) {
          c = c.plusKnown(s.dimension(), Deviation.of(s.score(), knownScore));
        } else {
          List<BigDecimal> others =
              same.stream()
                  .filter(o -> !o.evaluator().equals(s.evaluator()))
                  .map(Score::score)
                  .toList();
          if (others.size() < MIN_OTHERS_FOR_CONSENSUS) {
            continue;
          }
          c =
              new Calibration(
                  c.fromKnown,
                  merge(
                      c.fromConsensus,
                      Map.of(s.dimension(), Deviation.of(s.score(), median(others)))));
        }
        out.put(s.evaluator(), c);
      }
    }
    return out;
  }

  /** The median; of an even count, the mean of the middle two (exact: halving terminates). */
  static BigDecimal median(List<BigDecimal> values) {
    List<BigDecimal> sorted = values.stream().sorted().toList();
    int n = sorted.size();
    if (n == 0) {
      throw new IllegalArgumentException("the median of nothing");
    }
    return n % 2 == 1
        ? sorted.get(n / 2)
        : sorted.get(n / 2 - 1).add(sorted.get(n / 2)).divide(BigDecimal.valueOf(2));
  }

  /**
   * {@code {"overall": ..., "dimensions": {dim: {...}}, "from_known": ..., "from_consensus": ...}}.
   */
  public ObjectNode toJson() {
    ObjectNode o = Json.object();
    o.set("overall", overall().toJson());
    ObjectNode dims = o.putObject("dimensions");
    byDimension().forEach((k, v) -> dims.set(k, v.toJson()));
    ObjectNode known = o.putObject("from_known");
    fromKnown.forEach((k, v) -> known.set(k, v.toJson()));
    ObjectNode consensus = o.putObject("from_consensus");
    fromConsensus.forEach((k, v) -> consensus.set(k, v.toJson()));
    return o;
  }

  /**
   * The exact form a store keeps: {@code {"from_known": {dimension: deviation}, "from_consensus":
   * {...}}}, each deviation in {@link Deviation#toStored} form (sums, not means), so that a stored
   * calibration plus new samples is exactly the calibration of all of them.
   */
  public ObjectNode toStored() {
    ObjectNode o = Json.object();
    ObjectNode known = o.putObject("from_known");
    fromKnown.forEach((k, v) -> known.set(k, v.toStored()));
    ObjectNode consensus = o.putObject("from_consensus");
    fromConsensus.forEach((k, v) -> consensus.set(k, v.toStored()));
    return o;
  }

  /**
   * Reads what {@link #toStored} wrote.
   *
   * @throws InvalidDocumentException when it is not such a form
   */
  public static Calibration fromStored(JsonNode stored) {
    StrictJson json = StrictJson.failFast();
    ObjectNode o = json.object(stored, "", "a stored calibration");
    json.allowOnly(o, "", "from_known", "from_consensus");
    return new Calibration(
        deviations(o.get("from_known"), "/from_known"),
        deviations(o.get("from_consensus"), "/from_consensus"));
  }

  private static Map<String, Deviation> deviations(JsonNode node, String at) {
    if (node == null) {
      throw new InvalidDocumentException(at, "is missing: expected {dimension: deviation}");
    }
    ObjectNode o = StrictJson.failFast().object(node, at, "deviations by dimension");
    Map<String, Deviation> out = new TreeMap<>();
    for (var e : o.properties()) {
      out.put(e.getKey(), Deviation.fromStored(e.getValue(), StrictJson.child(at, e.getKey())));
    }
    return out;
  }
}
