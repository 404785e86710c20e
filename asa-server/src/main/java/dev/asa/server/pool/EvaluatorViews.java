package dev.asa.server.pool;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.asa.access.RegistryReader;
import dev.asa.integrity.Qualification;
import dev.asa.integrity.Standing;
import dev.asa.json.Json;
import dev.asa.server.store.pool.EvaluatorRow;
import dev.asa.server.store.pool.EvaluatorStore;
import java.time.Instant;
import java.util.List;

/**
 * How a registered evaluator is shown ({@code GET /evaluators/{key}} and the registry's other
 * answers): what it said at registration, the operator's standing, the track record the server
 * keeps, and whether it qualifies for the pool now, with every reason when it does not. Nothing in
 * it is the caller's to write: registration takes the profile members only. What names a party or
 * times the evaluator's work is shown to the evaluator itself and the operator only ({@link
 * RegistryReader}).
 */
final class EvaluatorViews {
  /**
   * The track record's members, in the order they are shown; the two rates are null when unknown.
   */
  private static final List<String> RECORD_MEMBERS =
      List.of(
          "evaluations",
          "canary_tasks",
          "canary_passes",
          "canary_pass_rate",
          "calibration_deviation",
          "calibration",
          "consecutive_by_provider");

  /**
   * The record members that name parties or their work: the providers it judged, and the dimensions
   * (named by agreements) it was calibrated on.
   */
  private static final List<String> PARTIES_RECORD_MEMBERS =
      List.of("calibration", "consecutive_by_provider");

  private EvaluatorViews() {}

  static ObjectNode of(EvaluatorRow row, Qualification qualification, RegistryReader reader) {
    ObjectNode o = row.member().profile().toJson();
    if (!reader.seesParties()) {
      o.remove("conflicts_of_interest");
    }
    ObjectNode standing = o.putObject("standing");
    switch (row.member().standing()) {
      case Standing.Active a -> standing.put("status", "active");
      case Standing.Suspended s -> standing.put("status", "suspended").put("note", s.note());
    }
    o.put("registered_at", row.registeredAt().toString());
    if (reader.seesParties()) {
      o.put("updated_at", row.updatedAt().toString()); // moves with each assessment
    }
    ObjectNode shown = row.recordFor(reader).toJson();
    ObjectNode record = o.putObject("track_record");
    for (String member : RECORD_MEMBERS) {
      if (!reader.seesParties() && PARTIES_RECORD_MEMBERS.contains(member)) {
        continue;
      }
      JsonNode value = shown.get(member);
      record.set(member, value == null ? Json.mapper().nullNode() : value);
    }
    Instant asOf = row.recordAsOf(reader);
    if (asOf != null) {
      o.put("track_record_as_of", asOf.toString());
    } else {
      o.putNull("track_record_as_of");
    }
    o.put("qualified", qualification.qualified());
    if (!qualification.qualified()) {
      ArrayNode why = o.putArray("why");
      qualification.reasons().forEach(why::add);
    }
    if (qualification.onProbation()) {
      o.put("probation", qualification.probation());
    }
    return o;
  }

  /**
   * The view with the record over time ({@code history}, oldest first): the single-evaluator reads
   * and a registration (whose history is empty) carry it, for the evaluator itself and the operator
   * only (each point times the evaluator's work); the list does not.
   */
  static ObjectNode withHistory(ObjectNode view, List<EvaluatorStore.RecordPoint> points) {
    ArrayNode history = view.putArray("history");
    for (EvaluatorStore.RecordPoint point : points) {
      ObjectNode p = history.addObject();
      p.put("at", point.at().toString());
      p.put("evaluations", point.evaluations());
      p.put("canary_tasks", point.canaryTasks());
      p.put("canary_passes", point.canaryPasses());
      p.put("calibration_samples", point.calibrationSamples());
      if (point.calibrationDeviation() != null) {
        p.put("calibration_deviation", point.calibrationDeviation());
      } else {
        p.putNull("calibration_deviation");
      }
    }
    return view;
  }
}
