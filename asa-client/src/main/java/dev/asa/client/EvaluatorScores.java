package dev.asa.client;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.asa.json.Json;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * An evaluator's scores for one delivery (an {@code evaluator_result}): a score from 0 to 100 and
 * its evidence for each dimension that needs judgement, the checks its gates name (such as {@code
 * all_tests_pass}), and optionally the evaluator's confidence and model. The server measures
 * format, structure, timeliness and the series guarantee itself, and refuses a report of those.
 *
 * <pre>{@code
 * EvaluatorScores scores = EvaluatorScores.builder()
 *     .score("accuracy", 80, "3 of 3 spot-checked claims hold")
 *     .score("completeness", 70, "covers the main results")
 *     .confidence(0.85)
 *     .build();
 * }</pre>
 *
 * <p>Immutable; the builder refuses what the server would refuse anyway (a score outside 0-100, a
 * dimension scored twice, a confidence outside 0-1) at the line that wrote it.
 */
public final class EvaluatorScores {

  /**
   * One dimension's score.
   *
   * @param name the dimension, e.g. {@code accuracy}
   * @param score 0 to 100
   * @param evidence why this score, for the parties to read
   */
  public record Score(String name, BigDecimal score, String evidence) {
    /** Checks that nothing is null. */
    public Score {
      Objects.requireNonNull(name, "name");
      Objects.requireNonNull(score, "score");
      Objects.requireNonNull(evidence, "evidence");
    }
  }

  private final List<Score> scores;
  private final Map<String, Boolean> checks;
  private final Optional<BigDecimal> confidence;
  private final Optional<String> model;

  private EvaluatorScores(
      List<Score> scores,
      Map<String, Boolean> checks,
      Optional<BigDecimal> confidence,
      Optional<String> model) {
    this.scores = List.copyOf(scores);
    this.checks = Collections.unmodifiableMap(new LinkedHashMap<>(checks));
    this.confidence = confidence;
    this.model = model;
  }

  /**
   * Starts a set of scores.
   *
   * @return an empty builder
   */
  public static Builder builder() {
    return new Builder();
  }

  /**
   * The scores, in the order they were given.
   *
   * @return one entry per dimension
   */
  public List<Score> scores() {
    return scores;
  }

  /**
   * The checks reported, in the order they were given.
   *
   * @return each check's name and whether it holds
   */
  public Map<String, Boolean> checks() {
    return checks;
  }

  /**
   * The evaluator's stated confidence.
   *
   * @return 0 to 1, or empty when not stated
   */
  public Optional<BigDecimal> confidence() {
    return confidence;
  }

  /**
   * The model that judged.
   *
   * @return its name, or empty when not stated
   */
  public Optional<String> model() {
    return model;
  }

  /**
   * The {@code evaluator_result} as the server reads it: {@code {dimensions: [{name, score,
   * evidence}], checks?: {name: bool}, confidence?, model?}}.
   *
   * @return a new tree, free to change
   */
  public ObjectNode toJson() {
    ObjectNode out = Json.object();
    ArrayNode dimensions = out.putArray("dimensions");
    for (Score s : scores) {
      dimensions
          .addObject()
          .put("name", s.name())
          .put("score", s.score())
          .put("evidence", s.evidence());
    }
    if (!checks.isEmpty()) {
      ObjectNode c = out.putObject("checks");
      checks.forEach(c::put);
    }
    confidence.ifPresent(c -> out.put("confidence", c));
    model.ifPresent(m -> out.put("model", m));
    return out;
  }

  @Override
  public String toString() {
    return "EvaluatorScores" + toJson();
  }

  /** Collects scores; {@link #build()} makes the immutable set. Not thread-safe. */
  public static final class Builder {
    private final List<Score> scores = new ArrayList<>();
    private final Set<String> names = new HashSet<>();
    private final Map<String, Boolean> checks = new LinkedHashMap<>();
    private Optional<BigDecimal> confidence = Optional.empty();
    private Optional<String> model = Optional.empty();

    private Builder() {}

    /**
     * The shortest decimal of {@code value} (80, 80.5, 0.85), as JCS writes it: the server refuses
     * a number written otherwise, since the signed hash would cover another value.
     */
    private static BigDecimal decimal(double value) {
      return value == Math.rint(value)
          ? BigDecimal.valueOf((long) value)
          : BigDecimal.valueOf(value);
    }

    /**
     * Scores one dimension.
     *
     * @param name the dimension, as the agreement's criteria name it
     * @param score 0 to 100; a boolean dimension takes 100 for true and 0 for false
     * @param evidence why this score
     * @return this builder
     * @throws IllegalArgumentException if the score is outside 0-100 or the dimension was scored
     *     already
     */
    public Builder score(String name, double score, String evidence) {
      Objects.requireNonNull(name, "name");
      Objects.requireNonNull(evidence, "evidence");
      if (!(score >= 0 && score <= 100)) {
        throw new IllegalArgumentException(
            "the score of '" + name + "' must be between 0 and 100; got " + score);
      }
      if (!names.add(name)) {
        throw new IllegalArgumentException(
            "'" + name + "' is scored twice; give each dimension one score");
      }
      scores.add(new Score(name, decimal(score), evidence));
      return this;
    }

    /**
     * Reports a check that a quality gate names, e.g. {@code all_tests_pass} or {@code
     * no_critical_security_vulnerabilities}.
     *
     * @param name the check, as the agreement's gates name it
     * @param holds whether it holds; a check reported false fails its gate
     * @return this builder
     * @throws IllegalArgumentException if the check was reported already
     */
    public Builder check(String name, boolean holds) {
      Objects.requireNonNull(name, "name");
      if (checks.putIfAbsent(name, holds) != null) {
        throw new IllegalArgumentException(
            "the check '" + name + "' is reported twice; give each check one answer");
      }
      return this;
    }

    /**
     * The evaluator's confidence in its scores.
     *
     * @param confidence 0 to 1
     * @return this builder
     * @throws IllegalArgumentException if it is outside 0-1
     */
    public Builder confidence(double confidence) {
      if (!(confidence >= 0 && confidence <= 1)) {
        throw new IllegalArgumentException(
            "a confidence is between 0 and 1 (0.85, not 85); got " + confidence);
      }
      this.confidence = Optional.of(decimal(confidence));
      return this;
    }

    /**
     * The model that judged, for the record.
     *
     * @param model e.g. {@code judge-model-x}
     * @return this builder
     */
    public Builder model(String model) {
      this.model = Optional.of(Objects.requireNonNull(model, "model"));
      return this;
    }

    /**
     * The scores given so far.
     *
     * @return an immutable set of scores
     * @throws IllegalStateException if no dimension was scored
     */
    public EvaluatorScores build() {
      if (scores.isEmpty()) {
        throw new IllegalStateException(
            "no dimension is scored; call score(name, score, evidence) for each dimension that"
                + " needs judgement");
      }
      return new EvaluatorScores(scores, checks, confidence, model);
    }
  }
}
