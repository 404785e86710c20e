package dev.asa.integrity;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.asa.json.Json;
import java.util.List;

/**
 * Whether an evaluator may be assigned from the pool, and if not, why: each reason says what is
 * missing ("has 12 evaluations; needs 50"), so that the evaluator knows what to do and the operator
 * what it is looking at.
 *
 * @param reasons why it may not be assigned; empty when it may
 * @param probation for a qualified evaluator that has not yet judged enough real work beside other
 *     evaluators, what it lacks: until then it sits on a panel only as a minority, or alone only
 *     when no evaluator off probation can be assigned ({@code Screening}); null otherwise
 */
public record Qualification(List<String> reasons, String probation) {

  public static final Qualification QUALIFIED = new Qualification(List.of());

  public Qualification {
    reasons = List.copyOf(reasons);
    if (probation != null && !reasons.isEmpty()) {
      throw new IllegalArgumentException("only a qualified evaluator is on probation");
    }
  }

  /** Qualified, or not for these reasons; never on probation. */
  public Qualification(List<String> reasons) {
    this(reasons, null);
  }

  public boolean onProbation() {
    return probation != null;
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
    if (probation != null) {
      o.put("probation", probation);
    }
    return o;
  }
}
