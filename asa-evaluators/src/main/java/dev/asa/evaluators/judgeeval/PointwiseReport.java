package dev.asa.evaluators.judgeeval;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.asa.json.Json;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * How well the judge's scores rank the answers the way people's scores do: Spearman's coefficient
 * (ties averaged) and Kendall's tau-b, overall and per category, each with its bootstrap interval;
 * with the baseline, the same coefficients of the answers' lengths; and the coefficients of each
 * dimension alone, which tell an operator which dimension to trust on their data.
 *
 * @param outcomes each record with its score, in the file's order
 * @param categories one group per category, by name; empty when the file has none
 * @param dimensions one correlation per dimension the judge scored, in the judge's order; empty for
 *     a judge that gives only a composite
 */
public record PointwiseReport(
    Bootstrap bootstrap,
    boolean withBaseline,
    List<Outcome> outcomes,
    Group overall,
    List<Group> categories,
    List<DimensionCorrelation> dimensions)
    implements JudgeReport {

  public PointwiseReport {
    outcomes = List.copyOf(outcomes);
    categories = List.copyOf(categories);
    dimensions = List.copyOf(dimensions);
  }

  /** One record judged: the judge's score, each dimension's, and the answer's length. */
  public record Outcome(
      LabelledRecord.Pointwise record, double score, int length, Map<String, Double> dimensions) {}

  /**
   * How well one dimension alone ranks the answers the way people's scores do.
   *
   * @param n the records whose answer has a score on it; the others are left out
   */
  public record DimensionCorrelation(String dimension, int n, Correlation judge) {}

  /** Both rank correlations with the people's scores. */
  public record Correlation(Estimate spearman, Estimate kendallTauB) {}

  /**
   * The figures of a set of records.
   *
   * @param category null for all records
   * @param baseline the length's correlations; null without the baseline
   */
  public record Group(String category, int n, Correlation judge, Correlation baseline) {}

  @Override
  public int size() {
    return outcomes.size();
  }

  /**
   * The report of scored records.
   *
   * @param scores each record's one answer as scored
   */
  public static PointwiseReport of(
      List<LabelledRecord.Pointwise> records,
      List<List<Scored>> scores,
      Bootstrap bootstrap,
      boolean baseline) {
    List<Outcome> outcomes = new ArrayList<>();
    for (int i = 0; i < records.size(); i++) {
      LabelledRecord.Pointwise r = records.get(i);
      Scored s = scores.get(i).getFirst();
      outcomes.add(new Outcome(r, s.composite(), Lengths.of(r.answer().content()), s.dimensions()));
    }
    List<Group> categories = new ArrayList<>();
    for (Map.Entry<String, int[]> c : Categories.of(records).entrySet()) {
      List<Outcome> in = new ArrayList<>();
      for (int i : c.getValue()) {
        in.add(outcomes.get(i));
      }
      categories.add(group(c.getKey(), in, bootstrap, baseline));
    }
    return new PointwiseReport(
        bootstrap,
        baseline,
        outcomes,
        group(null, outcomes, bootstrap, baseline),
        categories,
        dimensions(outcomes, bootstrap));
  }

  private static List<DimensionCorrelation> dimensions(
      List<Outcome> outcomes, Bootstrap bootstrap) {
    Set<String> names = new LinkedHashSet<>();
    outcomes.forEach(o -> names.addAll(o.dimensions().keySet()));
    List<DimensionCorrelation> correlations = new ArrayList<>();
    for (String name : names) {
      List<Outcome> scored =
          outcomes.stream().filter(o -> o.dimensions().containsKey(name)).toList();
      double[] x = scored.stream().mapToDouble(o -> o.dimensions().get(name)).toArray();
      double[] human = scored.stream().mapToDouble(o -> o.record().humanScore()).toArray();
      correlations.add(new DimensionCorrelation(name, x.length, correlation(x, human, bootstrap)));
    }
    return correlations;
  }

  private static Group group(
      String category, List<Outcome> outcomes, Bootstrap bootstrap, boolean baseline) {
    int n = outcomes.size();
    double[] human = new double[n];
    double[] judge = new double[n];
    double[] length = new double[n];
    for (int i = 0; i < n; i++) {
      human[i] = outcomes.get(i).record().humanScore();
      judge[i] = outcomes.get(i).score();
      length[i] = outcomes.get(i).length();
    }
    return new Group(
        category,
        n,
        correlation(judge, human, bootstrap),
        baseline ? correlation(length, human, bootstrap) : null);
  }

  private static Correlation correlation(double[] x, double[] human, Bootstrap bootstrap) {
    int n = x.length;
    return new Correlation(
        new Estimate(
            Spearman.of(x, human), bootstrap.interval(n, idx -> Spearman.of(x, human, idx))),
        new Estimate(
            KendallTauB.of(x, human), bootstrap.interval(n, idx -> KendallTauB.of(x, human, idx))));
  }

  @Override
  public ObjectNode toJson() {
    ObjectNode root =
        ReportJson.head(
            "pointwise",
            size(),
            "score",
            "the composite of each answer, ranked against human_score",
            withBaseline ? "length: the answer's length in Unicode characters" : null,
            bootstrap);
    root.set("overall", groupJson(overall));
    ArrayNode cs = root.putArray("categories");
    categories.forEach(g -> cs.add(groupJson(g)));
    ArrayNode ds = root.putArray("dimensions");
    for (DimensionCorrelation d : dimensions) {
      ReportJson.dimension(ds, d.dimension(), d.n(), correlationJson(d.judge()));
    }
    ArrayNode rs = root.putArray("records");
    for (Outcome o : outcomes) {
      ObjectNode r = ReportJson.record(rs, o.record());
      r.put("human_score", o.record().humanScore());
      r.put("score", o.score());
      r.put("length", o.length());
      r.set("dimensions", Json.mapper().valueToTree(o.dimensions()));
    }
    return root;
  }

  private static ObjectNode groupJson(Group g) {
    ObjectNode o = ReportJson.group(g.category(), g.n());
    o.set("judge", correlationJson(g.judge()));
    if (g.baseline() != null) {
      o.set("length_baseline", correlationJson(g.baseline()));
    }
    return o;
  }

  private static ObjectNode correlationJson(Correlation c) {
    ObjectNode o = Json.object();
    o.set("spearman", c.spearman().toJson());
    o.set("kendall_tau_b", c.kendallTauB().toJson());
    return o;
  }
}
