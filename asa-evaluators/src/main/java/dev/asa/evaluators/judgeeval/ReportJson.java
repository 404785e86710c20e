package dev.asa.evaluators.judgeeval;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.asa.json.Json;

/**
 * The parts of a report's JSON that pairwise and pointwise reports share, written once so that the
 * two documents keep the same shape: the head, a group's name and size, a dimension's entry and a
 * record's identity.
 */
final class ReportJson {

  private ReportJson() {}

  /**
   * The document's head.
   *
   * @param method what the report's figures rest on, under {@code methodName} ("pick", "score")
   * @param baseline how the length baseline is read, or null without it
   */
  static ObjectNode head(
      String kind, int n, String methodName, String method, String baseline, Bootstrap bootstrap) {
    ObjectNode root = Json.object();
    root.put("kind", kind);
    root.put("n", n);
    root.put(methodName, method);
    if (baseline != null) {
      root.put("baseline", baseline);
    }
    root.set("bootstrap", bootstrap.toJson());
    return root;
  }

  /** A group's entry: its category (none for the whole file) and its size. */
  static ObjectNode group(String category, int n) {
    ObjectNode o = Json.object();
    if (category != null) {
      o.put("category", category);
    }
    o.put("n", n);
    return o;
  }

  /** A dimension's entry in {@code dimensions}, with how it fared alone as a judge. */
  static void dimension(ArrayNode dimensions, String dimension, int n, ObjectNode judge) {
    ObjectNode o = dimensions.addObject();
    o.put("dimension", dimension);
    o.put("n", n);
    o.set("judge", judge);
  }

  /** A record's entry in {@code records}, opened with the line, id and category it came with. */
  static ObjectNode record(ArrayNode records, LabelledRecord record) {
    ObjectNode r = records.addObject();
    r.put("line", record.line());
    if (record.id() != null) {
      r.put("id", record.id());
    }
    if (record.category() != null) {
      r.put("category", record.category());
    }
    return r;
  }
}
