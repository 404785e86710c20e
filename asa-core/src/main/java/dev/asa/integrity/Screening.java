package dev.asa.integrity;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.asa.crypto.Ed25519PublicKey;
import dev.asa.json.Json;
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
 * <p>An eligible evaluator may be on probation ({@link Qualification#onProbation}): qualified by
 * canaries, not yet by real work judged beside others. The draws prefer those off it ({@link
 * Assignment}).
 *
 * @param eligible in canonical key order
 * @param excluded everyone else, each with every reason, in canonical key order
 * @param probation the eligible evaluators on probation
 */
public record Screening(
    List<PoolMember> eligible, List<Exclusion> excluded, Set<Ed25519PublicKey> probation) {

  /**
   * One reason an evaluator may not be assigned: the rule, for the draw's record, and a line for a
   * reader ("not qualified: has 10 evaluations; needs 50").
   */
  public record Reason(ExclusionRule rule, String text) {
    public Reason {
      Objects.requireNonNull(rule, "rule");
      Objects.requireNonNull(text, "text");
    }
  }

  /** An evaluator that may not be assigned, and why (one reason per broken rule). */
  public record Exclusion(PoolMember member, List<Reason> why) {
    public Exclusion {
      Objects.requireNonNull(member, "member");
      why = List.copyOf(why);
      if (why.isEmpty()) {
        throw new IllegalArgumentException("an exclusion has a reason");
      }
    }

    /** Every reason under one rule, e.g. the marketplace criteria an evaluator does not meet. */
    public Exclusion(PoolMember member, ExclusionRule rule, List<String> reasons) {
      this(member, reasons.stream().map(r -> new Reason(rule, r)).toList());
    }

    /** One line per reason. */
    public List<String> reasons() {
      return why.stream().map(Reason::text).toList();
    }

    /** The rules broken, each once, in the order found. */
    public List<ExclusionRule> rules() {
      return why.stream().map(Reason::rule).distinct().toList();
    }

    public String describe() {
      return member.describe() + ": " + String.join("; ", reasons());
    }

    /**
     * {@code {"evaluator": key, "rules": ["same_key_as_provider", ...]}} for the draw's record: the
     * rules only, never the lines, which may say more than every reader of the record should see (a
     * declared conflict names no party here either).
     */
    public ObjectNode toJson() {
      ObjectNode o = Json.object();
      o.put("evaluator", member.profile().keyId());
      ArrayNode rs = o.putArray("rules");
      rules().forEach(r -> rs.add(r.wireName()));
      return o;
    }
  }

  /** A screening in which nobody is on probation. */
  public Screening(List<PoolMember> eligible, List<Exclusion> excluded) {
    this(eligible, excluded, Set.of());
  }

  public Screening {
    probation = Set.copyOf(probation);
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
    Set<Ed25519PublicKey> eligibleKeys = new HashSet<>(eligibleKeys(eligible));
    if (!eligibleKeys.containsAll(probation)) {
      throw new IllegalArgumentException("only an eligible evaluator is on probation");
    }
  }

  private static List<Ed25519PublicKey> eligibleKeys(List<PoolMember> eligible) {
    return eligible.stream().map(PoolMember::key).toList();
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
    Set<Ed25519PublicKey> probation = new HashSet<>();
    int max = context.rotation().maxConsecutive();
    for (PoolMember m : members) {
      List<Reason> reasons = new ArrayList<>();
      if (!m.profile().serves(context.serviceType())) {
        reasons.add(
            new Reason(
                ExclusionRule.OTHER_SERVICE_TYPE, "does not evaluate " + context.serviceType()));
      }
      Independence independence =
          Independence.of(m.profile(), context.client(), context.provider());
      independence
          .conflicts()
          .forEach(c -> reasons.add(new Reason(c.rule(), "not independent: " + c.text())));
      Qualification q = policy.assess(m.record(), m.standing());
      q.reasons()
          .forEach(
              r -> reasons.add(new Reason(ExclusionRule.NOT_QUALIFIED, "not qualified: " + r)));
      int streak = m.record().consecutiveFor(context.providerId());
      if (streak >= max) {
        reasons.add(
            new Reason(
                ExclusionRule.ROTATION,
                "rotation: assessed the provider's last "
                    + streak
                    + " deliveries in a row; at most "
                    + max
                    + " allowed"));
      }
      if (reasons.isEmpty()) {
        eligible.add(m);
        if (q.onProbation()) {
          probation.add(m.key());
        }
      } else {
        excluded.add(new Exclusion(m, reasons));
      }
    }
    return new Screening(eligible, excluded, probation);
  }

  public List<Ed25519PublicKey> eligibleKeys() {
    return eligibleKeys(eligible);
  }

  /** The eligible evaluators off probation, in canonical key order. */
  public List<Ed25519PublicKey> seasonedKeys() {
    return eligibleKeys().stream().filter(k -> !probation.contains(k)).toList();
  }

  /** The eligible evaluators on probation, in canonical key order. */
  public List<Ed25519PublicKey> probationKeys() {
    return eligibleKeys().stream().filter(probation::contains).toList();
  }

  /**
   * The same screening with the evaluators already assigned to a delivery moved out of the
   * eligible, when a backup is needed ({@code reason}: "already assigned to this delivery").
   */
  public Screening without(Collection<Ed25519PublicKey> keys, String reason) {
    Set<Ed25519PublicKey> out = new HashSet<>(keys);
    List<PoolMember> stay = new ArrayList<>();
    List<Exclusion> excl = new ArrayList<>(excluded);
    for (PoolMember m : eligible) {
      if (out.contains(m.key())) {
        excl.add(new Exclusion(m, ExclusionRule.ALREADY_ASSIGNED, List.of(reason)));
      } else {
        stay.add(m);
      }
    }
    Set<Ed25519PublicKey> still = new HashSet<>(probation);
    still.removeAll(out);
    return new Screening(stay, excl, still);
  }

  /**
   * Who was excluded and by which rule, in canonical key order, for the draw's record: {@code
   * [{"evaluator": key, "rules": [...]}]}.
   */
  public ArrayNode exclusionsJson() {
    ArrayNode a = Json.mapper().createArrayNode();
    excluded.forEach(e -> a.add(e.toJson()));
    return a;
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
