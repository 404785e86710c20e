package dev.asa.integrity;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.asa.agreement.InvalidDocumentException;
import dev.asa.agreement.StrictJson;
import dev.asa.json.Json;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.Objects;
import java.util.Optional;

/**
 * How far an evaluator's scores lie from reference scores (a canary's known score, or the median of
 * the other evaluators of the same deliverable), over some samples. The sums are kept exact so that
 * deviations of different periods add up to the deviation of the whole, in any order.
 *
 * @param samples how many scores were compared
 * @param absoluteSum the sum of |score - reference|
 * @param signedSum the sum of (score - reference): positive for a lenient judge, negative for a
 *     harsh one
 */
public record Deviation(int samples, BigDecimal absoluteSum, BigDecimal signedSum) {

  /** No sample yet. */
  public static final Deviation NONE = new Deviation(0, BigDecimal.ZERO, BigDecimal.ZERO);

  /** Means are shown to two decimals (score points). */
  public static final int SCALE = 2;

  public Deviation {
    Objects.requireNonNull(absoluteSum, "absoluteSum");
    Objects.requireNonNull(signedSum, "signedSum");
    if (samples < 0 || absoluteSum.signum() < 0) {
      throw new IllegalArgumentException("a deviation has no negative samples or absolute sum");
    }
    if (samples == 0 && (absoluteSum.signum() != 0 || signedSum.signum() != 0)) {
      throw new IllegalArgumentException("a deviation over no sample is zero");
    }
    if (signedSum.abs().compareTo(absoluteSum) > 0) {
      throw new IllegalArgumentException("|signedSum| cannot exceed absoluteSum");
    }
  }

  /** One score against its reference. */
  public static Deviation of(BigDecimal score, BigDecimal reference) {
    BigDecimal d = score.subtract(reference);
    return new Deviation(1, d.abs(), d);
  }

  public Deviation plus(Deviation other) {
    return new Deviation(
        Math.addExact(samples, other.samples),
        absoluteSum.add(other.absoluteSum),
        signedSum.add(other.signedSum));
  }

  /** The mean absolute deviation in score points; empty without samples. */
  public Optional<BigDecimal> meanAbsolute() {
    return mean(absoluteSum);
  }

  /**
   * The mean signed deviation: above 0 the judge is lenient, below 0 harsh; empty without samples.
   */
  public Optional<BigDecimal> bias() {
    return mean(signedSum);
  }

  private Optional<BigDecimal> mean(BigDecimal sum) {
    if (samples == 0) {
      return Optional.empty();
    }
    return Optional.of(sum.divide(BigDecimal.valueOf(samples), SCALE, RoundingMode.HALF_EVEN));
  }

  /**
   * {@code {"samples", "mean_absolute", "bias"}} for records and reports (means only with samples).
   */
  public ObjectNode toJson() {
    ObjectNode o = Json.object();
    o.put("samples", samples);
    meanAbsolute().ifPresent(m -> o.put("mean_absolute", m));
    bias().ifPresent(b -> o.put("bias", b));
    return o;
  }

  /**
   * The exact form a store keeps: {@code {"samples", "absolute_sum", "signed_sum"}}, the sums as
   * decimal strings. The means {@link #toJson} shows are rounded and cannot be added up again; the
   * sums can, so that a record updated a thousand times is still exact.
   */
  public ObjectNode toStored() {
    ObjectNode o = Json.object();
    o.put("samples", samples);
    o.put("absolute_sum", absoluteSum.toPlainString());
    o.put("signed_sum", signedSum.toPlainString());
    return o;
  }

  /**
   * Reads what {@link #toStored} wrote.
   *
   * @param at the pointer of the stored form, for messages
   * @throws InvalidDocumentException when it is not such a form
   */
  public static Deviation fromStored(JsonNode stored, String at) {
    StrictJson json = StrictJson.failFast();
    ObjectNode o = json.object(stored, at, "a stored deviation");
    json.allowOnly(o, at, "samples", "absolute_sum", "signed_sum");
    int samples = json.integer(o, at, "samples", 0, Integer.MAX_VALUE);
    BigDecimal absolute = decimal(json, o, at, "absolute_sum");
    BigDecimal signed = decimal(json, o, at, "signed_sum");
    try {
      return new Deviation(samples, absolute, signed);
    } catch (IllegalArgumentException e) {
      throw new InvalidDocumentException(at, e.getMessage());
    }
  }

  private static BigDecimal decimal(StrictJson json, ObjectNode o, String at, String member) {
    String text = json.text(o, at, member, "an exact decimal as a string, e.g. \"12.5\"");
    try {
      return new BigDecimal(text);
    } catch (NumberFormatException e) {
      throw new InvalidDocumentException(
          StrictJson.child(at, member), "must be a decimal such as \"12.5\", found '" + text + "'");
    }
  }
}
