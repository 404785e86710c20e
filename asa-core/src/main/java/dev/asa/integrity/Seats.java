package dev.asa.integrity;

import dev.asa.crypto.Ed25519PublicKey;
import java.util.ArrayList;
import java.util.List;

/**
 * The seats of a draw, filled so that evaluators on probation never decide alone while someone off
 * probation can: a panel of three or more gives them up to a minority of its seats (where they earn
 * the real work beside others that ends probation, and the median is not theirs to move), drawn
 * first ({@code purpose-probation}, listed last: the first evaluator is the primary); the other
 * seats are drawn among evaluators off probation ({@code purpose}), and when there are too few of
 * those, evaluators on probation fill the rest, with a note saying so. With nobody on probation
 * this is the plain draw of {@code count} among the eligible, as before probation existed; with
 * nobody off it, a single seat is too.
 */
record Seats(List<Ed25519PublicKey> chosen, List<Draw> draws, List<String> notes) {
  static Seats draw(String purpose, Screening screening, Seed seed, int count) {
    List<Draw> draws = new ArrayList<>();
    List<String> notes = new ArrayList<>();
    List<Ed25519PublicKey> probation = screening.probationKeys();
    int minority = Math.min((count - 1) / 2, probation.size());
    List<Ed25519PublicKey> onProbation = List.of();
    if (minority > 0) {
      Draw p = Draw.perform(purpose + "-probation", seed, probation, minority);
      draws.add(p);
      onProbation = p.chosen();
    }
    int rest = count - minority;
    List<Ed25519PublicKey> seasoned = screening.seasonedKeys();
    List<Ed25519PublicKey> chosen = new ArrayList<>();
    if (seasoned.size() >= rest) {
      Draw d = Draw.perform(purpose, seed, seasoned, rest);
      draws.add(d);
      chosen.addAll(d.chosen());
    } else {
      if (!seasoned.isEmpty()) {
        Draw d = Draw.perform(purpose, seed, seasoned, seasoned.size());
        draws.add(d);
        chosen.addAll(d.chosen());
      }
      List<Ed25519PublicKey> taken = onProbation;
      List<Ed25519PublicKey> more =
          screening.eligibleKeys().stream()
              .filter(k -> !taken.contains(k) && !seasoned.contains(k))
              .toList();
      Draw d =
          Draw.perform(
              seasoned.isEmpty() ? purpose : purpose + "-probation-more",
              seed,
              more,
              rest - seasoned.size());
      draws.add(d);
      chosen.addAll(d.chosen());
      notes.add(
          seasoned.size()
              + " eligible evaluator"
              + (seasoned.size() == 1 ? " is" : "s are")
              + " off probation for "
              + rest
              + " seat"
              + (rest == 1 ? "" : "s")
              + ": evaluators on probation fill the rest");
    }
    chosen.addAll(onProbation); // last: the first evaluator is the primary
    return new Seats(chosen, draws, notes);
  }
}
