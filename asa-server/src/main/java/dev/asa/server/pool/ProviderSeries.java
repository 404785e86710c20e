package dev.asa.server.pool;

import com.fasterxml.jackson.databind.JsonNode;
import dev.asa.document.Agreement;
import dev.asa.json.Json;
import dev.asa.scoring.GuaranteeCheck;
import dev.asa.server.store.verification.VerificationRow;
import dev.asa.server.store.verification.VerificationStore;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * A provider's series of verified deliveries to the same client for the same service type, which a
 * probabilistic guarantee (pass@k, a percentile) is judged over.
 */
public final class ProviderSeries {
  private final VerificationStore verifications;

  public ProviderSeries(VerificationStore verifications) {
    this.verifications = verifications;
  }

  /**
   * The provider's earlier verified deliveries in the same series (same client, same service type),
   * oldest first, at most {@code window}.
   */
  public List<GuaranteeCheck.Delivery> earlierDeliveries(Agreement a, int window) {
    String provider = a.terms().parties().provider().identity().value();
    String client = a.terms().parties().client().identity().value();
    String serviceType = a.terms().service().type();
    List<GuaranteeCheck.Delivery> series = new ArrayList<>();
    for (VerificationRow row :
        verifications.series(provider, client, serviceType, a.id(), window)) {
      JsonNode result = Json.parseTrusted(row.result());
      Map<String, BigDecimal> scores = new HashMap<>();
      for (JsonNode d : result.path("dimensions")) {
        if (d.path("score").isNumber()) {
          scores.put(d.path("name").asText(), d.path("score").decimalValue());
        }
      }
      series.add(
          new GuaranteeCheck.Delivery(
              "PASS".equals(result.path("determination").path("result").asText()), scores));
    }
    return series;
  }
}
