package dev.asa.integrity;

import dev.asa.crypto.Ed25519PublicKey;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;

/**
 * The pool sorted into who may be assigned to an agreement and who may not, and why not. An
 * evaluator is eligible when it evaluates the service type, is independent of both parties, is
 * qualified, and has not already assessed the provider's last {@code max_consecutive} deliveries in
 * a row (rotation). Every draw, ranking and backup works on {@link #eligible} only, so that none
 * can pick an evaluator that breaks a rule.
 *
 * @param eligible in canonical key order
 * @param excluded everyone else, each with every reason, in canonical key order
 */
public record Screening(List<PoolMember> eligible, List<Exclusion> excluded) {

  /** An evaluator that may not be assigned, and why (one line per reason). */
  public record Exclusion(PoolMember member, List<String> reasons) {
    public Exclusion {
      Objects.requireNonNull(member, "member");
      reasons = List.copyOf(reasons);
      if (reasons.isEmpty()) {
        throw new IllegalArgumentException("an exclusion has a reason");
      }
    }

    public String describe() {
      return member.describe() + ": " + String.join("; ", reasons);
    }
  }

  public Screening {
    eligible =
        eligible.stream().sorted((a, b) -> Draw.CANONICAL.compare(a.key(), b.key())).toList();
    excluded =
        excluded.stream()
            .sorted((a, b) -> Draw.CANONICAL.compare(a.member().key(), b.member().key()))
            .toList();
    Set<Ed25519PublicKey> keys = new HashSet<>();
    for (PoolMember m : eligible) {
      if (!keys.add(m.key())) {
        throw new IllegalArgumentException("evaluator " + m.describe() + " is listed twice");
      }
    }
    for (Exclusion e : excluded) {
      if (!keys.add(e.member().key())) {
        throw new IllegalArgumentException(
            "evaluator " + e.member().describe() + " is listed twice");
      }
    }
  }

  /**
   * Sorts the pool for an agreement.
   *
   * @param members every registered evaluator (those of other service types are excluded as such)
   * @throws IllegalArgumentException when one key appears twice
   */
  public static Screening of(
      Collection<PoolMember> members, AssignmentContext context, QualificationPolicy policy) {
    List<PoolMember> eligible = new ArrayList<>();
    List<Exclusion> excluded = new ArrayList<>();
    int max = context.rotation().maxConsecutive();
    for (PoolMember m : members) {
      List<String> reasons = new ArrayList<>();
      if (!m.profile().serves(context.serviceType())) {
        reasons.add("does not evaluate " + context.serviceType());
      }
      Independence independence =
          Independence.of(m.profile(), context.client(), context.provider());
      independence.reasons().forEach(r -> reasons.add("not independent: " + r));
      Qualification q = policy.assess(m.record(), m.standing());
      q.reasons().forEach(r -> reasons.add("not qualified: " + r));
      int streak = m.record().consecutiveFor(context.providerId());
      if (streak >= max) {
        reasons.add(
            "rotation: assessed the provider's last "
                + streak
                + " deliveries in a row; at most "
                + max
                + " allowed");
      }
      if (reasons.isEmpty()) {
        eligible.add(m);
      } else {
        excluded.add(new Exclusion(m, reasons));
      }
    }
    return new Screening(eligible, excluded);
  }

  public List<Ed25519PublicKey> eligibleKeys() {
    return eligible.stream().map(PoolMember::key).toList();
  }

  /**
   * The same screening with these evaluators moved out of the eligible, e.g. the evaluators already
   * assigned to a delivery when a backup is needed ({@code reason}: "timed out on this delivery").
   */
  public Screening without(Collection<Ed25519PublicKey> keys, String reason) {
    Set<Ed25519PublicKey> out = new HashSet<>(keys);
    List<PoolMember> stay = new ArrayList<>();
    List<Exclusion> excl = new ArrayList<>(excluded);
    for (PoolMember m : eligible) {
      if (out.contains(m.key())) {
        excl.add(new Exclusion(m, List.of(reason)));
      } else {
        stay.add(m);
      }
    }
    return new Screening(stay, excl);
  }

  /** "2 of 5 pool evaluators eligible; excluded: ..." for messages and the operator. */
  public String summary() {
    int total = eligible.size() + excluded.size();
    StringBuilder s =
        new StringBuilder(eligible.size() + " of " + total + " pool evaluators eligible");
    if (!excluded.isEmpty()) {
      s.append("; excluded: ");
      s.append(String.join(" | ", excluded.stream().map(Exclusion::describe).toList()));
    }
    return s.toString();
  }
}
