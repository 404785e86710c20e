package dev.asa.client;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * One page of the evaluator registry ({@code GET /evaluators}), in key order. An entry carries no
 * {@code history}; what names parties or times the work is shown to the evaluator itself and the
 * operator only, as in {@link EvaluatorView}.
 *
 * @param evaluators the evaluators of this page
 * @param nextCursor what to pass for the next page; empty on the last page
 * @param json the whole answer, a copy
 */
public record EvaluatorPage(
    List<EvaluatorView> evaluators, Optional<String> nextCursor, ObjectNode json) {

  private static final String WHAT = "a page of the evaluator registry";

  /** Checks that nothing is null and keeps private copies. */
  public EvaluatorPage {
    evaluators = List.copyOf(evaluators);
    Objects.requireNonNull(nextCursor, "nextCursor");
    json = Objects.requireNonNull(json, "json").deepCopy();
  }

  /**
   * Reads a page.
   *
   * @param answer the body of {@code GET /evaluators}
   * @return the view
   * @throws IllegalArgumentException if the answer has no {@code evaluators} array or an entry
   *     lacks a member; the message names it
   */
  public static EvaluatorPage from(JsonNode answer) {
    ObjectNode o = Members.object(answer, WHAT);
    return new EvaluatorPage(
        Members.requiredObjects(o, "evaluators", WHAT).stream().map(EvaluatorView::from).toList(),
        Members.optionalText(o, "next_cursor"),
        o);
  }

  /**
   * The whole answer, a copy: change it freely.
   *
   * @return the answer as received
   */
  @Override
  public ObjectNode json() {
    return json.deepCopy();
  }
}
