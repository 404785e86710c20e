package dev.asa.cli;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * A verification result (whitepaper section 5.2) for a person: one row per dimension with its score
 * against the SLO target, then shadow metrics, gates, the composite and the determination.
 */
final class VerificationReport {
  private VerificationReport() {}

  /** Longest evidence shown in the table; {@code --json} has all of it. */
  static final int EVIDENCE_WIDTH = 72;

  /**
   * @param answer the body of {@code POST /agreements/{id}/verify}: {@code {agreement_id, state,
   *     verification}}
   */
  static String format(JsonNode answer) {
    JsonNode v = answer.path("verification");
    String heading =
        "verified "
            + answer.path("agreement_id").asText()
            + " ("
            + v.path("verification_id").asText()
            + "); state "
            + answer.path("state").asText()
            + "\n\n";
    return heading + body(v);
  }

  /** A standalone result (section 5.2) on its own. */
  static String formatResult(JsonNode v) {
    JsonNode e = v.path("evaluator");
    String heading =
        "verification "
            + v.path("verification_id").asText()
            + " by "
            + e.path("type").asText()
            + (e.path("model").isTextual() ? " (" + e.path("model").asText() + ")" : "")
            + "\n\n";
    return heading + body(v);
  }

  /** {@link Exit#FAIL} when the verdict is FAIL, else {@link Exit#OK}. */
  static int exitCode(JsonNode verification) {
    return "FAIL".equals(verification.path("determination").path("result").asText())
        ? Exit.FAIL
        : Exit.OK;
  }

  private static String body(JsonNode v) {
    StringBuilder s = new StringBuilder();

    Table dimensions = Table.withHeaders("DIMENSION", "SCORE", "SLO TARGET", "MET", "EVIDENCE");
    Table shadows = Table.withHeaders("SHADOW METRIC", "OF", "VALUE", "TARGET", "MET");
    for (JsonNode d : v.path("dimensions")) {
      // A dimension nobody scored has no score: its SLO was not missed, it was not looked at.
      boolean evaluated = !d.path("score").isNull() && !d.path("score").isMissingNode();
      dimensions.row(
          d.path("name").asText(),
          evaluated ? Formats.number(d.path("score")) : "-",
          Formats.target(d.path("slo_target")),
          evaluated ? Formats.yesNo(d.path("slo_met").asBoolean()) : "not evaluated",
          Formats.cut(d.path("evidence").asText(), EVIDENCE_WIDTH));
      JsonNode shadow = d.path("shadow_metric");
      if (shadow.isObject()) {
        JsonNode met = shadow.path("slo_met");
        shadows.row(
            shadow.path("name").asText(),
            d.path("name").asText(),
            Formats.number(shadow.path("value")),
            Formats.target(shadow.path("slo_target")),
            met.isBoolean() ? Formats.yesNo(met.asBoolean()) : "-");
      }
    }
    s.append(dimensions.render());
    if (!shadows.isEmpty()) {
      s.append('\n').append(shadows.render());
    }

    Table verdict = Table.plain();
    for (JsonNode g : v.path("quality_gates")) {
      verdict.row(
          "gate " + g.path("condition").asText(),
          (g.path("passed").asBoolean() ? "passed" : "FAILED")
              + (g.path("evidence").asText().isEmpty()
                  ? ""
                  : ": " + Formats.cut(g.path("evidence").asText(), EVIDENCE_WIDTH)));
    }
    JsonNode c = v.path("composite");
    verdict.row(
        "composite",
        Formats.number(c.path("score"))
            + " ("
            + c.path("method").asText()
            + ", threshold "
            + Formats.number(c.path("threshold"))
            + "): "
            + (c.path("passed").asBoolean() ? "passed" : "FAILED"));
    JsonNode det = v.path("determination");
    JsonNode confidence = det.path("confidence");
    verdict.row(
        "determination",
        det.path("result").asText()
            + ", release "
            + Formats.number(det.path("payment_release_percent"))
            + "% of the payment"
            + (confidence.isNumber() ? ", confidence " + Formats.number(confidence) : ""));
    if (confidence.isNumber()) {
      // Not the evaluator's figure as given: the scorer weighs each dimension's confidence.
      verdict.row(
          "confidence",
          Formats.number(confidence)
              + " is each dimension's confidence averaged by the dimension's weight: the"
              + " evaluator's stated confidence for what it scored, 1 for what the server measured"
              + " itself (format, timeliness)");
    }
    if (!det.path("notes").asText().isEmpty()) {
      verdict.row("notes", det.path("notes").asText());
    }
    JsonNode trail = v.path("evidence_trail");
    verdict.row(
        "evidence",
        trail.path("deliverable_hash").asText()
            + ", "
            + trail.path("evaluation_duration_ms").asText()
            + " ms"
            + (trail.path("evaluation_cost_usd").isNumber()
                ? ", cost $" + Formats.number(trail.path("evaluation_cost_usd"))
                : ""));
    return s.append('\n').append(verdict.render()).toString();
  }
}
