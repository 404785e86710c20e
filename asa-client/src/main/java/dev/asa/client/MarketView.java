package dev.asa.client;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.math.BigDecimal;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * The market median prices of a service type ({@code GET /market/{service_type}}), from the
 * server's closed agreements: one median per currency once enough distinct client-provider pairs
 * have closed agreements of that type, and negotiations are price-flagged against it.
 *
 * @param serviceType the service type asked about, e.g. {@code general}
 * @param minSample how many distinct client-provider pairs a median needs
 * @param medians one per currency that has enough pairs; empty when none has
 * @param note why there is no median, when there is none
 * @param json the whole answer, a copy
 */
public record MarketView(
    String serviceType,
    long minSample,
    List<Median> medians,
    Optional<String> note,
    ObjectNode json) {

  private static final String WHAT = "a market answer";

  /** Checks that nothing is null and keeps private copies. */
  public MarketView {
    Objects.requireNonNull(serviceType, "serviceType");
    medians = List.copyOf(medians);
    Objects.requireNonNull(note, "note");
    json = Objects.requireNonNull(json, "json").deepCopy();
  }

  /**
   * The median price in one currency.
   *
   * @param currency its currency code
   * @param medianPrice the median, an exact decimal
   * @param sample how many distinct client-provider pairs it rests on
   * @param source where the prices came from, e.g. {@code closed_agreements}
   */
  public record Median(String currency, BigDecimal medianPrice, long sample, String source) {

    /** Checks that nothing is null. */
    public Median {
      Objects.requireNonNull(currency, "currency");
      Objects.requireNonNull(medianPrice, "medianPrice");
      Objects.requireNonNull(source, "source");
    }

    static Median from(JsonNode m) {
      String what = "a median of " + WHAT;
      return new Median(
          Members.text(m, "currency", what),
          Members.decimal(m, "median_price", what),
          Members.integer(m, "sample", what),
          Members.text(m, "source", what));
    }
  }

  /**
   * Reads a market answer.
   *
   * @param answer the body of {@code GET /market/{service_type}}
   * @return the view
   * @throws IllegalArgumentException if a member named above is missing or of the wrong kind; the
   *     message names it
   */
  public static MarketView from(JsonNode answer) {
    ObjectNode o = Members.object(answer, WHAT);
    return new MarketView(
        Members.text(o, "service_type", WHAT),
        Members.integer(o, "min_sample", WHAT),
        Members.requiredObjects(o, "medians", WHAT).stream().map(Median::from).toList(),
        Members.optionalText(o, "note"),
        o);
  }

  /**
   * The whole answer, a copy: change it freely.
   *
   * @return the answer as received
   */
  @Override
  public ObjectNode json() {
    return json.deepCopy();
  }
}
