package dev.asa.evaluators;

import dev.asa.agreement.Dimension;
import dev.asa.agreement.MetricType;
import dev.asa.agreement.QualityCriteria;
import dev.asa.agreement.Service;
import dev.asa.scoring.CheckResult;
import dev.asa.scoring.DimensionInput;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Structural verification (whitepaper 5.3): deterministic checks that take milliseconds and cost
 * nothing, and cannot judge content.
 *
 * <p>Checks, each run only when the agreement asks for what it tests:
 *
 * <ul>
 *   <li>{@code format_valid}, always: the content is what its format says (see {@link Formats});
 *   <li>{@code schema_valid}, when the criteria carry a {@code deliverable_schema};
 *   <li>{@code within_size_limit}, when the constraints set {@code max_tokens};
 *   <li>{@code required_sections_present}, when the criteria list required sections.
 * </ul>
 *
 * <p>Of the dimensions, it scores only the two it can judge honestly, {@code format_compliance}
 * (the share of its checks that passed) and {@code timeliness} (delivered by the deadline), both
 * with confidence 1. Every other dimension is handed back as not evaluated, with the reason, so
 * that scoring stops rather than guesses if no other evaluator scores it.
 */
public final class StructuralEvaluator implements Evaluator {

  public static final String FORMAT_VALID = "format_valid";
  public static final String SCHEMA_VALID = "schema_valid";
  public static final String WITHIN_SIZE_LIMIT = "within_size_limit";
  public static final String REQUIRED_SECTIONS_PRESENT = "required_sections_present";

  public static final String FORMAT_COMPLIANCE = "format_compliance";
  public static final String TIMELINESS = "timeliness";

  /** The usual rule of thumb for English text and code: about four characters per token. */
  static final int CHARACTERS_PER_TOKEN = 4;

  private static final BigDecimal HUNDRED = BigDecimal.valueOf(100);

  @Override
  public String id() {
    return "structural";
  }

  @Override
  public String type() {
    return "structural";
  }

  @Override
  public Evaluation evaluate(EvaluationTask task) {
    StructuralReport report =
        evaluate(task.deliverable(), task.criteria(), task.constraints(), task.deadline());
    return new Evaluation(
        id(), type(), null, report.dimensions(), report.checks(), Evaluation.Usage.FREE);
  }

  /**
   * @param constraints the service constraints; null for none
   * @param deadline when the deliverable was due; null when there is no deadline
   */
  public StructuralReport evaluate(
      Deliverable deliverable,
      QualityCriteria criteria,
      Service.Constraints constraints,
      Instant deadline) {
    Objects.requireNonNull(deliverable, "deliverable");
    Objects.requireNonNull(criteria, "criteria");
    Service.Constraints limits = constraints == null ? Service.Constraints.NONE : constraints;
    String content = deliverable.content();

    Map<String, CheckResult> checks = new LinkedHashMap<>();
    checks.put(FORMAT_VALID, Formats.check(content, deliverable.format()));
    if (criteria.deliverableSchema() != null) {
      checks.put(SCHEMA_VALID, DeliverableSchema.check(content, criteria.deliverableSchema()));
    }
    if (limits.maxTokens() != null) {
      checks.put(WITHIN_SIZE_LIMIT, sizeCheck(content, limits.maxTokens()));
    }
    if (!criteria.requiredSections().isEmpty()) {
      checks.put(
          REQUIRED_SECTIONS_PRESENT,
          Sections.check(content, deliverable.format(), criteria.requiredSections()));
    }

    Map<String, DimensionInput> dimensions = new LinkedHashMap<>();
    for (Dimension dimension : criteria.dimensions()) {
      String name = dimension.name();
      DimensionInput input =
          switch (name) {
            case FORMAT_COMPLIANCE -> formatCompliance(dimension, checks);
            case TIMELINESS -> timeliness(dimension, deliverable.deliveredAt(), deadline);
            default -> cannotJudge(name);
          };
      dimensions.put(name, input);
    }
    return new StructuralReport(checks, dimensions);
  }

  /** Estimated tokens: characters / 4, rounded up. An estimate, and the evidence says so. */
  static long estimatedTokens(String content) {
    long characters = Text.characters(content);
    return (characters + CHARACTERS_PER_TOKEN - 1) / CHARACTERS_PER_TOKEN;
  }

  private static CheckResult sizeCheck(String content, long maxTokens) {
    long tokens = estimatedTokens(content);
    String estimate =
        "estimated "
            + Text.plural(tokens, "token", "tokens")
            + " ("
            + Text.plural(Text.characters(content), "character", "characters")
            + " / "
            + CHARACTERS_PER_TOKEN
            + ", rounded up)";
    if (tokens <= maxTokens) {
      return CheckResult.passed(estimate + ", within the limit of " + Text.count(maxTokens));
    }
    return CheckResult.failed(
        estimate
            + ", over the limit of "
            + Text.count(maxTokens)
            + " by "
            + Text.count(tokens - maxTokens));
  }

  private static DimensionInput formatCompliance(
      Dimension dimension, Map<String, CheckResult> checks) {
    List<String> failed =
        checks.entrySet().stream()
            .filter(e -> !e.getValue().passed())
            .map(Map.Entry::getKey)
            .toList();
    int run = checks.size();
    int passed = run - failed.size();
    String evidence =
        failed.isEmpty()
            ? "all " + run + " structural checks passed: " + String.join(", ", checks.keySet())
            : passed
                + " of "
                + run
                + " structural checks passed; failed: "
                + String.join(", ", failed);
    BigDecimal score =
        switch (dimension.metric()) {
          // A boolean cannot say "two out of three"; only a clean sheet is true.
          case BOOLEAN -> failed.isEmpty() ? HUNDRED : BigDecimal.ZERO;
          case PERCENTAGE, SCORE ->
              HUNDRED
                  .multiply(BigDecimal.valueOf(passed))
                  .divide(BigDecimal.valueOf(run), 3, RoundingMode.HALF_EVEN);
          case COUNT, DURATION_SECONDS -> null;
        };
    if (score == null) {
      return metricUnfit(dimension);
    }
    return DimensionInput.structural(FORMAT_COMPLIANCE, score, evidence);
  }

  private static DimensionInput timeliness(
      Dimension dimension, Instant deliveredAt, Instant deadline) {
    if (dimension.metric() == MetricType.COUNT
        || dimension.metric() == MetricType.DURATION_SECONDS) {
      return metricUnfit(dimension);
    }
    if (deadline == null) {
      return DimensionInput.structural(
          TIMELINESS, HUNDRED, "no deadline applies, so the delivery is on time");
    }
    int order = deliveredAt.compareTo(deadline);
    if (order == 0) {
      return DimensionInput.structural(
          TIMELINESS, HUNDRED, "delivered exactly at the deadline (" + deadline + ")");
    }
    if (order < 0) {
      return DimensionInput.structural(
          TIMELINESS,
          HUNDRED,
          "delivered "
              + seconds(Duration.between(deliveredAt, deadline))
              + " before the deadline ("
              + deadline
              + ")");
    }
    return DimensionInput.structural(
        TIMELINESS,
        BigDecimal.ZERO,
        "delivered "
            + seconds(Duration.between(deadline, deliveredAt))
            + " after the deadline ("
            + deadline
            + ")");
  }

  /** "847 seconds", "1 second", "0.25 seconds". */
  private static String seconds(Duration d) {
    BigDecimal s = BigDecimal.valueOf(d.getSeconds()).add(BigDecimal.valueOf(d.getNano(), 9));
    return Text.number(s) + (s.compareTo(BigDecimal.ONE) == 0 ? " second" : " seconds");
  }

  private static DimensionInput metricUnfit(Dimension dimension) {
    return DimensionInput.notEvaluated(
        dimension.name(),
        "the structural evaluator scores "
            + dimension.name()
            + " only as a boolean, percentage or score, not as a "
            + dimension.metric().wireName());
  }

  private static DimensionInput cannotJudge(String name) {
    return DimensionInput.notEvaluated(
        name,
        "the structural evaluator cannot judge "
            + name
            + "; a semantic evaluator or the assigned evaluator must score it");
  }
}
