package dev.asa.cli;

import dev.asa.client.VerificationView;
import dev.asa.client.VerificationView.Composite;
import dev.asa.client.VerificationView.Dimension;
import dev.asa.client.VerificationView.Gate;
import dev.asa.client.VerificationView.Shadow;
import dev.asa.client.VerifyOutcome;

/**
 * A verification result (whitepaper section 5.2) for a person: one row per dimension with its score
 * against the SLO target, then shadow metrics, gates, the composite and the determination.
 */
final class VerificationReport {
  private VerificationReport() {}

  /** Longest evidence shown in the table; {@code --json} has all of it. */
  static final int EVIDENCE_WIDTH = 72;

  /**
   * The answer of {@code POST /agreements/{id}/verify}: the agreement's new state and the result.
   */
  static String format(VerifyOutcome answer) {
    VerificationView v = answer.verification();
    String heading =
        "verified "
            + answer.agreementId()
            + " ("
            + v.verificationId()
            + "); state "
            + answer.state().name()
            + "\n\n";
    return heading + body(v);
  }

  /** A standalone result (section 5.2) on its own. */
  static String formatResult(VerificationView v) {
    String heading =
        "verification "
            + v.verificationId()
            + " by "
            + v.evaluator().map(VerificationView.Evaluator::type).orElse("")
            + v.evaluator()
                .flatMap(VerificationView.Evaluator::model)
                .map(m -> " (" + m + ")")
                .orElse("")
            + "\n\n";
    return heading + body(v);
  }

  /** {@link Exit#FAIL} when the verdict is FAIL, else {@link Exit#OK}. */
  static int exitCode(VerificationView verification) {
    return "FAIL".equals(verification.result()) ? Exit.FAIL : Exit.OK;
  }

  private static String body(VerificationView v) {
    StringBuilder s = new StringBuilder();

    Table dimensions = Table.withHeaders("DIMENSION", "SCORE", "SLO TARGET", "MET", "EVIDENCE");
    Table shadows = Table.withHeaders("SHADOW METRIC", "OF", "VALUE", "TARGET", "MET");
    for (Dimension d : v.dimensions()) {
      // A dimension nobody scored has no score: its SLO was not missed, it was not looked at.
      dimensions.row(
          d.name(),
          d.evaluated() ? Formats.number(d.score()) : "-",
          Formats.target(d.sloTarget()),
          d.evaluated() ? Formats.yesNo(d.sloMet()) : "not evaluated",
          Formats.cut(d.evidence(), EVIDENCE_WIDTH));
      if (d.shadow().isPresent()) {
        Shadow shadow = d.shadow().get();
        shadows.row(
            shadow.name(),
            d.name(),
            Formats.number(shadow.value()),
            Formats.target(shadow.sloTarget()),
            shadow.sloMet().map(Formats::yesNo).orElse("-"));
      }
    }
    s.append(dimensions.render());
    if (!shadows.isEmpty()) {
      s.append('\n').append(shadows.render());
    }

    Table verdict = Table.plain();
    for (Gate g : v.gates()) {
      verdict.row(
          "gate " + g.condition(),
          (g.passed() ? "passed" : "FAILED")
              + (g.evidence().isEmpty() ? "" : ": " + Formats.cut(g.evidence(), EVIDENCE_WIDTH)));
    }
    Composite c = v.composite();
    verdict.row(
        "composite",
        Formats.number(c.score())
            + " ("
            + c.method().orElse("")
            + ", threshold "
            + Formats.number(c.threshold())
            + "): "
            + (c.passed() ? "passed" : "FAILED"));
    verdict.row(
        "determination",
        v.result()
            + ", release "
            + Formats.number(v.releasePercent())
            + "% of the payment"
            + v.confidence()
                .map(confidence -> ", confidence " + Formats.number(confidence))
                .orElse(""));
    v.confidence()
        .ifPresent(confidence ->
            // Not the evaluator's figure as given: the scorer weighs each dimension's
            // confidence.
            verdict.row(
                "confidence",
                Formats.number(confidence)
                    + " is each dimension's confidence averaged by the dimension's weight: the"
                    + " evaluator's stated confidence for what it scored, 1 for what the server"
                    + " measured itself (format, timeliness)"));
    if (!v.notes().isEmpty()) {
      verdict.row("notes", v.notes());
    }
    // A result without its trail (one written by hand) keeps the row as it always read.
    verdict.row(
        "evidence",
        v.evidenceTrail()
            .map(trail ->
                trail.deliverableHash()
                    + ", "
                    + trail.evaluationDurationMs().map(String::valueOf).orElse("")
                    + " ms"
                    + trail
                        .evaluationCostUsd()
                        .map(cost -> ", cost $" + Formats.number(cost))
                        .orElse(""))
            .orElse(",  ms"));
    return s.append('\n').append(verdict.render()).toString();
  }
}
