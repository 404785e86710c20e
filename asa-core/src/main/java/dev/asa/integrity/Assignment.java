package dev.asa.integrity;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.asa.agreement.EvaluatorSelection;
import dev.asa.crypto.Ed25519PublicKey;
import dev.asa.json.Json;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * The evaluators assigned to an agreement at activation (whitepaper 3.6.1), or why none could be.
 * Every mode chooses among the {@linkplain Screening#eligible eligible} evaluators only, so none
 * can assign an evaluator that is unqualified, dependent on a party, of another service type or due
 * to rotate away from the provider.
 *
 * <ul>
 *   <li>random_from_pool: a {@link Draw} over the eligible evaluators;
 *   <li>mutual: a draw among the eligible evaluators both parties proposed (one, usually); when
 *       there is none, or fewer than needed, a draw over the rest for what is missing;
 *   <li>marketplace: the best {@code count} by {@link Marketplace#BEST_FIRST} among those meeting
 *       the criteria; no draw (it is deterministic), the ranking figures are recorded instead.
 * </ul>
 */
public sealed interface Assignment {

  /**
   * Evaluators were assigned.
   *
   * @param evaluators the assigned evaluators, the first the primary
   * @param draws the draws that chose them, in order (none for marketplace)
   * @param notes what a reader of the record should know ("both parties proposed X, but it is
   *     excluded: ..."), possibly none
   * @param ranking the figures a marketplace ranking was computed from, best first (null for the
   *     other modes)
   */
  record Assigned(
      EvaluatorSelection selection,
      List<PoolMember> evaluators,
      List<Draw> draws,
      List<String> notes,
      ArrayNode ranking)
      implements Assignment {
    public Assigned {
      Objects.requireNonNull(selection, "selection");
      evaluators = List.copyOf(evaluators);
      draws = List.copyOf(draws);
      notes = List.copyOf(notes);
      ranking = ranking == null ? null : ranking.deepCopy();
      if (evaluators.isEmpty()) {
        throw new IllegalArgumentException("an assignment assigns at least one evaluator");
      }
    }

    @Override
    public ArrayNode ranking() {
      return ranking == null ? null : ranking.deepCopy();
    }

    public List<Ed25519PublicKey> keys() {
      return evaluators.stream().map(PoolMember::key).toList();
    }

    /**
     * For the activation event: {@code {"mode", "evaluators": [keys], "draws": [...], "notes"?,
     * "ranking"?}}; each draw holds its seed, candidate list and digest, so anyone can recompute
     * it.
     */
    public ObjectNode toJson() {
      ObjectNode o = Json.object();
      o.put("mode", selection.mode());
      ArrayNode ks = o.putArray("evaluators");
      evaluators.forEach(m -> ks.add(m.profile().keyId()));
      ArrayNode ds = o.putArray("draws");
      draws.forEach(d -> ds.add(d.toJson()));
      if (!notes.isEmpty()) {
        ArrayNode ns = o.putArray("notes");
        notes.forEach(ns::add);
      }
      if (ranking != null) {
        o.set("ranking", ranking.deepCopy());
      }
      return o;
    }
  }

  /** Nobody could be assigned; {@code reason} says why, evaluator by evaluator. */
  record Unavailable(String reason) implements Assignment {
    public Unavailable {
      Objects.requireNonNull(reason, "reason");
    }
  }

  /**
   * Assigns {@code count} evaluators at activation.
   *
   * @param seed the server's deterministic signature over the agreement hash
   * @param mutuallyProposed mutual mode: the evaluators both parties proposed while negotiating
   *     (empty when they agreed on none, and for the other modes)
   * @throws IllegalArgumentException for {@link EvaluatorSelection.Named}: the agreement names its
   *     evaluator, nothing is assigned
   */
  static Assignment assign(
      EvaluatorSelection selection,
      Screening screening,
      Seed seed,
      int count,
      Collection<Ed25519PublicKey> mutuallyProposed) {
    Objects.requireNonNull(selection, "selection");
    Objects.requireNonNull(screening, "screening");
    Objects.requireNonNull(seed, "seed");
    Objects.requireNonNull(mutuallyProposed, "mutuallyProposed (empty when none)");
    if (count < 1) {
      throw new IllegalArgumentException("assign at least one evaluator, not " + count);
    }
    if (!mutuallyProposed.isEmpty() && !(selection instanceof EvaluatorSelection.Mutual)) {
      throw new IllegalArgumentException(
          "proposals count only in mutual mode, not " + selection.mode());
    }
    return switch (selection) {
      case EvaluatorSelection.Named n ->
          throw new IllegalArgumentException(
              "the agreement names its evaluator in parties.evaluator; nothing is assigned (check"
                  + " that evaluator with Independence and QualificationPolicy instead)");
      case EvaluatorSelection.RandomFromPool r -> random(selection, screening, seed, count);
      case EvaluatorSelection.Mutual m -> mutual(m, screening, seed, count, mutuallyProposed);
      case EvaluatorSelection.Marketplace m -> marketplace(m, screening, count, Set.of());
    };
  }

  /**
   * Assigns a backup when an assigned evaluator failed to deliver (whitepaper 8.3,
   * hold_for_backup_evaluator): the next eligible evaluator, never one already tried.
   *
   * @param tried the evaluators already assigned to this delivery
   * @param backupNumber 1 for the first backup of the delivery, 2 for the next...; part of the
   *     draw's purpose, so that each backup draw is its own
   */
  static Assignment backup(
      EvaluatorSelection selection,
      Screening screening,
      Seed seed,
      Collection<Ed25519PublicKey> tried,
      int backupNumber) {
    if (backupNumber < 1) {
      throw new IllegalArgumentException("backups are numbered from 1");
    }
    Screening rest = screening.without(tried, "already assigned to this delivery");
    if (selection instanceof EvaluatorSelection.Marketplace m) {
      return marketplace(m, rest, 1, Set.copyOf(tried));
    }
    if (rest.eligible().isEmpty()) {
      return new Unavailable("no backup evaluator is left: " + rest.summary());
    }
    Seats seats = Seats.draw("backup-" + backupNumber, rest, seed, 1);
    return new Assigned(
        selection, members(rest, seats.chosen()), seats.draws(), seats.notes(), null);
  }

  private static Assignment random(
      EvaluatorSelection selection, Screening screening, Seed seed, int count) {
    if (screening.eligible().size() < count) {
      return unavailable(count, screening);
    }
    Seats seats = Seats.draw("evaluator", screening, seed, count);
    return new Assigned(
        selection, members(screening, seats.chosen()), seats.draws(), seats.notes(), null);
  }

  private static Assignment mutual(
      EvaluatorSelection.Mutual selection,
      Screening screening,
      Seed seed,
      int count,
      Collection<Ed25519PublicKey> proposed) {
    if (screening.eligible().size() < count) {
      return unavailable(count, screening);
    }
    List<String> notes = new ArrayList<>();
    Set<Ed25519PublicKey> eligible = new HashSet<>(screening.eligibleKeys());
    List<Ed25519PublicKey> common = new ArrayList<>();
    for (Ed25519PublicKey k : Draw.canonical(proposed)) {
      if (eligible.contains(k)) {
        common.add(k);
      } else {
        notes.add(
            "both parties proposed "
                + k.toBase64Url()
                + ", but it cannot be assigned: "
                + screening.excluded().stream()
                    .filter(e -> e.member().key().equals(k))
                    .findFirst()
                    .map(e -> String.join("; ", e.reasons()))
                    .orElse("it is not in the pool"));
      }
    }
    List<Draw> draws = new ArrayList<>();
    List<Ed25519PublicKey> chosen = new ArrayList<>();
    if (!common.isEmpty()) {
      Draw agreed = Draw.perform("mutual", seed, common, Math.min(count, common.size()));
      draws.add(agreed);
      chosen.addAll(agreed.chosen());
    } else {
      notes.add("the parties agreed on no eligible evaluator; drawn at random from the pool");
    }
    if (chosen.size() < count) {
      List<Ed25519PublicKey> rest =
          screening.eligibleKeys().stream().filter(k -> !chosen.contains(k)).toList();
      Draw d = Draw.perform("evaluator", seed, rest, count - chosen.size());
      draws.add(d);
      chosen.addAll(d.chosen());
    }
    return new Assigned(selection, members(screening, chosen), draws, notes, null);
  }

  private static Assignment marketplace(
      EvaluatorSelection.Marketplace selection,
      Screening screening,
      int count,
      Set<Ed25519PublicKey> skip) {
    Marketplace.Ranking ranking = Marketplace.rank(selection.criteria(), screening.eligible());
    // Evaluators off probation rank before those on it: a newcomer qualified by canaries alone
    // (and a price of 0) must not come first by construction.
    List<PoolMember> ranked =
        ranking.ranked().stream()
            .filter(m -> !skip.contains(m.key()))
            .sorted(Comparator.comparing((PoolMember m) -> screening.probation().contains(m.key())))
            .toList();
    if (ranked.size() < count) {
      StringBuilder why =
          new StringBuilder(
              "needs "
                  + count
                  + " evaluator"
                  + (count == 1 ? "" : "s")
                  + " meeting the marketplace criteria; "
                  + ranked.size()
                  + " do");
      if (!ranking.unmet().isEmpty()) {
        why.append("; not meeting them: ")
            .append(
                String.join(
                    " | ", ranking.unmet().stream().map(Screening.Exclusion::describe).toList()));
      }
      why.append("; ").append(screening.summary());
      return new Unavailable(why.toString());
    }
    ArrayNode figures = Json.mapper().createArrayNode();
    ranking.ranked().forEach(m -> figures.add(Marketplace.figures(m)));
    return new Assigned(selection, ranked.subList(0, count), List.of(), List.of(), figures);
  }

  private static Unavailable unavailable(int count, Screening screening) {
    return new Unavailable(
        "needs "
            + count
            + " eligible evaluator"
            + (count == 1 ? "" : "s")
            + "; "
            + screening.summary());
  }

  private static List<PoolMember> members(Screening screening, List<Ed25519PublicKey> keys) {
    List<PoolMember> out = new ArrayList<>();
    for (Ed25519PublicKey k : keys) {
      Optional<PoolMember> m =
          screening.eligible().stream().filter(e -> e.key().equals(k)).findFirst();
      out.add(m.orElseThrow());
    }
    return out;
  }
}
