package dev.asa.facts;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.asa.json.Json;
import java.time.Instant;
import java.util.Objects;

/**
 * The latest delivery: its digest (the content itself is erased after verification or at the end).
 *
 * @param format null when neither the delivery nor the terms name one
 * @param contentUrl null for inline content
 * @param hardeningRedelivery the one re-delivery of a Shadow Scoring hardening cycle
 */
public record DeliverableFact(
    Instant deliveredAt,
    String contentHash,
    long sizeBytes,
    String format,
    String contentUrl,
    boolean hardeningRedelivery) {

  public DeliverableFact {
    Objects.requireNonNull(deliveredAt, "deliveredAt");
    Objects.requireNonNull(contentHash, "contentHash");
  }

  public ObjectNode toJson() {
    ObjectNode o = Json.object();
    o.put("delivered_at", deliveredAt.toString());
    o.put("content_hash", contentHash);
    o.put("size_bytes", sizeBytes);
    FactJson.put(o, "format", format);
    FactJson.put(o, "content_url", contentUrl);
    if (hardeningRedelivery) o.put("hardening_redelivery", true);
    return o;
  }

  static DeliverableFact fromJson(JsonNode o) {
    return new DeliverableFact(
        FactJson.instant(o, "delivered_at"),
        FactJson.text(o, "content_hash"),
        o.path("size_bytes").asLong(),
        FactJson.text(o, "format"),
        FactJson.text(o, "content_url"),
        o.path("hardening_redelivery").asBoolean(false));
  }
}
