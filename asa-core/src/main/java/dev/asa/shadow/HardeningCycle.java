package dev.asa.shadow;

import java.util.Objects;
import java.util.Optional;

/**
 * The hardening loop of one deliverable: the first validation, each re-delivery's, and which one
 * stands. Immutable: {@link #redelivered} returns the next state, which the server stores.
 *
 * <p>"The better one stands": a re-delivery that scores worse (more failures, on the exact
 * fraction) does not replace the earlier one; an equal score does (it is the provider's latest
 * work). The hardening block reports the standing score as final, so a worse re-delivery shows a
 * velocity of 0.0, not a negative one: velocity measures what hardening recovered, and nothing was
 * lost by trying.
 */
public final class HardeningCycle {

  private final HardeningPolicy policy;
  private final ShadowValidation initial;
  private final ShadowValidation latest;
  private final ShadowValidation standing;
  private final int cyclesCompleted;

  private HardeningCycle(
      HardeningPolicy policy,
      ShadowValidation initial,
      ShadowValidation latest,
      ShadowValidation standing,
      int cycles) {
    this.policy = policy;
    this.initial = initial;
    this.latest = latest;
    this.standing = standing;
    this.cyclesCompleted = cycles;
  }

  public static HardeningCycle start(ShadowValidation first, HardeningPolicy policy) {
    Objects.requireNonNull(first, "first");
    Objects.requireNonNull(policy, "policy");
    return new HardeningCycle(policy, first, first, first, 0);
  }

  /** Whether hardening was called for by the first delivery (so the report carries a block). */
  public boolean triggered() {
    return !initial.sealBroken() && policy.triggeredBy(initial.score());
  }

  /**
   * Whether the provider may deliver again now: the standing score is above the threshold, cycles
   * remain, and the seal holds (a broken seal blocks everything, fixing included).
   */
  public boolean fixAllowed() {
    return !standing.sealBroken()
        && !latest.sealBroken()
        && policy.triggeredBy(standing.score())
        && cyclesCompleted < policy.maxCycles();
  }

  /**
   * What the provider may read: the latest delivery's failure messages (empty when no fix is
   * allowed).
   */
  public HardeningMessages messages(Nonce nonce) {
    return fixAllowed()
        ? HardeningMessages.of(latest, nonce)
        : new HardeningMessages(java.util.List.of());
  }

  /**
   * Records the validation of a re-delivery.
   *
   * @throws IllegalStateException when no fix cycle is allowed
   */
  public HardeningCycle redelivered(ShadowValidation next) {
    Objects.requireNonNull(next, "next");
    if (!fixAllowed()) {
      throw new IllegalStateException(
          "no hardening cycle is open: the score is within the threshold, the "
              + policy.maxCycles()
              + " cycle(s) are used, or the seal is broken");
    }
    if (!next.sealedHash().equals(initial.sealedHash())) {
      throw new IllegalArgumentException(
          "the re-delivery was validated against another seal ("
              + next.sealedHash()
              + ", not "
              + initial.sealedHash()
              + ")");
    }
    // A broken seal must show; otherwise the fewer failures stand (same seal, so the same total).
    ShadowValidation better =
        next.sealBroken() || next.score().failed() <= standing.score().failed() ? next : standing;
    return new HardeningCycle(policy, initial, next, better, cyclesCompleted + 1);
  }

  public int cyclesCompleted() {
    return cyclesCompleted;
  }

  public ShadowValidation initial() {
    return initial;
  }

  public ShadowValidation latest() {
    return latest;
  }

  /** The validation whose score counts. */
  public ShadowValidation standing() {
    return standing;
  }

  /** The report's hardening block, when hardening was triggered. */
  public Optional<Hardening> block() {
    if (!triggered()) {
      return Optional.empty();
    }
    return Optional.of(
        new Hardening(
            cyclesCompleted,
            policy.maxCycles(),
            initial.score().percentage(),
            standing.score().percentage(),
            Hardening.REVEAL_MESSAGE));
  }

  /** The standing validation's report, with the hardening block. */
  public ShadowReport report() {
    ShadowReport report = standing.report();
    return block().map(report::withHardening).orElse(report);
  }

  public Gate gate() {
    return standing.gate();
  }
}
