package dev.asa.scoring;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.asa.agreement.SeriesGuarantee;
import dev.asa.json.Json;
import java.math.BigDecimal;
import java.math.MathContext;
import java.math.RoundingMode;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Judges a probabilistic guarantee over the provider's series of deliveries (see {@link
 * SeriesGuarantee}). Until the series is long enough the guarantee is reported as not yet evaluable
 * ({@code met: null}), never as met.
 */
public final class GuaranteeCheck {

  /**
   * The name under which the outcome is offered to quality gates: {@code {"condition":
   * "guarantee_met"}}.
   */
  public static final String CHECK = "guarantee_met";

  private static final BigDecimal HUNDRED = BigDecimal.valueOf(100);

  private GuaranteeCheck() {}

  /** One delivery of the series: whether it passed, and its dimension scores. */
  public record Delivery(boolean passed, Map<String, BigDecimal> scores) {
    public Delivery {
      scores = Map.copyOf(scores);
    }
  }

  /**
   * @param met null while the series is shorter than {@code min_deliveries}
   * @param value pass@k as a percentage, or the percentage of deliveries at or above the threshold
   * @param deliveries how many deliveries were counted (the newest, up to the window)
   */
  public record Outcome(
      SeriesGuarantee guarantee, Boolean met, BigDecimal value, int deliveries, String evidence) {
    public Outcome {
      Objects.requireNonNull(guarantee, "guarantee");
      Objects.requireNonNull(evidence, "evidence");
    }

    public CheckResult asCheck() {
      return new CheckResult(Boolean.TRUE.equals(met), evidence);
    }

    public JsonNode toJson() {
      ObjectNode o = Json.object();
      o.set("terms", guarantee.toJson());
      if (met == null) {
        o.putNull("met");
      } else {
        o.put("met", met);
      }
      if (value == null) {
        o.putNull("value");
      } else {
        o.put("value", Decimals.normalized(value));
      }
      o.put("deliveries", deliveries);
      o.put("evidence", evidence);
      return o;
    }
  }

  /**
   * @param series the provider's deliveries, oldest first, the one being verified last
   */
  public static Outcome evaluate(SeriesGuarantee guarantee, List<Delivery> series) {
    List<Delivery> counted =
        series.subList(Math.max(0, series.size() - guarantee.window()), series.size());
    int n = counted.size();
    return switch (guarantee) {
      case SeriesGuarantee.PassAtK g -> passAtK(g, counted, n);
      case SeriesGuarantee.Percentile g -> percentile(g, counted);
    };
  }

  private static Outcome passAtK(SeriesGuarantee.PassAtK g, List<Delivery> counted, int n) {
    if (n < g.minDeliveries()) {
      return new Outcome(
          g,
          null,
          null,
          n,
          "pass@"
              + g.k()
              + " needs "
              + g.minDeliveries()
              + " deliveries; the series has "
              + n
              + " so far");
    }
    int c = (int) counted.stream().filter(Delivery::passed).count();
    BigDecimal value =
        HUNDRED
            .multiply(BigDecimal.ONE.subtract(noneOfKPass(n, c, g.k())))
            .setScale(3, RoundingMode.HALF_EVEN);
    boolean met = value.compareTo(g.threshold()) >= 0;
    String evidence =
        c
            + " of the last "
            + n
            + " deliveries passed: pass@"
            + g.k()
            + " = "
            + Decimals.normalized(value).toPlainString()
            + "% (1 - C("
            + (n - c)
            + ","
            + g.k()
            + ")/C("
            + n
            + ","
            + g.k()
            + ")), "
            + (met ? "at least" : "below")
            + " the guaranteed "
            + Decimals.normalized(g.threshold()).toPlainString()
            + "%";
    return new Outcome(g, met, value, n, evidence);
  }

  /**
   * C(n-c, k) / C(n, k) = product over i < k of (n-c-i) / (n-i): the chance that k draws without
   * replacement all fail.
   */
  static BigDecimal noneOfKPass(int n, int c, int k) {
    if (n - c < k) {
      return BigDecimal.ZERO;
    }
    BigDecimal p = BigDecimal.ONE;
    for (int i = 0; i < k; i++) {
      p =
          p.multiply(BigDecimal.valueOf(n - c - i))
              .divide(BigDecimal.valueOf(n - i), MathContext.DECIMAL64);
    }
    return p;
  }

  private static Outcome percentile(SeriesGuarantee.Percentile g, List<Delivery> counted) {
    List<BigDecimal> scores =
        counted.stream().map(d -> d.scores().get(g.dimension())).filter(Objects::nonNull).toList();
    int n = scores.size();
    String name =
        "p"
            + g.percentile()
            + " "
            + g.dimension()
            + " >= "
            + Decimals.normalized(g.threshold()).toPlainString();
    if (n < g.minDeliveries()) {
      return new Outcome(
          g,
          null,
          null,
          n,
          name
              + " needs "
              + g.minDeliveries()
              + " scored deliveries; the series has "
              + n
              + " so far");
    }
    long atLeast = scores.stream().filter(s -> s.compareTo(g.threshold()) >= 0).count();
    BigDecimal share =
        HUNDRED
            .multiply(BigDecimal.valueOf(atLeast))
            .divide(BigDecimal.valueOf(n), 3, RoundingMode.HALF_EVEN);
    // Met when at least percentile% of the deliveries reach the threshold, compared exactly:
    // atLeast/n >= p/100.
    boolean met = atLeast * 100 >= (long) g.percentile() * n;
    String evidence =
        name
            + ": "
            + atLeast
            + " of the last "
            + n
            + " deliveries ("
            + Decimals.normalized(share).toPlainString()
            + "%) scored at least "
            + Decimals.normalized(g.threshold()).toPlainString()
            + " on "
            + g.dimension()
            + ", "
            + (met ? "at least" : "fewer than")
            + " the guaranteed "
            + g.percentile()
            + "%";
    return new Outcome(g, met, share, n, evidence);
  }
}
