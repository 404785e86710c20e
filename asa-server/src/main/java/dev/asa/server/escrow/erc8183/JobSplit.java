package dev.asa.server.escrow.erc8183;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.RoundingMode;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.NavigableSet;
import java.util.Optional;
import java.util.TreeSet;

/**
 * How an agreement's budget is split over several ERC-8183 jobs so that every release its terms can
 * produce is a sum of whole jobs. A stock job contract pays a job all or nothing ({@code complete}
 * or {@code reject}); with the budget split, releasing a percentage is completing the jobs that add
 * up to it and rejecting the rest, with no hook contract and no custody.
 *
 * <p>Two shapes:
 *
 * <ul>
 *   <li><b>Prefix jobs</b> for a finite set of releases (tiers, {@code split_50_50}): the releases
 *       sorted, each job the step to the next (releases 50, 85, 100 give jobs of 50, 35 and 15), so
 *       every release is a prefix of the jobs. A prefix's budget is the amount's share rounded
 *       down, exactly what {@code Release.split} books, because budgets are the differences of the
 *       rounded-down cumulative shares.
 *   <li><b>Binary jobs</b> for continuous release: 1, 2, 4, 8, 16 and 32 percent and the remaining
 *       37, whose subsets make every whole percentage from 0 to 100 (0..63 from the powers of two,
 *       37..100 with the remainder). A score is paid to the whole percent below it.
 * </ul>
 *
 * @param percents each job's share of the budget in percent, in the order the jobs are created;
 *     they add up to 100
 */
public record JobSplit(List<BigDecimal> percents) {

  private static final BigDecimal HUNDRED = BigDecimal.valueOf(100);

  /**
   * The most jobs a split may have: each is a transaction for the client and one for the server,
   * and finding the jobs for a release looks at every subset.
   */
  public static final int MAX_JOBS = 12;

  public JobSplit {
    percents = percents.stream().map(JobSplit::normal).toList();
    if (percents.isEmpty() || percents.size() > MAX_JOBS) {
      throw new IllegalArgumentException(
          "a split has 1 to " + MAX_JOBS + " jobs, not " + percents.size());
    }
    BigDecimal sum = BigDecimal.ZERO;
    for (BigDecimal p : percents) {
      if (p.signum() <= 0) {
        throw new IllegalArgumentException("a job's share must be positive, not " + p);
      }
      sum = sum.add(p);
    }
    if (sum.compareTo(HUNDRED) != 0) {
      throw new IllegalArgumentException("the jobs' shares add up to " + sum + ", not 100");
    }
  }

  /** One job: all or nothing, as a single ERC-8183 job pays. */
  public static JobSplit whole() {
    return new JobSplit(List.of(HUNDRED));
  }

  /** Jobs of 1, 2, 4, 8, 16, 32 and 37 percent: every whole percentage is a sum of some. */
  public static JobSplit binary() {
    List<BigDecimal> jobs = new ArrayList<>();
    int used = 0;
    for (int p = 1; used + p < 100; p *= 2) {
      jobs.add(BigDecimal.valueOf(p));
      used += p;
    }
    jobs.add(BigDecimal.valueOf(100 - used));
    return new JobSplit(jobs);
  }

  /**
   * The prefix jobs that make each of {@code releases} (percentages, 0 to 100) exact; 0 and 100 are
   * always expressible (no job, every job) and need no job of their own.
   *
   * @throws IllegalArgumentException when a release is outside 0..100, or they need more than
   *     {@link #MAX_JOBS} jobs
   */
  public static JobSplit covering(Collection<BigDecimal> releases) {
    NavigableSet<BigDecimal> steps = new TreeSet<>();
    for (BigDecimal r : releases) {
      if (r.signum() < 0 || r.compareTo(HUNDRED) > 0) {
        throw new IllegalArgumentException("a release is 0 to 100 percent, not " + r);
      }
      if (r.signum() > 0) {
        steps.add(r);
      }
    }
    steps.add(HUNDRED);
    List<BigDecimal> jobs = new ArrayList<>();
    BigDecimal previous = BigDecimal.ZERO;
    for (BigDecimal step : steps) {
      jobs.add(step.subtract(previous));
      previous = step;
    }
    return new JobSplit(jobs);
  }

  public int size() {
    return percents.size();
  }

  /**
   * Each job's budget in the token's atomic units: the differences of the amount's cumulative
   * shares, each rounded down, so they add up to the amount exactly and every prefix is its share
   * rounded down.
   */
  public List<BigInteger> budgets(BigInteger atomic) {
    List<BigInteger> budgets = new ArrayList<>();
    BigDecimal cumulative = BigDecimal.ZERO;
    BigInteger before = BigInteger.ZERO;
    for (BigDecimal p : percents) {
      cumulative = cumulative.add(p);
      BigInteger upTo =
          new BigDecimal(atomic)
              .multiply(cumulative)
              .divide(HUNDRED, 0, RoundingMode.DOWN)
              .toBigIntegerExact();
      budgets.add(upTo.subtract(before));
      before = upTo;
    }
    return budgets;
  }

  /**
   * The jobs (indexes, ascending) whose shares add up to exactly {@code percent}: a prefix when one
   * does, else the first subset found; empty when none does.
   */
  public Optional<List<Integer>> jobsReleasing(BigDecimal percent) {
    BigDecimal sum = BigDecimal.ZERO;
    if (percent.signum() == 0) {
      return Optional.of(List.of());
    }
    for (int i = 0; i < percents.size(); i++) {
      sum = sum.add(percents.get(i));
      if (sum.compareTo(percent) == 0) {
        List<Integer> prefix = new ArrayList<>();
        for (int j = 0; j <= i; j++) {
          prefix.add(j);
        }
        return Optional.of(prefix);
      }
    }
    for (int mask = 1; mask < (1 << percents.size()); mask++) {
      if (share(mask).compareTo(percent) == 0) {
        return Optional.of(indexes(mask));
      }
    }
    return Optional.empty();
  }

  /** Every percentage some set of whole jobs releases, 0 and 100 among them. */
  public NavigableSet<BigDecimal> expressible() {
    NavigableSet<BigDecimal> all = new TreeSet<>();
    for (int mask = 0; mask < (1 << percents.size()); mask++) {
      all.add(normal(share(mask)));
    }
    return all;
  }

  /** The largest expressible percentage at or below {@code percent} (0 at least). */
  public BigDecimal floor(BigDecimal percent) {
    BigDecimal f = expressible().floor(percent);
    return f == null ? BigDecimal.ZERO : f;
  }

  /** The expressible percentages nearest {@code percent}: the one below and the one above. */
  public List<BigDecimal> nearest(BigDecimal percent) {
    NavigableSet<BigDecimal> all = expressible();
    List<BigDecimal> near = new ArrayList<>();
    BigDecimal below = all.floor(percent);
    BigDecimal above = all.ceiling(percent);
    if (below != null) {
      near.add(below);
    }
    if (above != null && (below == null || above.compareTo(below) != 0)) {
      near.add(above);
    }
    return near;
  }

  /**
   * The jobs (indexes, ascending) whose {@code budgets} add up to exactly {@code atomic},
   * preferring a prefix; empty when none do.
   */
  public static Optional<List<Integer>> jobsPaying(List<BigInteger> budgets, BigInteger atomic) {
    BigInteger sum = BigInteger.ZERO;
    if (atomic.signum() == 0) {
      return Optional.of(List.of());
    }
    for (int i = 0; i < budgets.size(); i++) {
      sum = sum.add(budgets.get(i));
      if (sum.equals(atomic)) {
        List<Integer> prefix = new ArrayList<>();
        for (int j = 0; j <= i; j++) {
          prefix.add(j);
        }
        return Optional.of(prefix);
      }
    }
    for (int mask = 1; mask < (1 << budgets.size()); mask++) {
      BigInteger s = BigInteger.ZERO;
      for (int i : indexes(mask)) {
        s = s.add(budgets.get(i));
      }
      if (s.equals(atomic)) {
        return Optional.of(indexes(mask));
      }
    }
    return Optional.empty();
  }

  /** A percentage without trailing zeros, and never in exponent form (50, not 5E+1). */
  static BigDecimal normal(BigDecimal p) {
    BigDecimal s = p.stripTrailingZeros();
    return s.scale() < 0 ? s.setScale(0) : s;
  }

  private BigDecimal share(int mask) {
    BigDecimal s = BigDecimal.ZERO;
    for (int i : indexes(mask)) {
      s = s.add(percents.get(i));
    }
    return s;
  }

  private static List<Integer> indexes(int mask) {
    List<Integer> list = new ArrayList<>();
    for (int i = 0; mask >> i != 0; i++) {
      if ((mask >> i & 1) == 1) {
        list.add(i);
      }
    }
    return list;
  }
}
