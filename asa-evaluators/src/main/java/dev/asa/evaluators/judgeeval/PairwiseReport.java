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
 * How often the judge picked the answer people preferred, overall and per category, each with its
 * bootstrap interval; with the baseline, how often the longer answer did, and the difference
 * between the two (paired: the same resamples); and how often each dimension alone would have
 * picked it, which tells an operator which dimension to trust on their data and which misleads.
 *
 * @param outcomes each record with its scores and picks, in the file's order
 * @param categories one group per category, by name; empty when the file has none
 * @param dimensions one rate per dimension the judge scored, in the judge's order; empty for a
 *     judge that gives only a composite
 */
public record PairwiseReport(
    Bootstrap bootstrap,
    boolean withBaseline,
    List<Outcome> outcomes,
    Group overall,
    List<Group> categories,
    List<DimensionRate> dimensions)
    implements JudgeReport {

  public PairwiseReport {
    outcomes = List.copyOf(outcomes);
    categories = List.copyOf(categories);
    dimensions = List.copyOf(dimensions);
  }

  /**
   * One record judged.
   *
   * @param pick the answer with the higher score; null for a tie (a miss)
   * @param longer the longer answer; null when they are as long (a miss for the baseline)
   * @param dimensionsA each dimension's score of answer a
   * @param dimensionsB each dimension's score of answer b
   */
  public record Outcome(
      LabelledRecord.Pairwise record,
      double scoreA,
      double scoreB,
      Preference pick,
      int lengthA,
      int lengthB,
      Preference longer,
      Map<String, Double> dimensionsA,
      Map<String, Double> dimensionsB) {

    static Outcome of(LabelledRecord.Pairwise record, Scored a, Scored b) {
      int la = Lengths.of(record.answerA().content());
      int lb = Lengths.of(record.answerB().content());
      return new Outcome(
          record,
          a.composite(),
          b.composite(),
          higher(a.composite(), b.composite()),
          la,
          lb,
          higher(la, lb),
          a.dimensions(),
          b.dimensions());
    }

    public boolean hit() {
      return pick == record.human();
    }

    public boolean lengthHit() {
      return longer == record.human();
    }

    private static Preference higher(double a, double b) {
      int c = Double.compare(a, b);
      return c > 0 ? Preference.A : c < 0 ? Preference.B : null;
    }
  }

  /**
   * An agreement rate.
   *
   * @param hits records where the pick was the people's
   * @param ties records where no answer was picked (counted as misses)
   */
  public record Rate(int hits, int ties, Estimate agreement) {}

  /**
   * The figures of a set of records.
   *
   * @param category null for all records
   * @param baseline null without the baseline
   * @param difference the judge's agreement minus the baseline's; null without the baseline
   */
  public record Group(String category, int n, Rate judge, Rate baseline, Estimate difference) {}

  /**
   * How often one dimension alone picked the answer people preferred: the answer with the higher
   * score on it, a tie a miss.
   *
   * @param n the records where both answers have a score on it; the others are left out
   */
  public record DimensionRate(String dimension, int n, Rate judge) {}

  @Override
  public int size() {
    return outcomes.size();
  }

  /**
   * The report of scored records.
   *
   * @param scores each record's two answers as scored, a then b
   */
  public static PairwiseReport of(
      List<LabelledRecord.Pairwise> records,
      List<List<Scored>> scores,
      Bootstrap bootstrap,
      boolean baseline) {
    List<Outcome> outcomes = new ArrayList<>();
    for (int i = 0; i < records.size(); i++) {
      outcomes.add(Outcome.of(records.get(i), scores.get(i).get(0), scores.get(i).get(1)));
    }
    List<Group> categories = new ArrayList<>();
    for (Map.Entry<String, int[]> c : Categories.of(records).entrySet()) {
      List<Outcome> in = new ArrayList<>();
      for (int i : c.getValue()) {
        in.add(outcomes.get(i));
      }
      categories.add(group(c.getKey(), in, bootstrap, baseline));
    }
    return new PairwiseReport(
        bootstrap,
        baseline,
        outcomes,
        group(null, outcomes, bootstrap, baseline),
        categories,
        dimensions(outcomes, bootstrap));
  }

  private static List<DimensionRate> dimensions(List<Outcome> outcomes, Bootstrap bootstrap) {
    Set<String> names = new LinkedHashSet<>();
    outcomes.forEach(o -> names.addAll(o.dimensionsA().keySet()));
    List<DimensionRate> rates = new ArrayList<>();
    for (String name : names) {
      List<Outcome> scored =
          outcomes.stream()
              .filter(o -> o.dimensionsA().containsKey(name) && o.dimensionsB().containsKey(name))
              .toList();
      boolean[] h = new boolean[scored.size()];
      int ties = 0;
      for (int i = 0; i < h.length; i++) {
        Outcome o = scored.get(i);
        Preference pick = Outcome.higher(o.dimensionsA().get(name), o.dimensionsB().get(name));
        h[i] = pick == o.record().human();
        ties += pick == null ? 1 : 0;
      }
      rates.add(new DimensionRate(name, h.length, rate(h, ties, bootstrap)));
    }
    return rates;
  }

  private static Group group(
      String category, List<Outcome> outcomes, Bootstrap bootstrap, boolean baseline) {
    int n = outcomes.size();
    boolean[] hits = new boolean[n];
    boolean[] lengthHits = new boolean[n];
    int ties = 0;
    int lengthTies = 0;
    for (int i = 0; i < n; i++) {
      Outcome o = outcomes.get(i);
      hits[i] = o.hit();
      lengthHits[i] = o.lengthHit();
      ties += o.pick() == null ? 1 : 0;
      lengthTies += o.longer() == null ? 1 : 0;
    }
    Rate judge = rate(hits, ties, bootstrap);
    if (!baseline) {
      return new Group(category, n, judge, null, null);
    }
    Rate length = rate(lengthHits, lengthTies, bootstrap);
    Estimate difference =
        new Estimate(
            judge.agreement().value() - length.agreement().value(),
            bootstrap.interval(n, idx -> Agreement.of(hits, idx) - Agreement.of(lengthHits, idx)));
    return new Group(category, n, judge, length, difference);
  }

  private static Rate rate(boolean[] hits, int ties, Bootstrap bootstrap) {
    int count = 0;
    for (boolean h : hits) {
      count += h ? 1 : 0;
    }
    return new Rate(
        count,
        ties,
        new Estimate(
            Agreement.of(hits), bootstrap.interval(hits.length, idx -> Agreement.of(hits, idx))));
  }

  @Override
  public ObjectNode toJson() {
    ObjectNode root =
        ReportJson.head(
            "pairwise",
            size(),
            "pick",
            "the answer with the higher composite; a tie counts as a miss",
            withBaseline
                ? "length: the longer answer (Unicode characters) wins; a tie is a miss"
                : null,
            bootstrap);
    root.set("overall", groupJson(overall));
    ArrayNode cs = root.putArray("categories");
    categories.forEach(g -> cs.add(groupJson(g)));
    ArrayNode ds = root.putArray("dimensions");
    for (DimensionRate d : dimensions) {
      ReportJson.dimension(ds, d.dimension(), d.n(), rateJson(d.judge()));
    }
    ArrayNode rs = root.putArray("records");
    for (Outcome o : outcomes) {
      ObjectNode r = ReportJson.record(rs, o.record());
      r.put("human", o.record().human().wire());
      r.put("score_a", o.scoreA());
      r.put("score_b", o.scoreB());
      putPick(r, "pick", o.pick());
      r.put("hit", o.hit());
      r.put("length_a", o.lengthA());
      r.put("length_b", o.lengthB());
      r.set("dimensions_a", Json.mapper().valueToTree(o.dimensionsA()));
      r.set("dimensions_b", Json.mapper().valueToTree(o.dimensionsB()));
      if (withBaseline) {
        putPick(r, "longer", o.longer());
        r.put("length_hit", o.lengthHit());
      }
    }
    return root;
  }

  private static void putPick(ObjectNode o, String name, Preference p) {
    if (p == null) {
      o.put(name, "tie");
    } else {
      o.put(name, p.wire());
    }
  }

  private static ObjectNode groupJson(Group g) {
    ObjectNode o = ReportJson.group(g.category(), g.n());
    o.set("judge", rateJson(g.judge()));
    if (g.baseline() != null) {
      o.set("length_baseline", rateJson(g.baseline()));
      o.set("difference", g.difference().toJson());
    }
    return o;
  }

  private static ObjectNode rateJson(Rate r) {
    ObjectNode o = r.agreement().toJson();
    ObjectNode out = Json.object();
    out.set("agreement", o.get("value"));
    out.set("ci", o.get("ci"));
    out.put("hits", r.hits());
    out.put("ties", r.ties());
    return out;
  }
}
