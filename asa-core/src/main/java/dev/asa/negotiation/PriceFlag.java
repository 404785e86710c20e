package dev.asa.negotiation;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.asa.json.Json;
import java.math.BigDecimal;
import java.util.Objects;

/**
 * A price outside the band around the market median. Flagged, not blocked (whitepaper section 7.3):
 * both parties see it and it is recorded in the agreement's metadata.
 *
 * @param ratio amount / median, rounded to 4 decimals (for display; the decision used exact values)
 */
public record PriceFlag(BigDecimal amount, BigDecimal median, String source, BigDecimal ratio) {
  public PriceFlag {
    Objects.requireNonNull(amount, "amount");
    Objects.requireNonNull(median, "median");
    Objects.requireNonNull(source, "source");
    Objects.requireNonNull(ratio, "ratio");
  }

  public ObjectNode toJson() {
    ObjectNode o = Json.object();
    o.put("amount", amount.toPlainString());
    o.put("median", median.toPlainString());
    o.put("source", source);
    o.put("ratio", ratio.toPlainString());
    return o;
  }

  static PriceFlag fromJson(JsonNode o) {
    return new PriceFlag(
        new BigDecimal(o.path("amount").asText()),
        new BigDecimal(o.path("median").asText()),
        o.path("source").asText(),
        new BigDecimal(o.path("ratio").asText()));
  }
}
