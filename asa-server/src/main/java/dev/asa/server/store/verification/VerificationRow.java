package dev.asa.server.store.verification;

import com.fasterxml.jackson.databind.JsonNode;
import dev.asa.json.Json;
import java.math.BigDecimal;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Objects;

/**
 * The outcome of one verification run.
 *
 * @param agreementId null for a standalone verification (no agreement involved)
 * @param result JSON text
 * @param composite the result's composite score ({@code composite.score}), in a column of its own
 *     so that a provider's past scores are read without parsing results; null when it has none
 */
public record VerificationRow(
    String id,
    String agreementId,
    String deliverableHash,
    String result,
    BigDecimal composite,
    Instant createdAt) {

  public VerificationRow {
    Objects.requireNonNull(id, "id");
    Objects.requireNonNull(result, "result");
    createdAt = Objects.requireNonNull(createdAt, "createdAt").truncatedTo(ChronoUnit.MILLIS);
  }

  /** The row of a result, with its composite score taken from it. */
  public static VerificationRow of(
      String id, String agreementId, String deliverableHash, JsonNode result, Instant createdAt) {
    JsonNode score = result.path("composite").path("score");
    return new VerificationRow(
        id,
        agreementId,
        deliverableHash,
        Json.write(result),
        score.isNumber() ? score.decimalValue() : null,
        createdAt);
  }
}
