package dev.asa.bench;

import dev.asa.agreement.CompositeMethod;
import dev.asa.agreement.Dimension;
import dev.asa.agreement.MetricType;
import dev.asa.agreement.QualityCriteria;
import dev.asa.agreement.QualityGate;
import dev.asa.agreement.Service;
import dev.asa.agreement.Slo;
import dev.asa.agreement.SloOperator;
import dev.asa.evaluators.Deliverable;
import dev.asa.evaluators.Evaluation;
import dev.asa.evaluators.EvaluationTask;
import dev.asa.evaluators.StructuralEvaluator;
import dev.asa.evaluators.offline.EmbeddingEvaluator;
import java.math.BigDecimal;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * How fast the evaluators run in process, on a markdown deliverable of about 1,000 tokens (about
 * 750 words, 4,000 characters): structural verifications per second on one thread, and the latency
 * of one offline semantic evaluation (all-MiniLM-L6-v2 quantized: relevance, coverage, sources,
 * writing). A benchmark that prints numbers, not a test: {@code ./asa bench-evaluators}.
 *
 * <p>Arguments: {@code [--seconds N] [--warmup N]} for each of the two measurements (defaults 10
 * and 5).
 */
public final class EvaluatorBenchmark {

  static final String REQUEST =
      "Write a research brief on air-source heat pumps in cold climates: report efficiency at low temperatures, "
          + "compare running costs with gas and oil heating, and explain the main limitations with recommendations. Cite sources.";

  private static final List<String> SENTENCES =
      List.of(
          "Air-source heat pumps move heat from outdoor air into a building, even when the air is well below freezing.",
          "Their efficiency is measured by the coefficient of performance, the heat delivered per unit of electricity.",
          "Field monitoring in Canada and Scandinavia shows seasonal values between 2.2 and 3.0 for cold-climate units [1].",
          "At minus twenty-five degrees the best variable-speed units still deliver about one and a half times their input.",
          "Defrost cycles cost between five and ten percent of seasonal output in humid cold climates.",
          "Running costs depend mostly on the ratio of electricity prices to gas or oil prices per kilowatt-hour [2].",
          "Where electricity costs less than three times as much as gas, a well-sized heat pump is cheaper to run.",
          "Installation remains the main barrier, with whole-house systems costing eight to eighteen thousand dollars.",
          "Undersized units lean on backup resistance heat in cold snaps, which raises bills and peak grid demand.",
          "Homes with high heat loss may need air sealing and insulation before a heat pump can keep them warm.",
          "Sizing for the local design temperature rather than the average winter avoids most of these failures.",
          "Noise and the space needed for the outdoor unit matter in dense neighbourhoods and terraced streets.",
          "Subsidies in Norway, Maine and Quebec cut the upfront cost by a quarter to a half for most households.",
          "Refrigerants with low global warming potential are replacing older ones as regulations tighten [3].");

  public static void main(String[] args) throws Exception {
    Map<String, String> opts = options(args);
    int seconds = Integer.parseInt(opts.getOrDefault("seconds", "10"));
    int warmup = Integer.parseInt(opts.getOrDefault("warmup", "5"));
    String deliverable = deliverable();
    System.out.printf(
        "ASA evaluator benchmark: %d s warm-up, %d s measured, %d cores, Java %s%n",
        warmup, seconds, Runtime.getRuntime().availableProcessors(), Runtime.version());
    System.out.printf(
        "deliverable: markdown, %d words, %,d characters (~%d tokens at 4 characters a token)%n",
        deliverable.split("\\s+").length, deliverable.length(), deliverable.length() / 4);
    structural(deliverable, warmup, seconds);
    semantic(deliverable, warmup, seconds);
  }

  private static void structural(String content, int warmup, int seconds) {
    StructuralEvaluator evaluator = new StructuralEvaluator();
    QualityCriteria criteria =
        criteria(
            List.of("Performance at low temperatures", "Costs", "Limitations", "References"),
            dim("format_compliance"),
            dim("timeliness"),
            dim("accuracy"));
    Service.Constraints limits = new Service.Constraints(2_000L, null, null);
    EvaluationTask task =
        new EvaluationTask(
            Deliverable.of(content, "markdown", Instant.now()),
            REQUEST,
            "text/research",
            criteria,
            limits,
            Instant.now().plusSeconds(3600),
            null,
            null,
            null);
    run(() -> evaluator.evaluate(task), warmup);
    long n = 0;
    long start = System.nanoTime();
    long end = start + seconds * 1_000_000_000L;
    Evaluation last = null;
    while (System.nanoTime() < end) {
      for (int i = 0; i < 100; i++) {
        last = evaluator.evaluate(task);
      }
      n += 100;
    }
    double elapsed = (System.nanoTime() - start) / 1e9;
    System.out.println();
    System.out.printf(
        "structural (%d checks: %s), one thread: %,.0f verifications/s (%,d in %.1f s, %.1f us each)%n",
        last.checks().size(),
        String.join(", ", last.checks().keySet()),
        n / elapsed,
        n,
        elapsed,
        1e6 * elapsed / n);
  }

  private static void semantic(String content, int warmup, int seconds) throws Exception {
    EmbeddingEvaluator evaluator = new EmbeddingEvaluator();
    long loadStart = System.nanoTime();
    evaluator.warmUp();
    double loadMs = (System.nanoTime() - loadStart) / 1e6;
    QualityCriteria criteria =
        criteria(
            List.of(),
            dim("accuracy"),
            dim("completeness"),
            dim("relevance"),
            dim("sources"),
            dim("writing"));
    EvaluationTask task =
        EvaluationTask.of(
            Deliverable.of(content, "markdown", Instant.now()), REQUEST, "text/research", criteria);
    run(() -> evaluator.evaluate(task), warmup);
    List<Double> ms = new ArrayList<>();
    long end = System.nanoTime() + seconds * 1_000_000_000L;
    Evaluation last = null;
    while (System.nanoTime() < end || ms.size() < 10) {
      long t = System.nanoTime();
      last = evaluator.evaluate(task);
      ms.add((System.nanoTime() - t) / 1e6);
    }
    double[] sorted = ms.stream().mapToDouble(Double::doubleValue).sorted().toArray();
    System.out.println();
    System.out.printf(
        "offline semantic (%s), model load + first call %.0f ms%n",
        EmbeddingEvaluator.MODEL, loadMs);
    System.out.printf(
        "  per ~1,000-token deliverable (%d word pieces embedded): p50 %.1f ms, p90 %.1f ms, mean %.1f ms over %d runs%n",
        last.usage().inputTokens(),
        pct(sorted, 0.5),
        pct(sorted, 0.9),
        Arrays.stream(sorted).average().orElseThrow(),
        sorted.length);
    last.dimensions()
        .forEach((name, d) ->
            System.out.printf(
                "  %-12s %s%n",
                name, d.isEvaluated() ? d.score().toPlainString() : "not evaluated"));
  }

  interface Body {
    void run() throws Exception;
  }

  /**
   * Runs the body repeatedly for the given seconds, so that the JIT has compiled it before we
   * measure.
   */
  private static void run(Body body, int seconds) {
    long end = System.nanoTime() + seconds * 1_000_000_000L;
    try {
      do {
        body.run();
      } while (System.nanoTime() < end);
    } catch (Exception e) {
      throw new IllegalStateException(e);
    }
  }

  /**
   * About 750 words in four sections with a reference list; sentences cycle so the text is not one
   * line repeated.
   */
  static String deliverable() {
    List<String> headings = List.of("Performance at low temperatures", "Costs", "Limitations");
    StringBuilder b = new StringBuilder("# Air-source heat pumps in cold climates\n\n");
    int s = 0;
    for (String h : headings) {
      b.append("## ").append(h).append("\n\n");
      for (int p = 0; p < 3; p++) {
        for (int i = 0; i < 4; i++) {
          b.append(SENTENCES.get(s++ % SENTENCES.size())).append(' ');
        }
        b.append("\n\n");
      }
    }
    b.append("## Recommendations\n\n");
    for (int i = 0; i < 6; i++) {
      b.append(SENTENCES.get((s + 5 * i) % SENTENCES.size())).append(' ');
    }
    b.append("\n\n## References\n\n")
        .append(
            "- [1] Gibb et al. (2023). Heat pump performance in cold climates. https://www.raponline.org/\n")
        .append(
            "- [2] IEA (2022). The future of heat pumps. https://www.iea.org/reports/the-future-of-heat-pumps\n")
        .append(
            "- [3] Kigali Amendment (2016). https://ozone.unep.org/treaties/montreal-protocol\n");
    return b.toString();
  }

  private static Dimension dim(String name) {
    return new Dimension(
        name,
        new BigDecimal("0.2"),
        MetricType.PERCENTAGE,
        new Slo(SloOperator.GTE, new Slo.Target.Number(new BigDecimal("70"))),
        null,
        null,
        null);
  }

  private static QualityCriteria criteria(List<String> sections, Dimension... dims) {
    return new QualityCriteria(
        List.of(dims),
        new BigDecimal("70"),
        CompositeMethod.WEIGHTED_AVERAGE,
        QualityCriteria.GuaranteeType.PROBABILISTIC,
        List.of(),
        QualityGate.Logic.ALL_MUST_PASS,
        null,
        sections);
  }

  private static double pct(double[] sorted, double p) {
    return sorted[Math.min(sorted.length - 1, (int) Math.ceil(p * sorted.length) - 1)];
  }

  private static Map<String, String> options(String[] args) {
    Map<String, String> m = new LinkedHashMap<>();
    for (int i = 0; i < args.length; i++) {
      if (!args[i].startsWith("--") || i + 1 >= args.length) {
        throw new IllegalArgumentException(
            "usage: [--seconds N] [--warmup N]; bad: " + Arrays.toString(args));
      }
      m.put(args[i].substring(2), args[++i]);
    }
    return m;
  }
}
