package dev.asa.client;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.asa.client.VerificationView.Target;
import java.math.BigDecimal;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * A service template ({@code GET /templates/{type}}, and each entry of {@code GET /templates}): the
 * defaults an agreement of its type starts from, and the quality terms they set. The defaults are a
 * partial agreement document (a new agreement names the template and leaves out what it takes from
 * it); every member of theirs this type does not name is in {@link #defaults()}.
 *
 * @param type the service type, e.g. {@code general}
 * @param version the template's version
 * @param title its title
 * @param description what it is for
 * @param deliverableFormat the deliverable's format the defaults set ({@code
 *     service.deliverable_format}), e.g. {@code markdown}
 * @param dimensions the quality dimensions, in the criteria's order; empty when the defaults set
 *     none
 * @param compositeThreshold the composite score that passes, when set
 * @param compositeMethod how the dimensions are combined, e.g. {@code weighted_average}; empty when
 *     not stated (the criteria then average by weight)
 * @param gates the quality gates, in the criteria's order
 * @param verification the verification terms, when set
 * @param releaseTiers the tiers of the graduated release, highest first as written; empty when the
 *     defaults set none
 * @param defaults the defaults, a partial agreement document, a copy
 * @param json the whole template, a copy
 */
public record TemplateView(
    String type,
    String version,
    String title,
    String description,
    Optional<String> deliverableFormat,
    List<Dimension> dimensions,
    Optional<BigDecimal> compositeThreshold,
    Optional<String> compositeMethod,
    List<Gate> gates,
    Optional<Verification> verification,
    List<Tier> releaseTiers,
    ObjectNode defaults,
    ObjectNode json) {

  private static final String WHAT = "a template";

  /** Checks that nothing is null and keeps private copies. */
  public TemplateView {
    Objects.requireNonNull(type, "type");
    Objects.requireNonNull(version, "version");
    Objects.requireNonNull(title, "title");
    Objects.requireNonNull(description, "description");
    Objects.requireNonNull(deliverableFormat, "deliverableFormat");
    dimensions = List.copyOf(dimensions);
    Objects.requireNonNull(compositeThreshold, "compositeThreshold");
    Objects.requireNonNull(compositeMethod, "compositeMethod");
    gates = List.copyOf(gates);
    Objects.requireNonNull(verification, "verification");
    releaseTiers = List.copyOf(releaseTiers);
    defaults = Objects.requireNonNull(defaults, "defaults").deepCopy();
    json = Objects.requireNonNull(json, "json").deepCopy();
  }

  /**
   * A service level objective ({@code slo}, {@code shadow_slo}): an operator and its target.
   *
   * @param operator {@code gte}, {@code lte}, {@code gt}, {@code lt}, {@code eq}, {@code neq} or
   *     {@code between}
   * @param target what the operator compares with: a number, a flag, a range (for {@code between})
   *     or a text
   */
  public record Slo(String operator, Target target) {

    /** Checks that nothing is null. */
    public Slo {
      Objects.requireNonNull(operator, "operator");
      Objects.requireNonNull(target, "target");
    }

    static Optional<Slo> from(JsonNode dimension, String name, String what) {
      JsonNode slo = dimension.path(name);
      if (slo.isMissingNode() || slo.isNull()) {
        return Optional.empty();
      }
      String of = what + "'s " + name;
      String operator = Members.text(slo, "operator", of);
      Target target =
          Target.from(slo.path("value"))
              .orElseThrow(() ->
                  new IllegalArgumentException(
                      of
                          + " needs member 'value' as a number, true or false, two numbers or a"
                          + " string, but it is "
                          + (slo.has("value") ? slo.get("value").toString() : "missing")));
      return Optional.of(new Slo(operator, target));
    }
  }

  /**
   * One quality dimension of the defaults.
   *
   * @param name the dimension, e.g. {@code accuracy}
   * @param weight its weight in the composite, when set
   * @param metric how it is measured, e.g. {@code percentage} or {@code boolean}, when set
   * @param slo its objective, when set
   * @param shadow its shadow metric, when it has one
   */
  public record Dimension(
      String name,
      Optional<BigDecimal> weight,
      Optional<String> metric,
      Optional<Slo> slo,
      Optional<ShadowMetric> shadow) {

    /** Checks that nothing is null. */
    public Dimension {
      Objects.requireNonNull(name, "name");
      Objects.requireNonNull(weight, "weight");
      Objects.requireNonNull(metric, "metric");
      Objects.requireNonNull(slo, "slo");
      Objects.requireNonNull(shadow, "shadow");
    }

    static Dimension from(JsonNode d) {
      String what = "a dimension of " + WHAT;
      return new Dimension(
          Members.text(d, "name", what),
          Members.optionalDecimal(d, "weight"),
          Members.optionalText(d, "metric"),
          Slo.from(d, "slo", what),
          Members.optionalText(d, "shadow_metric")
              .map(metric -> new ShadowMetric(metric, Slo.from(d, "shadow_slo", what))));
    }
  }

  /**
   * A dimension's shadow metric ({@code shadow_metric} and {@code shadow_slo}): measured beside the
   * score, it may hold the verdict back but never raises it.
   *
   * @param name the metric, e.g. {@code hallucination_rate}
   * @param slo its objective, when set
   */
  public record ShadowMetric(String name, Optional<Slo> slo) {

    /** Checks that nothing is null. */
    public ShadowMetric {
      Objects.requireNonNull(name, "name");
      Objects.requireNonNull(slo, "slo");
    }
  }

  /**
   * A quality gate ({@code quality_gates}).
   *
   * @param condition the gate's condition, e.g. {@code accuracy_gte_60}
   * @param type its kind, e.g. {@code threshold}
   */
  public record Gate(String condition, String type) {

    /** Checks that nothing is null. */
    public Gate {
      Objects.requireNonNull(condition, "condition");
      Objects.requireNonNull(type, "type");
    }

    static Gate from(JsonNode g) {
      String what = "a quality gate of " + WHAT;
      return new Gate(Members.text(g, "condition", what), Members.text(g, "type", what));
    }
  }

  /**
   * The verification terms of the defaults ({@code verification}).
   *
   * @param strategy e.g. {@code optimistic}
   * @param challengeWindowSeconds how long a verdict may be challenged, when set
   */
  public record Verification(String strategy, Optional<Long> challengeWindowSeconds) {

    /** Checks that nothing is null. */
    public Verification {
      Objects.requireNonNull(strategy, "strategy");
      Objects.requireNonNull(challengeWindowSeconds, "challengeWindowSeconds");
    }

    static Verification from(JsonNode v) {
      return new Verification(
          Members.text(v, "strategy", "the verification terms of " + WHAT),
          Members.optionalInteger(v, "challenge_window_seconds"));
    }
  }

  /**
   * One tier of the graduated release ({@code escrow.payment.graduated_release.tiers}): a composite
   * score at or above a bound, or below one, releases a share of the payment.
   *
   * @param compositeScoreGte the score at or above which the tier applies, for a tier with a lower
   *     bound
   * @param compositeScoreLt the score below which the tier applies, for a tier with an upper bound
   * @param releasePercent the share released to the provider, 0 to 100
   */
  public record Tier(
      Optional<BigDecimal> compositeScoreGte,
      Optional<BigDecimal> compositeScoreLt,
      BigDecimal releasePercent) {

    /** Checks that nothing is null. */
    public Tier {
      Objects.requireNonNull(compositeScoreGte, "compositeScoreGte");
      Objects.requireNonNull(compositeScoreLt, "compositeScoreLt");
      Objects.requireNonNull(releasePercent, "releasePercent");
    }

    static Tier from(JsonNode t) {
      return new Tier(
          Members.optionalDecimal(t, "composite_score_gte"),
          Members.optionalDecimal(t, "composite_score_lt"),
          Members.decimal(t, "release_percent", "a release tier of " + WHAT));
    }
  }

  /**
   * Reads a template.
   *
   * @param answer the body of {@code GET /templates/{type}}, or one entry of {@code GET /templates}
   * @return the view
   * @throws IllegalArgumentException if a member named above is missing or of the wrong kind; the
   *     message names it
   */
  public static TemplateView from(JsonNode answer) {
    ObjectNode o = Members.object(answer, WHAT);
    ObjectNode defaults = Members.child(o, "defaults", WHAT);
    JsonNode criteria = defaults.path("quality_criteria");
    String what = WHAT + "'s quality criteria";
    return new TemplateView(
        Members.text(o, "type", WHAT),
        Members.text(o, "version", WHAT),
        Members.text(o, "title", WHAT),
        Members.text(o, "description", WHAT),
        Members.optionalText(defaults.path("service"), "deliverable_format"),
        Members.objects(criteria, "dimensions", what).stream().map(Dimension::from).toList(),
        Members.optionalDecimal(criteria, "composite_threshold"),
        Members.optionalText(criteria, "composite_method"),
        Members.objects(criteria, "quality_gates", what).stream().map(Gate::from).toList(),
        Members.optionalChild(defaults, "verification").map(Verification::from),
        Members.objects(
                defaults.path("escrow").path("payment").path("graduated_release"),
                "tiers",
                WHAT + "'s graduated release")
            .stream()
            .map(Tier::from)
            .toList(),
        defaults,
        o);
  }

  /**
   * Reads the list of templates.
   *
   * @param answer the body of {@code GET /templates}: {@code {"templates": [...]}}
   * @return its templates, in the server's order
   * @throws IllegalArgumentException if the answer has no {@code templates} array or a template
   *     lacks a member
   */
  public static List<TemplateView> listFrom(JsonNode answer) {
    ObjectNode o = Members.object(answer, "the list of templates");
    return Members.requiredObjects(o, "templates", "the list of templates").stream()
        .map(TemplateView::from)
        .toList();
  }

  /**
   * The defaults, a copy: change them freely.
   *
   * @return the {@code defaults} member
   */
  @Override
  public ObjectNode defaults() {
    return defaults.deepCopy();
  }

  /**
   * The whole template, a copy: change it freely.
   *
   * @return the template as received
   */
  @Override
  public ObjectNode json() {
    return json.deepCopy();
  }
}
