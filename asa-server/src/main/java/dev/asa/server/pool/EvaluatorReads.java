package dev.asa.server.pool;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.asa.access.Caller;
import dev.asa.access.RegistryReader;
import dev.asa.json.Json;
import dev.asa.server.store.pool.EvaluatorRow;
import dev.asa.server.work.NotFoundException;
import java.util.List;

/**
 * {@code GET /evaluators} and {@code GET /evaluators/{key}}: the registry for any signed caller.
 * Parties choose and check evaluators by it (mutual and marketplace selection), and an evaluator
 * sees what it lacks to qualify. What names a party or times an evaluator's work (rotation streaks
 * by provider key, calibration by dimension, {@code updated_at}, {@code history}, declared
 * conflicts) only the evaluator itself and the operator see ({@link RegistryReader}); no agreement
 * and no canary is revealed to anyone.
 */
public final class EvaluatorReads {
  private final EvaluatorRegistry registry;

  EvaluatorReads(EvaluatorRegistry registry) {
    this.registry = registry;
  }

  /** How many points of an evaluator's record over time {@link #one} shows, the latest. */
  static final int HISTORY_POINTS = 100;

  /**
   * One evaluator by its key (base64url), with its record over time when {@code caller} is the
   * evaluator itself or the operator.
   */
  public ObjectNode one(String keyId, Caller caller) {
    EvaluatorRow row =
        registry
            .find(keyId)
            .orElseThrow(() ->
                new NotFoundException(
                    "no evaluator is registered with key "
                        + keyId
                        + "; an evaluator registers itself with POST /evaluators, signed with that"
                        + " key"));
    RegistryReader reader = RegistryReader.of(caller, row.member().key());
    ObjectNode view = view(row, reader);
    return reader.seesParties()
        ? EvaluatorViews.withHistory(view, registry.history(keyId, HISTORY_POINTS))
        : view;
  }

  /**
   * One page in key order: {@code {"evaluators": [...], "next_cursor"?}}.
   *
   * @param serviceType only evaluators of this service type; null for all
   * @param cursor the {@code next_cursor} of the previous page, or null
   * @param caller who reads: each entry shows what this caller may see of it
   */
  public ObjectNode list(String serviceType, String cursor, int limit, Caller caller) {
    List<EvaluatorRow> rows = registry.list(serviceType, cursor, limit + 1);
    ObjectNode o = Json.object();
    ArrayNode list = o.putArray("evaluators");
    rows.stream()
        .limit(limit)
        .forEach(row -> list.add(view(row, RegistryReader.of(caller, row.member().key()))));
    if (rows.size() > limit) {
      o.put("next_cursor", rows.get(limit - 1).keyId());
    }
    return o;
  }

  private ObjectNode view(EvaluatorRow row, RegistryReader reader) {
    return EvaluatorViews.of(row, registry.qualificationShown(row, reader), reader);
  }
}
