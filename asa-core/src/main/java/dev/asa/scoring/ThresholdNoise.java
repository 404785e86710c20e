package dev.asa.scoring;

import dev.asa.agreement.GraduatedRelease;
import dev.asa.agreement.ThresholdNoiseTerms;
import dev.asa.agreement.Tier;
import dev.asa.crypto.Digest;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * Per-agreement noise on tier boundaries, the second cliff-optimisation mitigation of whitepaper
 * 8.2: a provider who cannot see exactly where a cliff is cannot aim just above it.
 *
 * <p>The offsets come from a 32-byte seed that the server draws at activation and commits to with
 * {@link #commitment}; it reveals the seed at verification, and from then on anyone can recompute
 * the offsets with {@link #offsets} and check both the commitment and the tiers that were paid by.
 * Everything here is a pure function of its arguments.
 *
 * <p>When dynamic tiers are also on, they run first, on the boundaries as written, and the noise is
 * applied to their result ({@link DynamicTiers.Adjustment#tiers()} keeps the list order, so offset
 * {@code i} still belongs to tier {@code i}). That order keeps the decision to move a boundary
 * independent of the seed, so it can be audited before the seed is revealed.
 */
public final class ThresholdNoise {

  /** Length of the seed in bytes: a full HMAC-SHA256 key. */
  public static final int SEED_LENGTH = 32;

  private static final BigDecimal HUNDRED = BigDecimal.valueOf(100);

  /** Offsets have two decimals: each step is 0.01 points. */
  private static final int STEP_SCALE = 2;

  private ThresholdNoise() {}

  /**
   * The offset of each tier, in list order: offset {@code i} comes from HMAC-SHA256 keyed with the
   * seed over the UTF-8 bytes of {@code agreementId + "/" + i}. The first 8 bytes of the MAC, read
   * as an unsigned big-endian number {@code u}, pick step {@code floor(u * n / 2^64)} of the {@code
   * n = 2 * maxPoints * 100 + 1} steps from {@code -maxPoints} to {@code +maxPoints}; the bias of
   * that mapping is below {@code n / 2^64}, far too small to matter.
   *
   * @param seed the agreement's 32-byte seed
   * @param tierCount how many tiers the agreement lists
   * @param maxPoints the largest offset, as allowed by {@link ThresholdNoiseTerms}: above 0, at
   *     most 10, in steps of 0.01
   * @return {@code tierCount} offsets, each with scale 2, in {@code [-maxPoints, +maxPoints]}
   */
  public static List<BigDecimal> offsets(
      byte[] seed, String agreementId, int tierCount, BigDecimal maxPoints) {
    Mac mac = hmac(seed);
    Objects.requireNonNull(agreementId, "agreementId");
    if (tierCount < 0) {
      throw new IllegalArgumentException("tierCount cannot be negative, got " + tierCount);
    }
    // The agreement terms hold the rule for maxPoints (range and 0.01 steps), so the offsets can
    // never be drawn with a bound that an agreement could not state.
    ThresholdNoiseTerms.of(maxPoints);
    long half = maxPoints.movePointRight(STEP_SCALE).longValueExact();
    long steps = 2 * half + 1;
    List<BigDecimal> offsets = new ArrayList<>(tierCount);
    for (int i = 0; i < tierCount; i++) {
      byte[] tag = mac.doFinal((agreementId + "/" + i).getBytes(StandardCharsets.UTF_8));
      long u = 0;
      for (int b = 0; b < Long.BYTES; b++) {
        u = (u << 8) | (tag[b] & 0xff);
      }
      long step = Math.unsignedMultiplyHigh(u, steps); // floor(u * steps / 2^64), in [0, steps)
      offsets.add(BigDecimal.valueOf(step - half, STEP_SCALE));
    }
    return List.copyOf(offsets);
  }

  /**
   * The tiers with their boundaries moved, in the same order, each clamped to 0..100.
   *
   * <p>Tiers that share a boundary (a {@code composite_score_lt} floor and the lowest {@code
   * composite_score_gte} tier, by the agreement's own rules) move together, by the offset of the
   * first of them in the list; moving them apart would leave scores that match no tier, or two.
   *
   * @param offsets one per tier, as from {@link #offsets}
   */
  public static List<Tier> apply(List<Tier> tiers, List<BigDecimal> offsets) {
    Objects.requireNonNull(tiers, "tiers");
    Objects.requireNonNull(offsets, "offsets");
    if (tiers.size() != offsets.size()) {
      throw new IllegalArgumentException(
          "one offset per tier is needed: "
              + tiers.size()
              + " tiers, "
              + offsets.size()
              + " offsets");
    }
    // Keyed by the stripped value so that 75 and 75.0 count as the same boundary.
    Map<BigDecimal, BigDecimal> offsetOfBoundary = new HashMap<>();
    List<Tier> moved = new ArrayList<>(tiers.size());
    for (int i = 0; i < tiers.size(); i++) {
      Tier t = tiers.get(i);
      BigDecimal own = Objects.requireNonNull(offsets.get(i), "offset " + i);
      BigDecimal offset =
          offsetOfBoundary.computeIfAbsent(t.score().stripTrailingZeros(), k -> own);
      BigDecimal score = t.score().add(offset).max(BigDecimal.ZERO).min(HUNDRED);
      moved.add(new Tier(t.bound(), score, t.releasePercent()));
    }
    return List.copyOf(moved);
  }

  /**
   * The tiers a verification pays by under the agreement's cliff-optimisation terms, with what
   * moved them for the audit record. This is the one place that fixes the order: dynamic tiers
   * first, on the boundaries as written, then noise on their result.
   *
   * <p>Without graduated release in tiers mode there is nothing to move and the tiers come back as
   * written (an agreement cannot enable either mitigation in continuous mode).
   *
   * @param pastScores the provider's earlier composite scores, most recent last, not including the
   *     one being paid for; only read when dynamic tiers are on
   * @param seed the agreement's 32-byte seed; only read, and then required, when noise is on
   * @param agreementId the agreement's id; only read, and then required, when noise is on
   */
  public static Effective effectiveTiers(
      GraduatedRelease release, List<BigDecimal> pastScores, byte[] seed, String agreementId) {
    Objects.requireNonNull(release, "release");
    List<Tier> written = release.tiers();
    if (!release.enabled() || release.mode() != GraduatedRelease.Mode.TIERS) {
      return new Effective(written, DynamicTiers.Adjustment.unchanged(written), List.of());
    }
    DynamicTiers.Adjustment dynamic =
        DynamicTiers.adjust(written, pastScores, release.dynamicTiers());
    if (!release.thresholdNoise().enabled()) {
      return new Effective(dynamic.tiers(), dynamic, List.of());
    }
    List<BigDecimal> offsets =
        offsets(seed, agreementId, written.size(), release.thresholdNoise().maxPoints());
    return new Effective(apply(dynamic.tiers(), offsets), dynamic, offsets);
  }

  /**
   * The outcome of {@link #effectiveTiers}.
   *
   * @param tiers the tiers to pay by, in the agreement's order
   * @param dynamic what dynamic tiers did (no moves when they are off)
   * @param offsets the noise offset of each tier, empty when noise is off
   */
  public record Effective(
      List<Tier> tiers, DynamicTiers.Adjustment dynamic, List<BigDecimal> offsets) {
    public Effective {
      tiers = List.copyOf(tiers);
      Objects.requireNonNull(dynamic, "dynamic");
      offsets = List.copyOf(offsets);
    }
  }

  /** The commitment to a seed that the server publishes at activation: SHA-256 of the seed. */
  public static Digest commitment(byte[] seed) {
    requireSeed(seed);
    return Digest.sha256(seed);
  }

  private static Mac hmac(byte[] seed) {
    requireSeed(seed);
    try {
      Mac mac = Mac.getInstance("HmacSHA256");
      mac.init(new SecretKeySpec(seed, "HmacSHA256"));
      return mac;
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("every Java platform must provide HmacSHA256", e);
    }
  }

  private static void requireSeed(byte[] seed) {
    if (seed == null || seed.length != SEED_LENGTH) {
      throw new IllegalArgumentException(
          "a threshold-noise seed is "
              + SEED_LENGTH
              + " bytes (draw it from SecureRandom at activation), got "
              + (seed == null ? "null" : seed.length + " bytes"));
    }
  }
}
