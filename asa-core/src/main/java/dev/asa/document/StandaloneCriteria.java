package dev.asa.document;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.asa.agreement.CompositeMethod;
import dev.asa.agreement.Dimension;
import dev.asa.agreement.InvalidDocumentException;
import dev.asa.agreement.MetricType;
import dev.asa.agreement.Party;
import dev.asa.agreement.QualityCriteria;
import dev.asa.agreement.QualityGate;
import dev.asa.agreement.Slo;
import dev.asa.agreement.SloOperator;
import dev.asa.crypto.Ed25519PrivateKey;
import dev.asa.json.Json;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Quality criteria for a verification without an agreement (whitepaper 5.4): the default dimensions
 * and weights of a deliverable type, or criteria the caller writes in the agreement's {@code
 * quality_criteria} schema.
 *
 * <p>The defaults give every dimension the SLO {@code gte 70} and a composite threshold of 70 by
 * weighted average: the whitepaper names dimensions and weights but no targets, and 70 is the
 * lowest passing tier of every template, so a standalone PASS never means less than an agreement's.
 */
public final class StandaloneCriteria {

  /** The section 5.4 deliverable types. */
  public static final List<String> TYPES =
      List.of("text/research", "text/analysis", "code", "data", "translation", "general");

  /** The SLO target and composite threshold of the defaults. */
  public static final BigDecimal DEFAULT_TARGET = BigDecimal.valueOf(70);

  private static final Map<String, Map<String, Integer>> DEFAULTS = defaults();

  private StandaloneCriteria() {}

  private static Map<String, Map<String, Integer>> defaults() {
    Map<String, Map<String, Integer>> d = new LinkedHashMap<>();
    d.put(
        "text/research",
        weights("accuracy", 25, "completeness", 20, "relevance", 20, "sources", 15, "writing", 20));
    d.put(
        "text/analysis",
        weights(
            "accuracy", 25, "methodology", 20, "depth", 20, "clarity", 15, "actionability", 20));
    d.put(
        "code",
        weights(
            "correctness",
            30,
            "performance",
            20,
            "security",
            20,
            "maintainability",
            15,
            "documentation",
            15));
    d.put(
        "data",
        weights(
            "accuracy",
            25,
            "completeness",
            25,
            "consistency",
            20,
            "format_compliance",
            15,
            "metadata",
            15));
    d.put(
        "translation",
        weights(
            "accuracy",
            25,
            "fluency",
            25,
            "terminology",
            20,
            "cultural_fit",
            15,
            "completeness",
            15));
    d.put(
        "general",
        weights(
            "accuracy", 25, "completeness", 20, "relevance", 20, "clarity", 20, "timeliness", 15));
    return d;
  }

  private static Map<String, Integer> weights(Object... pairs) {
    Map<String, Integer> m = new LinkedHashMap<>();
    for (int i = 0; i < pairs.length; i += 2) {
      m.put((String) pairs[i], (Integer) pairs[i + 1]);
    }
    return m;
  }

  /** Whether {@code type} is one of {@link #TYPES}. */
  public static boolean isKnownType(String type) {
    return DEFAULTS.containsKey(type);
  }

  /**
   * The default criteria of a deliverable type.
   *
   * @throws IllegalArgumentException for a type not in {@link #TYPES}
   */
  public static QualityCriteria forType(String type) {
    Map<String, Integer> weights = DEFAULTS.get(type);
    if (weights == null) {
      throw new IllegalArgumentException(
          "unknown deliverable type '" + type + "'; one of " + String.join(", ", TYPES));
    }
    List<Dimension> dimensions = new ArrayList<>();
    weights.forEach((name, percent) ->
        dimensions.add(
            new Dimension(
                name,
                BigDecimal.valueOf(percent, 2),
                MetricType.PERCENTAGE,
                new Slo(SloOperator.GTE, new Slo.Target.Number(DEFAULT_TARGET)),
                null,
                null,
                null)));
    return new QualityCriteria(
        dimensions,
        DEFAULT_TARGET,
        CompositeMethod.WEIGHTED_AVERAGE,
        QualityCriteria.GuaranteeType.DETERMINISTIC,
        List.of(),
        QualityGate.Logic.ALL_MUST_PASS,
        null,
        List.of());
  }

  /**
   * What structural depth can judge of any default criteria: format compliance alone (every
   * structural check must pass for the SLO), since structure says nothing of content.
   */
  public static QualityCriteria structuralOnly(QualityCriteria defaults) {
    Dimension format =
        new Dimension(
            "format_compliance",
            BigDecimal.ONE,
            MetricType.PERCENTAGE,
            new Slo(SloOperator.GTE, new Slo.Target.Number(BigDecimal.valueOf(100))),
            null,
            null,
            "Share of the structural checks (format, schema, size, sections) that pass.");
    return new QualityCriteria(
        List.of(format),
        defaults.compositeThreshold(),
        defaults.compositeMethod(),
        defaults.guaranteeType(),
        List.of(),
        defaults.gateLogic(),
        defaults.deliverableSchema(),
        defaults.requiredSections());
  }

  /**
   * Default criteria reduced to what was judged: every dimension without a score keeps its place in
   * the result (reported not evaluated, with the reason) but weighs 0 in the composite.
   *
   * @throws InvalidDocumentException when no dimension could be judged at all
   */
  public static QualityCriteria judgedOnly(
      QualityCriteria defaults, Map<String, dev.asa.scoring.DimensionInput> inputs) {
    List<Dimension> dimensions = new ArrayList<>();
    List<String> unjudged = new ArrayList<>();
    for (Dimension d : defaults.dimensions()) {
      var input = inputs.get(d.name());
      boolean judged = input != null && input.isEvaluated();
      if (!judged) {
        unjudged.add(d.name());
      }
      dimensions.add(
          judged
              ? d
              : new Dimension(
                  d.name(),
                  BigDecimal.ZERO,
                  d.metric(),
                  d.slo(),
                  d.shadowMetric(),
                  d.shadowSlo(),
                  d.description()));
    }
    if (unjudged.size() == defaults.dimensions().size()) {
      throw new InvalidDocumentException(
          "/verification_config",
          "none of the dimensions ("
              + String.join(", ", unjudged)
              + ") could be judged by the evaluators asked for;"
              + " ask for an agent_as_judge evaluator or send quality_criteria it can judge");
    }
    return new QualityCriteria(
        dimensions,
        defaults.compositeThreshold(),
        defaults.compositeMethod(),
        defaults.guaranteeType(),
        defaults.gates(),
        defaults.gateLogic(),
        defaults.deliverableSchema(),
        defaults.requiredSections());
  }

  /**
   * Criteria written by the caller in the agreement schema's {@code quality_criteria} form, checked
   * by the same schema and semantic rules as an agreement's.
   *
   * @throws InvalidDocumentException naming each problem by its pointer under {@code
   *     /quality_criteria}
   */
  public static QualityCriteria parse(JsonNode qualityCriteria) {
    if (!(qualityCriteria instanceof ObjectNode)) {
      throw new InvalidDocumentException(
          "/quality_criteria", "must be an object in the agreement's quality_criteria form");
    }
    return AgreementDocuments.readCriteriaCarrier(carrier(qualityCriteria))
        .terms()
        .qualityCriteria();
  }

  /**
   * A minimal agreement around the criteria, so that one validator (schema and semantic rules)
   * judges criteria wherever they appear, and its pointers ({@code /quality_criteria/...}) read the
   * same in a verification request.
   */
  private static ObjectNode carrier(JsonNode qualityCriteria) {
    ObjectNode doc = Json.object();
    doc.put("asa_version", "1.0.0");
    doc.put("agreement_id", "asa-standalone-verification");
    doc.put("created_at", "2026-01-01T00:00:00Z");
    ObjectNode parties = doc.putObject("parties");
    for (String role : List.of("client", "provider")) {
      ObjectNode p = parties.putObject(role);
      p.putObject("identity").put("scheme", "api_key").put("value", "standalone-" + role);
      p.putObject("verification_key")
          .put("scheme", "ed25519")
          .put("value", carrierKey(role.equals("client") ? 1 : 2));
    }
    ObjectNode evaluator = parties.putObject("evaluator").put("type", Party.BUILTIN);
    evaluator.putObject("identity").put("scheme", "api_key").put("value", "standalone-evaluator");
    doc.putObject("service").put("type", "general").put("description", "standalone verification");
    doc.set("quality_criteria", qualityCriteria.deepCopy());
    return doc;
  }

  /** A fixed, well-formed public key for the carrier document; it never signs anything. */
  private static String carrierKey(int fill) {
    byte[] seed = new byte[Ed25519PrivateKey.SEED_LENGTH];
    java.util.Arrays.fill(seed, (byte) fill);
    return Ed25519PrivateKey.fromSeed(seed).publicKey().toBase64Url();
  }
}
