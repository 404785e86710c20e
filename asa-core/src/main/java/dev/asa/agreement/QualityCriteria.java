package dev.asa.agreement;

import com.fasterxml.jackson.databind.JsonNode;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * What "good" means for this agreement: the weighted dimensions, how they combine, the composite
 * threshold, hard gates, and the structural expectations of the deliverable (a JSON Schema for JSON
 * deliverables, required sections for documents).
 *
 * @param guarantee with {@code guarantee_type: probabilistic}, the promise about the provider's
 *     series of deliveries; null otherwise
 * @param tests the tests a code deliverable must pass ({@code tests}); null when none are agreed
 */
public record QualityCriteria(
    List<Dimension> dimensions,
    BigDecimal compositeThreshold,
    CompositeMethod compositeMethod,
    GuaranteeType guaranteeType,
    List<QualityGate> gates,
    QualityGate.Logic gateLogic,
    JsonNode deliverableSchema,
    List<String> requiredSections,
    SeriesGuarantee guarantee,
    CodeTests tests) {

  /** Criteria without agreed tests. */
  public QualityCriteria(
      List<Dimension> dimensions,
      BigDecimal compositeThreshold,
      CompositeMethod compositeMethod,
      GuaranteeType guaranteeType,
      List<QualityGate> gates,
      QualityGate.Logic gateLogic,
      JsonNode deliverableSchema,
      List<String> requiredSections,
      SeriesGuarantee guarantee) {
    this(
        dimensions,
        compositeThreshold,
        compositeMethod,
        guaranteeType,
        gates,
        gateLogic,
        deliverableSchema,
        requiredSections,
        guarantee,
        null);
  }

  /** Deterministic criteria, or probabilistic ones whose guarantee is not needed here. */
  public QualityCriteria(
      List<Dimension> dimensions,
      BigDecimal compositeThreshold,
      CompositeMethod compositeMethod,
      GuaranteeType guaranteeType,
      List<QualityGate> gates,
      QualityGate.Logic gateLogic,
      JsonNode deliverableSchema,
      List<String> requiredSections) {
    this(
        dimensions,
        compositeThreshold,
        compositeMethod,
        guaranteeType,
        gates,
        gateLogic,
        deliverableSchema,
        requiredSections,
        null,
        null);
  }

  public QualityCriteria {
    dimensions = List.copyOf(dimensions);
    Objects.requireNonNull(compositeThreshold, "compositeThreshold");
    Objects.requireNonNull(compositeMethod, "compositeMethod");
    Objects.requireNonNull(guaranteeType, "guaranteeType");
    gates = List.copyOf(gates);
    Objects.requireNonNull(gateLogic, "gateLogic");
    deliverableSchema = deliverableSchema == null ? null : deliverableSchema.deepCopy();
    requiredSections = List.copyOf(requiredSections);
  }

  /** The check the code sandbox reports: the client's tests ran and every one passed. */
  public static final String TESTS_PASS = "tests_pass";

  /** The whitepaper's name for the same check (section 6.4's gate set). */
  public static final String ALL_TESTS_PASS = "all_tests_pass";

  @Override
  public JsonNode deliverableSchema() {
    return deliverableSchema == null ? null : deliverableSchema.deepCopy();
  }

  /**
   * These criteria with {@code tests} as their tests (a standalone request's), and the {@code
   * tests_pass} gate they bring when no gate names it yet; unchanged for null.
   *
   * <p>The client's tests are its statement of what done means: without the gate, a stub that fails
   * four of five tests but is documented, short and free of smells averages above the threshold and
   * passes. The {@code code_generation} template gives agreements the same gate. Under {@code
   * any_must_pass} the gate joins the caller's others as one way to pass: that logic is the
   * caller's own choice.
   */
  public QualityCriteria withCodeTests(CodeTests tests) {
    if (tests == null) {
      return this;
    }
    List<QualityGate> withTests = new ArrayList<>(gates);
    if (withTests.stream()
        .noneMatch(g -> g.text().equals(TESTS_PASS) || g.text().equals(ALL_TESTS_PASS))) {
      withTests.add(QualityGate.of(TESTS_PASS, QualityGate.Kind.BOOLEAN));
    }
    return new QualityCriteria(
        dimensions,
        compositeThreshold,
        compositeMethod,
        guaranteeType,
        withTests,
        gateLogic,
        deliverableSchema,
        requiredSections,
        guarantee,
        tests);
  }

  /** The agreed tests, if any. */
  public Optional<CodeTests> codeTests() {
    return Optional.ofNullable(tests);
  }

  public Optional<Dimension> dimension(String name) {
    return dimensions.stream().filter(d -> d.name().equals(name)).findFirst();
  }

  public enum GuaranteeType {
    DETERMINISTIC,
    PROBABILISTIC;

    public static GuaranteeType fromWire(String name) {
      return Wire.parse(GuaranteeType.class, name, "guarantee_type");
    }
  }
}
