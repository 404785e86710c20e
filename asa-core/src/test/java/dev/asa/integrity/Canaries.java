package dev.asa.integrity;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.asa.json.Json;

/** Canary files for the tests. */
final class Canaries {
  private Canaries() {}

  static final String CRITERIA =
      """
      {"dimensions": [
         {"name": "accuracy", "weight": 0.6, "metric": "score", "slo": {"operator": "gte", "value": 70}},
         {"name": "writing", "weight": 0.3, "metric": "score", "slo": {"operator": "gte", "value": 60}},
         {"name": "on_time", "weight": 0.1, "metric": "boolean", "slo": {"operator": "eq", "value": true}}],
       "composite_threshold": 70}\
      """;

  static ObjectNode canary(String id, int accuracy, int writing) {
    ObjectNode c = Json.object();
    c.put("id", id);
    c.put("service_type", "research");
    c.putObject("request").put("description", "Summarise the state of federated learning privacy");
    c.putObject("deliverable").put("content", "# Summary\n...").put("format", "markdown");
    c.set("criteria", Json.parseTrusted(CRITERIA));
    c.putObject("known_scores").put("accuracy", accuracy).put("writing", writing);
    c.put("tolerance", 10);
    return c;
  }

  static String jsonl(ObjectNode... canaries) {
    StringBuilder s = new StringBuilder();
    for (ObjectNode c : canaries) {
      s.append(Json.write(c)).append('\n');
    }
    return s.toString();
  }

  /** A set of n research canaries, alternately known-good (90/85) and known-bad (25/30). */
  static CanarySet set(int n) {
    ObjectNode[] cs = new ObjectNode[n];
    for (int i = 0; i < n; i++) {
      cs[i] = i % 2 == 0 ? canary("good-" + i, 90, 85) : canary("bad-" + i, 25, 30);
    }
    return CanarySet.parse(jsonl(cs));
  }
}
