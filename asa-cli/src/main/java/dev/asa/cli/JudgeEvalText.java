package dev.asa.cli;

import dev.asa.evaluators.judgeeval.Bootstrap;
import dev.asa.evaluators.judgeeval.Estimate;
import dev.asa.evaluators.judgeeval.Interval;
import dev.asa.evaluators.judgeeval.JudgeReport;
import dev.asa.evaluators.judgeeval.PairwiseReport;
import dev.asa.evaluators.judgeeval.PointwiseReport;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/** The readable report of {@code asa judge-eval}: what was measured, then one table. */
final class JudgeEvalText {
  private JudgeEvalText() {}

  /**
   * @param server the server whose judge was measured from outside, or null for this machine's
   */
  static String render(JudgeReport report, String file, List<String> evaluators, String server) {
    StringBuilder s = new StringBuilder();
    String kind = report instanceof PairwiseReport ? "pairwise" : "pointwise";
    s.append(report.size())
        .append(' ')
        .append(kind)
        .append(report.size() == 1 ? " record" : " records")
        .append(" from ")
        .append(file)
        .append('\n');
    s.append("judge: ")
        .append(String.join(" + ", evaluators))
        .append(
            server == null
                ? ", each answer verified standalone at semantic depth (POST /verifications)\n"
                : " on "
                    + server
                    + ", each answer sent to its POST /verifications at semantic depth\n");
    s.append(
        report instanceof PairwiseReport
            ? "pick: the answer with the higher composite; a tie counts as a miss\n"
            : "score: the composite, ranked against human_score\n");
    if (report.withBaseline()) {
      s.append(
          report instanceof PairwiseReport
              ? "baseline: the longer answer wins (Unicode characters; a tie is a miss)\n"
              : "baseline: the answer's length (Unicode characters)\n");
    }
    Bootstrap b = report.bootstrap();
    s.append(
        String.format(
            Locale.ROOT,
            "intervals: %.0f%% percentile bootstrap, %d resamples, seed %d%n%n",
            100 * Bootstrap.CONFIDENCE,
            b.resamples(),
            b.seed()));
    s.append(
        switch (report) {
          case PairwiseReport p -> pairwise(p);
          case PointwiseReport p -> pointwise(p);
        });
    return s.toString();
  }

  private static String pairwise(PairwiseReport report) {
    boolean baseline = report.withBaseline();
    Table table =
        baseline
            ? Table.withHeaders(
                "CATEGORY",
                "N",
                "JUDGE",
                "95% CI",
                "TIES",
                "LONGER WINS",
                "95% CI",
                "JUDGE - LONGER",
                "95% CI")
            : Table.withHeaders("CATEGORY", "N", "JUDGE", "95% CI", "TIES");
    List<PairwiseReport.Group> groups = new ArrayList<>();
    groups.add(report.overall());
    groups.addAll(report.categories());
    for (PairwiseReport.Group g : groups) {
      List<Object> row = new ArrayList<>();
      row.add(g.category() == null ? "all" : g.category());
      row.add(g.n());
      row.add(percent(g.judge().agreement().value()));
      row.add(percentInterval(g.judge().agreement().ci()));
      row.add(g.judge().ties());
      if (baseline) {
        row.add(percent(g.baseline().agreement().value()));
        row.add(percentInterval(g.baseline().agreement().ci()));
        row.add(points(g.difference().value()));
        row.add(pointsInterval(g.difference().ci()));
      }
      table.row(row.toArray());
    }
    return table.render() + pairwiseDimensions(report);
  }

  /**
   * Each dimension alone as the judge: where it agrees with people less than the composite does, or
   * less than the longer answer, its weight is worth a second look before payments rest on it.
   */
  private static String pairwiseDimensions(PairwiseReport report) {
    if (report.dimensions().isEmpty()) {
      return "";
    }
    Table table = Table.withHeaders("DIMENSION", "N", "AGREEMENT", "95% CI", "TIES");
    for (PairwiseReport.DimensionRate d : report.dimensions()) {
      table.row(
          d.dimension(),
          d.n(),
          percent(d.judge().agreement().value()),
          percentInterval(d.judge().agreement().ci()),
          d.judge().ties());
    }
    return "\neach dimension alone as the judge (the answer scoring higher on it; a tie is a miss;"
        + " records where an answer has no score on it are left out):\n"
        + table.render();
  }

  private static String pointwise(PointwiseReport report) {
    boolean baseline = report.withBaseline();
    Table table =
        baseline
            ? Table.withHeaders(
                "CATEGORY",
                "N",
                "SPEARMAN",
                "95% CI",
                "KENDALL TAU-B",
                "95% CI",
                "LENGTH SPEARMAN",
                "95% CI",
                "LENGTH TAU-B",
                "95% CI")
            : Table.withHeaders("CATEGORY", "N", "SPEARMAN", "95% CI", "KENDALL TAU-B", "95% CI");
    List<PointwiseReport.Group> groups = new ArrayList<>();
    groups.add(report.overall());
    groups.addAll(report.categories());
    for (PointwiseReport.Group g : groups) {
      List<Object> row = new ArrayList<>();
      row.add(g.category() == null ? "all" : g.category());
      row.add(g.n());
      addCorrelation(row, g.judge().spearman());
      addCorrelation(row, g.judge().kendallTauB());
      if (baseline) {
        addCorrelation(row, g.baseline().spearman());
        addCorrelation(row, g.baseline().kendallTauB());
      }
      table.row(row.toArray());
    }
    return table.render() + pointwiseDimensions(report);
  }

  private static String pointwiseDimensions(PointwiseReport report) {
    if (report.dimensions().isEmpty()) {
      return "";
    }
    Table table =
        Table.withHeaders("DIMENSION", "N", "SPEARMAN", "95% CI", "KENDALL TAU-B", "95% CI");
    for (PointwiseReport.DimensionCorrelation d : report.dimensions()) {
      List<Object> row = new ArrayList<>();
      row.add(d.dimension());
      row.add(d.n());
      addCorrelation(row, d.judge().spearman());
      addCorrelation(row, d.judge().kendallTauB());
      table.row(row.toArray());
    }
    return "\neach dimension alone (records whose answer has no score on it are left out):\n"
        + table.render();
  }

  private static void addCorrelation(List<Object> row, Estimate e) {
    row.add(Double.isNaN(e.value()) ? "n/a" : String.format(Locale.ROOT, "%+.3f", e.value()));
    row.add(
        e.ci() == null
            ? "n/a"
            : String.format(Locale.ROOT, "[%+.3f, %+.3f]", e.ci().lower(), e.ci().upper()));
  }

  static String percent(double v) {
    return String.format(Locale.ROOT, "%.1f%%", 100 * v);
  }

  private static String percentInterval(Interval i) {
    return i == null
        ? "n/a"
        : String.format(Locale.ROOT, "[%.1f, %.1f]", 100 * i.lower(), 100 * i.upper());
  }

  private static String points(double v) {
    return String.format(Locale.ROOT, "%+.1f", 100 * v);
  }

  private static String pointsInterval(Interval i) {
    return i == null
        ? "n/a"
        : String.format(Locale.ROOT, "[%+.1f, %+.1f]", 100 * i.lower(), 100 * i.upper());
  }
}
