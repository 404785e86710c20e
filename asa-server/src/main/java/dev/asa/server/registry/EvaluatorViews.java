package dev.asa.server.registry;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.asa.integrity.Qualification;
import dev.asa.integrity.Standing;
import dev.asa.json.Json;
import dev.asa.server.store.EvaluatorRow;
import dev.asa.server.store.EvaluatorStore;
import java.util.List;

/**
 * How a registered evaluator is shown ({@code GET /evaluators/{key}} and the registry's other
 * answers): what it said at registration, the operator's standing, the track record the server
 * keeps, and whether it qualifies for the pool now, with every reason when it does not. Nothing in
 * it is the caller's to write: registration takes the profile members only.
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

  private EvaluatorViews() {}

  static ObjectNode of(EvaluatorRow row, Qualification qualification) {
    ObjectNode o = row.member().profile().toJson();
    ObjectNode standing = o.putObject("standing");
    switch (row.member().standing()) {
      case Standing.Active a -> standing.put("status", "active");
      case Standing.Suspended s -> standing.put("status", "suspended").put("note", s.note());
    }
    o.put("registered_at", row.registeredAt().toString());
    o.put("updated_at", row.updatedAt().toString());
    // The record as last published, never as it is: see RecordPublication.
    ObjectNode shown = row.published().toJson();
    ObjectNode record = o.putObject("track_record");
    for (String member : RECORD_MEMBERS) {
      JsonNode value = shown.get(member);
      record.set(member, value == null ? Json.mapper().nullNode() : value);
    }
    if (row.publishedAt() != null) {
      o.put("track_record_as_of", row.publishedAt().toString());
    } else {
      o.putNull("track_record_as_of");
    }
    o.put("qualified", qualification.qualified());
    if (!qualification.qualified()) {
      ArrayNode why = o.putArray("why");
      qualification.reasons().forEach(why::add);
    }
    return o;
  }

  /**
   * The view with the record over time ({@code history}, oldest first): the single-evaluator reads
   * and a registration (whose history is empty) carry it; the list does not.
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
