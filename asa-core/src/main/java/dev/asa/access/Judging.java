package dev.asa.access;

import dev.asa.agreement.Party;
import dev.asa.document.Agreement;
import java.util.List;
import java.util.Objects;

/**
 * Who gives an agreement's verdict. Whoever picks the judge picks the outcome (whitepaper 3.6,
 * 3.6.1), so neither party may: the terms name the judge, or the server's pool assigns it, and a
 * party's request never puts another judge in its place.
 *
 * <ul>
 *   <li>{@link BuiltIn}: the terms give the verdict to the server's built-in evaluator. The
 *       document names it, as {@code parties.evaluator} with {@code "type": "builtin"} and no key
 *       (an agreement stored before keys were required may also name an evaluator without a {@code
 *       verification_key}, which nobody can sign for but the server). Any party may then ask it to
 *       run.
 *   <li>{@link Evaluators}: the evaluator the document names with its key, or the ones the pool
 *       assigned (at activation, or as a backup). Only they give the verdict: they submit it. The
 *       built-in evaluator decides only when the server itself gets there, by the agreement's
 *       timeout action once their deadline has passed ({@code hold_for_backup_evaluator} with no
 *       pool evaluator left), never at a party's request.
 * </ul>
 */
public sealed interface Judging {

  /** What in the terms or the assignment names this judge, for the parties to read. */
  String because();

  /**
   * @param because what in the terms names it, for the parties to read
   */
  record BuiltIn(String because) implements Judging {
    public BuiltIn {
      Objects.requireNonNull(because, "because");
    }
  }

  /**
   * @param evaluators who judges, in the agreement's order; empty only before the pool assigned
   *     anyone (the agreement is not ACTIVE yet, so there is nothing to verify)
   * @param because who they are and where the terms or the assignment name them
   */
  record Evaluators(List<Party> evaluators, String because) implements Judging {
    public Evaluators {
      evaluators = List.copyOf(evaluators);
      Objects.requireNonNull(because, "because");
    }
  }

  /**
   * The judge of the agreement as it stands. A backup the server assigned replaces whatever the
   * document named ({@link Agreement#evaluators()}). An agreement the pool has not yet assigned an
   * evaluator is judged by the pool all the same: nothing falls to the built-in evaluator by
   * default.
   */
  static Judging of(Agreement a) {
    List<Party> evaluators = a.evaluators();
    boolean assigned = a.facts().assignedEvaluators().isPresent();
    if (!assigned) {
      Party named = a.terms().parties().evaluator().orElse(null);
      if (named != null && named.isBuiltin()) {
        return new BuiltIn(
            "the agreement names the server's built-in evaluator (parties.evaluator.type \""
                + Party.BUILTIN
                + "\")");
      }
      // Agreements proposed today must give a named evaluator its key (SemanticRules); one stored
      // before that rule, naming an evaluator nobody can sign for, is judged by the server.
      if (named != null && named.key().isEmpty()) {
        return new BuiltIn(
            "the evaluator the agreement names, '"
                + named.identity().value()
                + "', has no verification_key, so the server's built-in evaluator acts for it");
      }
    }
    if (evaluators.isEmpty()) {
      return new Evaluators(List.of(), "the server's pool assigns its evaluator at activation");
    }
    String names =
        String.join(", ", evaluators.stream().map(e -> "'" + e.identity().value() + "'").toList());
    return new Evaluators(
        evaluators,
        assigned
            ? "the server assigned its evaluator " + names + " (metadata.assigned_evaluators)"
            : "the agreement names its evaluator " + names + " (parties.evaluator)");
  }
}
