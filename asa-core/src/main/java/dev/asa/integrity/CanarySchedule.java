package dev.asa.integrity;

import dev.asa.agreement.CanaryTerms;
import java.math.BigDecimal;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * When an evaluator's next task is a canary, and which one, decided from a server secret and the
 * evaluator's counters alone, so that the decision can be replayed and needs no state beyond them.
 *
 * <p>At a frequency of 1 per N, an evaluator's real tasks fall into windows of N; each window gets
 * exactly one canary, placed before the real task at a position in the window that the secret
 * picks. So the rate is exact (20% overhead at 1 per 5, as the whitepaper budgets) yet the position
 * unpredictable. The secret must stay the server's: an evaluator that could compute the positions
 * would judge canaries carefully and everything else as it pleases. (The public seed of the
 * evaluator draw would not do.)
 *
 * <p>An evaluator with a long clean record ({@link #effectiveFrequency}) gets canaries less often
 * (whitepaper 12.2: 1 per 20 above a 95% pass rate). Changing the frequency never bunches canaries:
 * a window holds at most one whatever N was when the last one was given.
 *
 * <p>Where a due canary goes ({@link #placement}): beside the real task, with the same creation
 * time and deadline, or alone, later, at a secret moment of its own. Half each: if canaries came
 * only beside real work, a task that arrived alone would be known to be real, and an evaluator
 * could judge lone tasks as it pleased and pairs with care (issue 53 reproduced exactly that). So a
 * lone task may be a canary and a pair holds real work beside another task, and which of the pair
 * is which nothing in the tasks tells.
 *
 * <p>Which canary ({@link #freshCanary}): the whole pool goes through a service type's canaries in
 * one secret shuffled order, so that no canary is served twice, to anyone, before the set has been
 * used up; only then do canaries come again ({@link #repeatedCanary}). A per-evaluator order served
 * every canary to every evaluator: two throwaway keys learned the set's known scores and a third
 * qualified from the table without judging anything.
 */
public final class CanarySchedule {

  /** Evaluators above this canary pass rate get canaries less often. */
  public static final BigDecimal TRUSTED_PASS_RATE = new BigDecimal("0.95");

  /** A pass rate over fewer canaries than this is luck, not a record. */
  public static final int TRUSTED_MIN_CANARIES = 20;

  /** The frequency for trusted evaluators. */
  public static final CanaryTerms.Frequency RELAXED = new CanaryTerms.Frequency(20);

  private static final String POSITION_DOMAIN = "asa/canary-position/v1";
  private static final String ORDER_DOMAIN = "asa/canary-order/v2";
  private static final String PLACEMENT_DOMAIN = "asa/canary-placement/v1";

  /** A lone canary comes at most this long after the real task that made it due. */
  public static final Duration MAX_LONE_DELAY = Duration.ofHours(24);

  /** ... and, for a short deadline, within at least this long. */
  public static final Duration MIN_LONE_SPREAD = Duration.ofMinutes(1);

  private final byte[] secret;

  /**
   * @param secret at least 32 bytes the server keeps to itself (e.g. derived from its private key
   *     with a purpose label)
   */
  public CanarySchedule(byte[] secret) {
    if (secret == null || secret.length < 32) {
      throw new IllegalArgumentException(
          "the canary schedule needs a secret of at least 32 bytes, known only to the server");
    }
    this.secret = secret.clone();
  }

  /**
   * An evaluator's counters: real tasks given so far, canaries given so far, and the count of real
   * tasks when the last canary was given (0 before the first).
   */
  public record Progress(long realTasks, long canaries, long realTasksAtLastCanary) {
    public static final Progress START = new Progress(0, 0, 0);

    public Progress {
      if (realTasks < 0 || canaries < 0 || realTasksAtLastCanary < 0) {
        throw new IllegalArgumentException("counters are never negative");
      }
      if (realTasksAtLastCanary > realTasks) {
        throw new IllegalArgumentException("the last canary cannot come after the last real task");
      }
      if (canaries == 0 && realTasksAtLastCanary != 0) {
        throw new IllegalArgumentException("no canary given, so no last canary");
      }
    }

    public Progress afterRealTask() {
      return new Progress(realTasks + 1, canaries, realTasksAtLastCanary);
    }

    public Progress afterCanary() {
      return new Progress(realTasks, canaries + 1, realTasks);
    }
  }

  /**
   * The frequency an evaluator gets under an agreement's terms: the agreed one, or {@link #RELAXED}
   * if the evaluator is trusted and that is rarer (an agreement that asks for rarer canaries keeps
   * its own rate).
   */
  public static CanaryTerms.Frequency effectiveFrequency(
      CanaryTerms.Frequency agreed, TrackRecord record) {
    boolean trusted =
        record.canaryTasks() >= TRUSTED_MIN_CANARIES && record.passRateAbove(TRUSTED_PASS_RATE);
    return trusted && agreed.oneIn() < RELAXED.oneIn() ? RELAXED : agreed;
  }

  /**
   * Whether a canary must go to the evaluator before its next real task. Ask before every real
   * task; when it says yes, give a canary, record it ({@link Progress#afterCanary}), then give the
   * real task ({@link Progress#afterRealTask}).
   *
   * @param evaluatorId the evaluator's key id
   */
  public boolean canaryDue(String evaluatorId, CanaryTerms.Frequency frequency, Progress p) {
    Objects.requireNonNull(evaluatorId, "evaluatorId");
    long n = frequency.oneIn();
    long window = p.realTasks() / n;
    if (p.canaries() > 0 && p.realTasksAtLastCanary() / n >= window) {
      return false; // this window already had its canary
    }
    return p.realTasks() % n >= position(evaluatorId, frequency.oneIn(), window);
  }

  /** Where in the window the canary goes: 0 (before its first real task) to N - 1. */
  int position(String evaluatorId, int oneIn, long window) {
    return new HashStream(
            POSITION_DOMAIN,
            secret,
            evaluatorId.getBytes(StandardCharsets.UTF_8),
            ByteBuffer.allocate(12).putInt(oneIn).putLong(window).array())
        .below(oneIn);
  }

  /** Where a due canary goes: beside the real task, or alone, {@code after} it. */
  public sealed interface Placement {
    /** In the same unit of work as the real task, with its creation time and deadline. */
    record Beside() implements Placement {}

    /**
     * On its own, created {@code after} the real task (with a deadline as far from its creation as
     * the real task's is from its own).
     */
    record Alone(Duration after) implements Placement {
      public Alone {
        if (after.isNegative() || after.isZero()) {
          throw new IllegalArgumentException("a lone canary comes after the real task");
        }
      }
    }
  }

  /**
   * Where the evaluator's canary number {@code canaryNumber} (its scheduled canaries so far) goes:
   * beside or alone, one or the other equally often, and when alone, after a delay spread evenly up
   * to the real task's own time to answer (at least {@link #MIN_LONE_SPREAD}, at most {@link
   * #MAX_LONE_DELAY}), to the millisecond.
   *
   * @param timeToAnswer the real task's deadline minus its creation time
   */
  public Placement placement(String evaluatorId, long canaryNumber, Duration timeToAnswer) {
    Objects.requireNonNull(evaluatorId, "evaluatorId");
    HashStream stream =
        new HashStream(
            PLACEMENT_DOMAIN,
            secret,
            evaluatorId.getBytes(StandardCharsets.UTF_8),
            ByteBuffer.allocate(8).putLong(canaryNumber).array());
    if (stream.below(2) == 0) {
      return new Placement.Beside();
    }
    Duration spread = timeToAnswer.compareTo(MIN_LONE_SPREAD) < 0 ? MIN_LONE_SPREAD : timeToAnswer;
    if (spread.compareTo(MAX_LONE_DELAY) > 0) {
      spread = MAX_LONE_DELAY;
    }
    return new Placement.Alone(Duration.ofMillis(1 + stream.below((int) spread.toMillis())));
  }

  /**
   * The first canary of the type, in the pool's secret order, that nobody has been given yet; empty
   * when the set has been used up (or has none for the type). Pass the ids of every canary of the
   * type the whole pool has been given, ever: a set the operator loads again is not fresh again.
   */
  public Optional<Canary> freshCanary(CanarySet set, String serviceType, Set<String> served) {
    return shuffled(set, serviceType, 0).stream().filter(c -> !served.contains(c.id())).findFirst();
  }

  /**
   * Once the set is used up, the canary at place {@code servedBefore} of a new secret shuffle per
   * round: canaries come again, each once a round, and catch an evaluator that never learned them.
   * Empty when the set has none for the type.
   *
   * @param servedBefore how many canaries of the type the pool has been given so far
   */
  public Optional<Canary> repeatedCanary(CanarySet set, String serviceType, long servedBefore) {
    if (servedBefore < 0) {
      throw new IllegalArgumentException("canaries served are never negative");
    }
    int size = set.forServiceType(serviceType).size();
    if (size == 0) {
      return Optional.empty();
    }
    long round = 1 + servedBefore / size;
    return Optional.of(shuffled(set, serviceType, round).get((int) (servedBefore % size)));
  }

  private List<Canary> shuffled(CanarySet set, String serviceType, long round) {
    List<Canary> shuffled = new ArrayList<>(set.forServiceType(serviceType));
    shuffled.sort(Comparator.comparing(Canary::id));
    HashStream stream =
        new HashStream(
            ORDER_DOMAIN,
            secret,
            serviceType.getBytes(StandardCharsets.UTF_8),
            ByteBuffer.allocate(8).putLong(round).array());
    for (int i = shuffled.size() - 1; i > 0; i--) { // Fisher-Yates
      int j = stream.below(i + 1);
      Canary t = shuffled.get(i);
      shuffled.set(i, shuffled.get(j));
      shuffled.set(j, t);
    }
    return shuffled;
  }
}
