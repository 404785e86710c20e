package dev.asa.integrity;

import dev.asa.agreement.CanaryTerms;
import java.math.BigDecimal;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

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
 * <p>Which canary: each evaluator goes through a service type's canaries in its own secret shuffled
 * order, and sees none twice before it has seen them all, so that remembering canaries does not
 * help it spot the next.
 */
public final class CanarySchedule {

  /** Evaluators above this canary pass rate get canaries less often. */
  public static final BigDecimal TRUSTED_PASS_RATE = new BigDecimal("0.95");

  /** A pass rate over fewer canaries than this is luck, not a record. */
  public static final int TRUSTED_MIN_CANARIES = 20;

  /** The frequency for trusted evaluators. */
  public static final CanaryTerms.Frequency RELAXED = new CanaryTerms.Frequency(20);

  private static final String POSITION_DOMAIN = "asa/canary-position/v1";
  private static final String ORDER_DOMAIN = "asa/canary-order/v1";

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

  /**
   * The canary to give as the evaluator's {@code canaryNumber}-th canary (from 0) of this service
   * type; empty when the set has none for the type.
   */
  public Optional<Canary> nextCanary(
      CanarySet set, String evaluatorId, String serviceType, long canaryNumber) {
    List<Canary> pool = set.forServiceType(serviceType);
    if (pool.isEmpty()) {
      return Optional.empty();
    }
    if (canaryNumber < 0) {
      throw new IllegalArgumentException("canary numbers start at 0");
    }
    int size = pool.size();
    long round = canaryNumber / size;
    HashStream stream =
        new HashStream(
            ORDER_DOMAIN,
            secret,
            evaluatorId.getBytes(StandardCharsets.UTF_8),
            serviceType.getBytes(StandardCharsets.UTF_8),
            ByteBuffer.allocate(8).putLong(round).array());
    List<Canary> shuffled = new ArrayList<>(pool);
    for (int i = size - 1; i > 0; i--) { // Fisher-Yates
      int j = stream.below(i + 1);
      Canary t = shuffled.get(i);
      shuffled.set(i, shuffled.get(j));
      shuffled.set(j, t);
    }
    return Optional.of(shuffled.get((int) (canaryNumber % size)));
  }
}
