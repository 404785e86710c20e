package dev.asa.reputation;

import dev.asa.agreement.Identity;
import dev.asa.agreement.Role;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.function.Predicate;

/**
 * The ARP signals one identity earned in one role, from its outcomes over a window (whitepaper 9.2:
 * pass rates, composite scores and completion history, as aggregates). Pure: the same outcomes give
 * the same signals.
 *
 * <ul>
 *   <li>{@code asa:verification_pass_rate}: verdicts that passed, of those recorded (provider).
 *   <li>{@code asa:composite_score:mean}: the mean recorded composite score (provider).
 *   <li>{@code asa:on_time_rate}: delivered in time (provider), answered in time (evaluator), of
 *       every ended agreement.
 *   <li>{@code asa:completion_rate}: delivered at all, of every ended agreement (provider).
 *   <li>{@code asa:dispute_rate}: disputed over the work, of every ended agreement (for a client:
 *       challenged by it).
 *   <li>{@code asa:funding_rate}: funded the escrow (or had none to fund), of every ended agreement
 *       (client).
 *   <li>{@code asa:distinct_counterparties}: how many different clients (for an evaluator:
 *       providers) the figures rest on, so that a reader can tell a record earned in the market
 *       from one two friends made.
 * </ul>
 *
 * A figure with nothing under it (no verdict recorded, say) is left out rather than written as 0.
 */
public final class Aggregates {
  private Aggregates() {}

  public static final String PASS_RATE = "asa:verification_pass_rate";
  public static final String COMPOSITE_MEAN = "asa:composite_score:mean";
  public static final String ON_TIME_RATE = "asa:on_time_rate";
  public static final String COMPLETION_RATE = "asa:completion_rate";
  public static final String DISPUTE_RATE = "asa:dispute_rate";
  public static final String FUNDING_RATE = "asa:funding_rate";
  public static final String DISTINCT_COUNTERPARTIES = "asa:distinct_counterparties";

  /** ARP's category for what an agent did (as opposed to ratings, provenance, credentials). */
  static final String BEHAVIORAL = "behavioral";

  /**
   * @param subjectKey the key the outcomes were earned under ({@link SubjectBinding})
   * @param outcomes the outcomes of {@code subject} in {@code role} inside the window
   * @param source who computes them ({@code asa:<server key>})
   * @param windowDays the window, written {@code <days>d}
   */
  public static List<Signal> of(
      Identity subject,
      String subjectKey,
      Role role,
      List<Outcome> outcomes,
      String source,
      int windowDays,
      Instant at) {
    Objects.requireNonNull(subject, "subject");
    for (Outcome o : outcomes) {
      if (o.role() != role) {
        throw new IllegalArgumentException("outcome of " + o.agreementId() + " is not a " + role);
      }
    }
    Factory make = new Factory(subject, subjectKey, role, source, windowDays + "d", at);
    List<Signal> out = new ArrayList<>();
    int n = outcomes.size();
    if (n == 0) {
      return out;
    }
    if (role == Role.PROVIDER) {
      List<Outcome> judged = outcomes.stream().filter(o -> o.passed() != null).toList();
      if (!judged.isEmpty()) {
        out.add(make.rate(PASS_RATE, count(judged, o -> o.passed()), judged.size()));
      }
      List<BigDecimal> scores =
          outcomes.stream().map(Outcome::composite).filter(Objects::nonNull).toList();
      if (!scores.isEmpty()) {
        BigDecimal sum = scores.stream().reduce(BigDecimal.ZERO, BigDecimal::add);
        out.add(
            make.signal(
                COMPOSITE_MEAN,
                sum.divide(BigDecimal.valueOf(scores.size()), 2, RoundingMode.HALF_EVEN),
                scores.size()));
      }
    }
    if (role == Role.CLIENT) {
      out.add(make.rate(FUNDING_RATE, count(outcomes, Outcome::delivered), n));
    } else {
      out.add(make.rate(ON_TIME_RATE, count(outcomes, Outcome::onTime), n));
    }
    if (role == Role.PROVIDER) {
      out.add(make.rate(COMPLETION_RATE, count(outcomes, Outcome::delivered), n));
    }
    out.add(make.rate(DISPUTE_RATE, count(outcomes, Outcome::disputed), n));
    Set<String> counterparties = new HashSet<>();
    outcomes.forEach(o -> counterparties.add(o.counterparty()));
    out.add(make.signal(DISTINCT_COUNTERPARTIES, BigDecimal.valueOf(counterparties.size()), n));
    return out;
  }

  /** ARP's confidence for a figure resting on {@code n} observations: n / (n + 10). */
  public static BigDecimal confidence(long n) {
    return BigDecimal.valueOf(n).divide(BigDecimal.valueOf(n + 10), 4, RoundingMode.HALF_EVEN);
  }

  private static int count(List<Outcome> outcomes, Predicate<Outcome> which) {
    return (int) outcomes.stream().filter(which).count();
  }

  private record Factory(
      Identity subject, String subjectKey, Role role, String source, String window, Instant at) {
    Signal rate(String id, int hits, int of) {
      return signal(
          id,
          BigDecimal.valueOf(100L * hits).divide(BigDecimal.valueOf(of), 2, RoundingMode.HALF_EVEN),
          of);
    }

    Signal signal(String id, BigDecimal value, long sample) {
      return new Signal(
          BEHAVIORAL,
          id,
          source,
          subject,
          subjectKey,
          role,
          value,
          confidence(sample),
          window,
          sample,
          at);
    }
  }
}
