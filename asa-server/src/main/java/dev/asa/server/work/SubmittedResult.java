package dev.asa.server.work;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.asa.agreement.AgreementTerms;
import dev.asa.agreement.EvaluatorSettings;
import dev.asa.agreement.InvalidDocumentException;
import dev.asa.agreement.QualityCriteria;
import dev.asa.agreement.StrictJson;
import dev.asa.evaluators.Consensus;
import dev.asa.evaluators.Evaluation;
import dev.asa.evaluators.StructuralEvaluator;
import dev.asa.evaluators.VerificationEngine;
import dev.asa.json.Json;
import dev.asa.scoring.CheckResult;
import dev.asa.scoring.DimensionInput;
import dev.asa.scoring.GuaranteeCheck;
import dev.asa.text.ModelNames;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** The assigned evaluator's scores, when it submits them. */
public record SubmittedResult(
    List<DimensionInput> dimensions,
    Map<String, CheckResult> checks,
    String model,
    boolean measuredIgnored,
    ObjectNode consensus) {
  public boolean isEmpty() {
    return dimensions.isEmpty() && checks.isEmpty();
  }

  /**
   * The checks only the server measures, with what measures them; an evaluator reporting one is
   * refused (422), on both routes. Each is exact and concerns bytes or records the server holds:
   * the structural checks run on the deliverable as delivered, and the series guarantee is computed
   * from the provider's recorded deliveries. A report of one could pass a gate nobody measured, or
   * contradict a measurement.
   *
   * <p>Every other check is the evaluator's to report, as its judgement: {@code
   * no_critical_security_vulnerabilities}, {@code all_tests_pass} and {@code tests_pass}, or any
   * name a gate of the agreement uses. The tests are among them because on this path the server
   * does not run them: the evaluator does, and answers for its report as for its scores. Where the
   * server runs the client's tests itself (its code evaluator, when the built-in evaluator judges)
   * its {@code tests_pass} is a measurement of that verification, and no report is merged into it;
   * should a report ever meet a measurement of the same name, the measurement wins ({@link #over}),
   * because the server ran the signed tests on the delivered bytes while a report is a party's
   * word.
   */
  static final Map<String, String> SERVER_MEASURED =
      Map.of(
          StructuralEvaluator.FORMAT_VALID, "its structural evaluator",
          StructuralEvaluator.SCHEMA_VALID, "its structural evaluator",
          StructuralEvaluator.WITHIN_SIZE_LIMIT, "its structural evaluator",
          StructuralEvaluator.REQUIRED_SECTIONS_PRESENT, "its structural evaluator",
          GuaranteeCheck.CHECK, "from the provider's series of recorded deliveries");

  /** No scores submitted. */
  public static final SubmittedResult NONE = new SubmittedResult(List.of(), Map.of(), null);

  /** Scores as the agreement route takes them: a score of a measured dimension is refused. */
  public SubmittedResult(
      List<DimensionInput> dimensions, Map<String, CheckResult> checks, String model) {
    this(dimensions, checks, model, false, null);
  }

  /**
   * An answer to a task of the evaluator work queue: the same shape, but it scores every dimension
   * of the criteria (a task looks the same whether it is real work or a canary, so it cannot say
   * which dimensions the server measures itself), and the server's own measurements win over its
   * scores of those.
   */
  public static SubmittedResult parseTaskAnswer(JsonNode r) {
    SubmittedResult parsed = parse(r);
    return new SubmittedResult(parsed.dimensions, parsed.checks, parsed.model, true, null);
  }

  /**
   * A panel's answers to the same delivery as one (whitepaper 6.3, multi-evaluator consensus): per
   * dimension the median score, a majority vote for a boolean one ({@link Consensus}), the spread
   * and a confidence that falls as they disagree; a reported check holds when most of them report
   * it holding.
   *
   * @param answers each panel member's answer, by its key
   */
  public static SubmittedResult panel(
      QualityCriteria criteria, Map<String, SubmittedResult> answers) {
    List<Evaluation> evaluations = new ArrayList<>();
    Map<String, Integer> holding = new HashMap<>();
    Map<String, Integer> reported = new HashMap<>();
    answers.forEach((key, answer) -> {
      Map<String, DimensionInput> dims = new LinkedHashMap<>();
      answer.dimensions().forEach(d -> dims.put(d.name(), d));
      evaluations.add(new Evaluation(key, "evaluator", answer.model(), dims, Map.of(), null));
      answer
          .checks()
          .forEach((name, check) -> {
            reported.merge(name, 1, Integer::sum);
            holding.merge(name, check.passed() ? 1 : 0, Integer::sum);
          });
    });
    Consensus.Combined combined = Consensus.combine(criteria, evaluations);
    Map<String, CheckResult> checks = new HashMap<>();
    reported.forEach((name, n) ->
        checks.put(
            name,
            new CheckResult(
                holding.get(name) * 2 > n,
                holding.get(name) + " of " + n + " panel evaluators reported it holding")));
    return new SubmittedResult(
        List.copyOf(combined.inputs().values()), checks, null, true, combined.report());
  }

  public SubmittedResult {
    dimensions = List.copyOf(dimensions);
    checks = Map.copyOf(checks);
  }

  /**
   * A verify request's {@code evaluator_result}: {@code {dimensions: [{name, score, evidence,
   * shadow_value?, shadow_evidence?}], checks?: {name: bool}, model?, confidence?}}; {@link #NONE}
   * when absent or null.
   */
  public static SubmittedResult parse(JsonNode r) {
    if (r == null || r.isNull() || r.isMissingNode()) {
      return NONE;
    }
    ObjectNode result = StrictJson.failFast().object(r, "/evaluator_result", "evaluator_result");
    StrictJson.failFast()
        .allowOnly(result, "/evaluator_result", "dimensions", "checks", "model", "confidence");
    BigDecimal confidence = null;
    if (result.has("confidence")) {
      JsonNode c = result.get("confidence");
      if (!c.isNumber()
          || c.decimalValue().signum() < 0
          || c.decimalValue().compareTo(BigDecimal.ONE) > 0) {
        throw new InvalidDocumentException(
            "/evaluator_result/confidence", "must be a number from 0 to 1");
      }
      confidence = c.decimalValue();
    }
    List<DimensionInput> dims = new ArrayList<>();
    JsonNode list = result.path("dimensions");
    if (!list.isMissingNode() && !list.isArray()) {
      throw new InvalidDocumentException(
          "/evaluator_result/dimensions", "must be an array of {name, score, evidence}");
    }
    for (int i = 0; i < list.size(); i++) {
      String at = "/evaluator_result/dimensions/" + i;
      ObjectNode d = StrictJson.failFast().object(list.get(i), at, "a dimension score");
      StrictJson.failFast()
          .allowOnly(d, at, "name", "score", "evidence", "shadow_value", "shadow_evidence");
      String name = StrictJson.failFast().text(d, at, "name", "the dimension's name");
      JsonNode score = d.get("score");
      if (score == null || !(score.isNumber() || score.isBoolean())) {
        throw new InvalidDocumentException(
            at + "/score", "required: a number (or true/false for a boolean dimension)");
      }
      BigDecimal value =
          score.isBoolean()
              ? BigDecimal.valueOf(score.booleanValue() ? 100 : 0)
              : score.decimalValue();
      String evidence = StrictJson.failFast().text(d, at, "evidence", "what the score rests on");
      JsonNode shadow = d.get("shadow_value");
      if (shadow != null && !shadow.isNumber()) {
        throw new InvalidDocumentException(at + "/shadow_value", "must be a number");
      }
      dims.add(
          new DimensionInput(
              name,
              value,
              evidence,
              shadow == null ? null : shadow.decimalValue(),
              StrictJson.failFast().optionalText(d, at, "shadow_evidence"),
              confidence,
              "evaluator"));
    }
    Map<String, CheckResult> checks = new HashMap<>();
    JsonNode c = result.path("checks");
    if (!c.isMissingNode()) {
      ObjectNode co = StrictJson.failFast().object(c, "/evaluator_result/checks", "checks");
      for (Map.Entry<String, JsonNode> e : co.properties()) {
        String serverOnly = SERVER_MEASURED.get(e.getKey());
        if (serverOnly != null) {
          throw new InvalidDocumentException(
              StrictJson.child("/evaluator_result/checks", e.getKey()),
              "is measured by the server (" + serverOnly + "), never reported; leave it out");
        }
        if (!e.getValue().isBoolean()) {
          throw new InvalidDocumentException(
              StrictJson.child("/evaluator_result/checks", e.getKey()), "must be true or false");
        }
        checks.put(
            e.getKey(), new CheckResult(e.getValue().booleanValue(), "reported by the evaluator"));
      }
    }
    return new SubmittedResult(
        dims, checks, StrictJson.failFast().optionalText(result, "/evaluator_result", "model"));
  }

  /**
   * Refuses scores the evaluator says came from a model the agreement rules out: the provider's
   * declared model ({@code parties.provider.model}; models rate their own output higher, whitepaper
   * 5.6), or another model than the one the agreement fixes for its evaluator ({@code
   * parties.evaluator.config.model}). Scores that name no model are taken: the server cannot know
   * what it did not say, and the evaluator's registry record answers for it.
   */
  public void requireModelAllowedBy(AgreementTerms terms) {
    if (model == null) {
      return;
    }
    String provider = terms.parties().provider().model();
    if (provider != null && ModelNames.same(model, provider)) {
      throw new InvalidDocumentException(
          "/evaluator_result/model",
          "'"
              + model
              + "' is the provider's own model (/parties/provider/model); models rate their own"
              + " output higher, so these scores are not an independent judgement: judge with"
              + " another model");
    }
    String fixed = terms.parties().evaluator().map(e -> e.evaluatorSettings().model()).orElse(null);
    if (fixed != null && !ModelNames.same(model, fixed)) {
      throw new InvalidDocumentException(
          "/evaluator_result/model",
          "the agreement fixes the judge model '"
              + fixed
              + "' ("
              + EvaluatorSettings.DOCUMENT_POINTER
              + "/model, signed by both parties), not '"
              + model
              + "'");
    }
  }

  /**
   * The structural measurements with the assigned evaluator's scores for what they cannot judge.
   */
  public VerificationEngine.Assessment over(VerificationEngine.Assessment measured) {
    Map<String, DimensionInput> inputs = new LinkedHashMap<>(measured.inputs());
    for (DimensionInput given : dimensions) {
      DimensionInput own = inputs.get(given.name());
      if (own == null) {
        throw new InvalidDocumentException(
            "/evaluator_result/dimensions",
            "the agreement has no dimension '" + given.name() + "'");
      }
      if (own.score() != null) {
        if (measuredIgnored) {
          continue;
        }
        throw new InvalidDocumentException(
            "/evaluator_result/dimensions",
            "'"
                + given.name()
                + "' is measured by the server's structural evaluator; do not submit it");
      }
      inputs.put(given.name(), given);
    }
    Map<String, CheckResult> merged = new LinkedHashMap<>(measured.checks());
    for (Map.Entry<String, CheckResult> reported : checks.entrySet()) {
      if (merged.containsKey(reported.getKey())) {
        // The server ran this check on the very bytes delivered: its measurement stands. A task
        // answer cannot know what the server measures (see parseTaskAnswer), so there the
        // report is set aside; on the agreement route the evaluator hears why.
        if (measuredIgnored) {
          continue;
        }
        throw new InvalidDocumentException(
            StrictJson.child("/evaluator_result/checks", reported.getKey()),
            "is measured by the server in this verification; its measurement stands, leave it out");
      }
      merged.put(reported.getKey(), reported.getValue());
    }
    ObjectNode details = measured.details();
    if (consensus != null) {
      details = details == null ? Json.object() : details.deepCopy();
      details.set("consensus", consensus);
    }
    return new VerificationEngine.Assessment(
        inputs, merged, measured.evaluations(), measured.failures(), measured.usage(), details);
  }
}
