package dev.asa.reputation;

import dev.asa.agreement.Eligibility;
import dev.asa.agreement.Identity;
import dev.asa.agreement.Role;
import java.math.BigDecimal;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.SplittableRandom;

/**
 * Reputation laundering (whitepaper 11, issue 56): a provider that delivers bad work sheds its
 * record by making a new identity. A market of 9 honest providers (pass 90% of the time) and one
 * cheater (pass 30%) over {@code days} days; every day clients post 10 jobs of 100.00 and 3 of
 * 15.00, each given to a provider drawn at random from those its terms admit. Clients refuse a
 * provider whose pass rate here is below 80 over at least 5 agreements.
 *
 * <ul>
 *   <li><b>Before</b> (no history required): a provider without a figure is admitted at full trust,
 *       so the cheater, once refused, makes a new identity and takes 100.00 jobs again.
 *   <li><b>After</b> (the {@code eligibility} terms): the 100.00 jobs require 5 completed
 *       agreements, 30 days since the first, and the pass rate bar; an unproven provider is held to
 *       20.00, so a new identity takes only the small jobs, and with a 30% pass rate it never
 *       clears the bar.
 * </ul>
 *
 * Run for real: {@link Outcome}, {@link Aggregates}, {@link SubjectBinding} (the cheater's new
 * identity comes with a new key, as it must: its old key is bound to its old name) and {@link
 * Eligibility#refusal}. Modelled: the market (who posts what, the draw), the cheater's rule (a new
 * identity as soon as it is refused a 100.00 job), verdicts as coin flips.
 */
public final class LaunderingSimulation {

  static final int HONEST = 9;
  static final BigDecimal BIG = new BigDecimal("100.00");
  static final BigDecimal SMALL = new BigDecimal("15.00");

  /** What the cheater got in one world. */
  public record Result(
      int identities, int bigJobs, int bigFailed, int smallJobs, BigDecimal clientValueFailed) {}

  private final long seed;
  private final int days;
  private final boolean after;

  LaunderingSimulation(long seed, int days, boolean after) {
    this.seed = seed;
    this.days = days;
    this.after = after;
  }

  /** One provider identity and everything it did here. */
  private static final class Agent {
    final Identity identity;
    final String key;
    final double passRate;
    final boolean cheater;
    final List<Outcome> outcomes = new ArrayList<>();

    Agent(String name, double passRate, boolean cheater) {
      this.identity = new Identity("api_key", name, null);
      this.key = "key-" + name;
      this.passRate = passRate;
      this.cheater = cheater;
    }

    Eligibility.PartyRecord record(Instant now) {
      List<Outcome> mine = SubjectBinding.counted(identity, outcomes);
      List<Signal> signals = Aggregates.of(identity, key, Role.PROVIDER, mine, "asa:sim", 365, now);
      return new Eligibility.PartyRecord(
          mine.stream().filter(Outcome::delivered).count(),
          mine.stream().map(Outcome::endedAt).min(Instant::compareTo),
          signal ->
              signals.stream()
                  .filter(s -> s.signalId().equals(signal))
                  .findFirst()
                  .map(s -> new Eligibility.Figure(s.value(), s.sampleSize())),
          Optional.empty());
    }
  }

  private Eligibility terms() {
    var bar =
        List.of(new Eligibility.SignalRequirement(Aggregates.PASS_RATE, new BigDecimal("80"), 5));
    Eligibility.Requirements r =
        after
            ? new Eligibility.Requirements(5L, 30L, bar, new BigDecimal("20.00"))
            // Before: only the bar, and a provider with no figure is not refused by it.
            : new Eligibility.Requirements(null, null, List.of(), null);
    return new Eligibility(java.util.Map.of(Role.PROVIDER, r));
  }

  /** Before, the clients' own rule: refuse a figure below the bar, admit a provider without one. */
  private static boolean refusedBefore(Eligibility.PartyRecord record) {
    return record
        .figure(Aggregates.PASS_RATE)
        .filter(f -> f.sample() >= 5 && f.value().compareTo(new BigDecimal("80")) < 0)
        .isPresent();
  }

  Result run() {
    SplittableRandom random = new SplittableRandom(seed);
    List<Agent> honest = new ArrayList<>();
    for (int i = 0; i < HONEST; i++) {
      honest.add(new Agent("honest-" + i, 0.9, false));
    }
    int identities = 1;
    Agent cheater = new Agent("cheater-1", 0.3, true);
    Eligibility eligibility = terms();
    Instant start = Instant.parse("2026-01-01T00:00:00Z");
    int seq = 0;
    // The market has a past: 20 agreements of each provider's in the 60 days before.
    for (Agent a : honestAndOne(honest, cheater)) {
      for (int i = 0; i < 20; i++) {
        boolean passed = random.nextDouble() < a.passRate;
        a.outcomes.add(
            outcome(a, "past-" + seq++, start.minus(Duration.ofDays(60 - 2 * i)), passed, random));
      }
    }
    int bigJobs = 0, bigFailed = 0, smallJobs = 0;
    BigDecimal failedValue = BigDecimal.ZERO;
    for (int day = 0; day < days; day++) {
      Instant now = start.plus(Duration.ofDays(day));
      for (int job = 0; job < 13; job++) {
        BigDecimal amount = job < 10 ? BIG : SMALL;
        List<Agent> admitted = new ArrayList<>();
        for (Agent a : honest) {
          if (admits(eligibility, a, amount, now)) {
            admitted.add(a);
          }
        }
        boolean cheaterIn = admits(eligibility, cheater, amount, now);
        if (!cheaterIn && amount.equals(BIG) && !cheater.outcomes.isEmpty()) {
          // Refused a big job with a record: shed it, come back under a new name and key.
          identities++;
          cheater = new Agent("cheater-" + identities, 0.3, true);
          cheaterIn = admits(eligibility, cheater, amount, now);
        }
        if (cheaterIn) {
          admitted.add(cheater);
        }
        if (admitted.isEmpty()) {
          continue; // nobody the terms admit: the job is not taken
        }
        Agent chosen = admitted.get(random.nextInt(admitted.size()));
        boolean passed = random.nextDouble() < chosen.passRate;
        chosen.outcomes.add(outcome(chosen, "ag-" + seq++, now.plusSeconds(job), passed, random));
        if (chosen.cheater) {
          if (amount.equals(BIG)) {
            bigJobs++;
            bigFailed += passed ? 0 : 1;
          } else {
            smallJobs++;
          }
          failedValue = passed ? failedValue : failedValue.add(amount);
        }
      }
    }
    return new Result(identities, bigJobs, bigFailed, smallJobs, failedValue);
  }

  private static List<Agent> honestAndOne(List<Agent> honest, Agent one) {
    List<Agent> all = new ArrayList<>(honest);
    all.add(one);
    return all;
  }

  private static Outcome outcome(
      Agent a, String id, Instant at, boolean passed, SplittableRandom random) {
    return new Outcome(
        id,
        Role.PROVIDER,
        a.identity,
        a.key,
        "client-" + random.nextInt(20),
        at,
        true,
        true,
        passed,
        passed ? new BigDecimal("85") : new BigDecimal("40"),
        false);
  }

  private boolean admits(Eligibility eligibility, Agent a, BigDecimal amount, Instant now) {
    Eligibility.PartyRecord record = a.record(now);
    if (!after && refusedBefore(record)) {
      return false;
    }
    return eligibility.refusal(Role.PROVIDER, record, amount, now).isEmpty();
  }

  /** Prints both worlds for {@code ./asa bench-pool}. */
  public static void print(long seed, int days) {
    System.out.printf(
        Locale.ROOT,
        "%nreputation laundering (issue 56): 9 honest providers (pass 90%%), one cheater (pass"
            + " 30%%) who makes a new identity when refused; %d days, 10 jobs of 100.00 and 3 of"
            + " 15.00 a day; seed %d%n",
        days,
        seed);
    System.out.printf(
        Locale.ROOT,
        "  %-7s %10s %14s %16s %12s %22s%n",
        "world",
        "identities",
        "100.00 jobs",
        "100.00 failed",
        "15.00 jobs",
        "value of failed work");
    for (boolean after : new boolean[] {false, true}) {
      Result r = new LaunderingSimulation(seed, days, after).run();
      System.out.printf(
          Locale.ROOT,
          "  %-7s %10d %14d %16d %12d %22s%n",
          after ? "after" : "before",
          r.identities(),
          r.bigJobs(),
          r.bigFailed(),
          r.smallJobs(),
          r.clientValueFailed().toPlainString());
    }
  }

  public static void main(String[] args) {
    long seed = args.length > 0 ? Long.parseLong(args[0]) : 56L;
    print(seed, args.length > 1 ? Integer.parseInt(args[1]) : 120);
  }
}
