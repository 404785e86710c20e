package dev.asa.integrity;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.asa.json.Json;
import java.util.List;

/**
 * Whether an evaluator may be assigned from the pool, and if not, why: each reason says what is
 * missing ("has 12 evaluations; needs 50"), so that the evaluator knows what to do and the operator
 * what it is looking at.
 */
public record Qualification(List<String> reasons) {

  public static final Qualification QUALIFIED = new Qualification(List.of());

  public Qualification {
    reasons = List.copyOf(reasons);
  }

  public boolean qualified() {
    return reasons.isEmpty();
  }

  /** {@code {"qualified": true}} or {@code {"qualified": false, "reasons": [...]}}. */
  public ObjectNode toJson() {
    ObjectNode o = Json.object();
    o.put("qualified", qualified());
    if (!qualified()) {
      ArrayNode r = o.putArray("reasons");
      reasons.forEach(r::add);
    }
    return o;
  }
}
