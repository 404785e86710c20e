package dev.asa.agreement;

import java.math.BigDecimal;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Function;

/**
 * {@code eligibility}: the history a party must have before the agreement activates (whitepaper 11:
 * Sybil reputation laundering, "minimum chain length for agreement eligibility"), so that an agent
 * that sheds a bad record by making a new identity starts from nothing, not from full trust:
 *
 * <pre>{@code
 * "eligibility": {
 *   "provider": {
 *     "min_completed_agreements": 5,
 *     "min_age_days": 30,
 *     "min_signals": [{"signal": "asa:verification_pass_rate", "at_least": 80, "min_sample": 5}],
 *     "value_cap_when_unproven": "20.00"
 *   }
 * }
 * }</pre>
 *
 * A party that falls short is refused, unless the terms hold an unproven party to a value cap and
 * the agreement's amount is within it. The record is this server's, under the key the party signs
 * with; its age runs from the end of its first agreement here. {@code min_chain_length} asks for a
 * Chain of Consciousness this server verified for the party's identity, of at least that many
 * entries (a long chain is costly to keep, so a costly identity to throw away); the chain's own
 * timestamps are the agent's word, so they never stand in for {@code min_age_days}.
 */
public record Eligibility(Map<Role, Requirements> byRole) {

  public static final Eligibility NONE = new Eligibility(Map.of());

  public Eligibility {
    byRole = Map.copyOf(byRole);
  }

  /** What one role must show; each bound is null when not required. */
  public record Requirements(
      Long minCompletedAgreements,
      Long minAgeDays,
      List<SignalRequirement> minSignals,
      BigDecimal valueCapWhenUnproven,
      Long minChainLength) {
    public Requirements {
      minSignals = List.copyOf(minSignals);
    }

    /** Requirements without a chain length. */
    public Requirements(
        Long minCompletedAgreements,
        Long minAgeDays,
        List<SignalRequirement> minSignals,
        BigDecimal valueCapWhenUnproven) {
      this(minCompletedAgreements, minAgeDays, minSignals, valueCapWhenUnproven, null);
    }
  }

  /** A figure of the party's reputation that must reach a bar over enough observations. */
  public record SignalRequirement(String signal, BigDecimal atLeast, long minSample) {
    public SignalRequirement {
      Objects.requireNonNull(signal, "signal");
      Objects.requireNonNull(atLeast, "atLeast");
    }
  }

  /**
   * A party's record here, as the requirements read it.
   *
   * @param completed agreements ended here in this role in which the party did its part
   * @param firstSeen when its first agreement here ended; empty for a party never seen
   * @param figures a figure of its reputation in this role, by signal id, with how many
   *     observations it rests on
   * @param chainLength the length of its Chain of Consciousness as this server verified it for this
   *     agreement; empty without a verified chain
   */
  public record PartyRecord(
      long completed,
      Optional<Instant> firstSeen,
      Function<String, Optional<Figure>> figures,
      Optional<Long> chainLength) {

    /** A party this server knows nothing of. */
    public static final PartyRecord NONE =
        new PartyRecord(0, Optional.empty(), signal -> Optional.empty(), Optional.empty());

    public PartyRecord {
      Objects.requireNonNull(firstSeen, "firstSeen");
      Objects.requireNonNull(figures, "figures");
      Objects.requireNonNull(chainLength, "chainLength");
    }

    public Optional<Figure> figure(String signal) {
      return figures.apply(signal);
    }

    /** This record with the chain verified for the agreement at hand. */
    public PartyRecord withChainLength(Optional<Long> length) {
      return new PartyRecord(completed, firstSeen, figures, length);
    }
  }

  public record Figure(BigDecimal value, long sample) {}

  /**
   * Why the party in {@code role} may not enter this agreement; empty when it may.
   *
   * @param amount the agreement's amount, or null when it moves no money
   */
  public Optional<String> refusal(Role role, PartyRecord record, BigDecimal amount, Instant now) {
    Requirements r = byRole.get(role);
    if (r == null) {
      return Optional.empty();
    }
    String at = "/eligibility/" + role.wireName();
    List<String> missing = new ArrayList<>();
    if (r.minCompletedAgreements() != null && record.completed() < r.minCompletedAgreements()) {
      missing.add(
          at
              + "/min_completed_agreements: "
              + record.completed()
              + " completed here, "
              + r.minCompletedAgreements()
              + " required");
    }
    if (r.minAgeDays() != null) {
      long days = record.firstSeen().map(f -> Duration.between(f, now).toDays()).orElse(0L);
      if (days < r.minAgeDays()) {
        missing.add(
            at
                + "/min_age_days: "
                + (record.firstSeen().isEmpty() ? "never seen here before" : days + " day(s) here")
                + ", "
                + r.minAgeDays()
                + " required");
      }
    }
    if (r.minChainLength() != null) {
      Optional<Long> length = record.chainLength();
      if (length.isEmpty() || length.get() < r.minChainLength()) {
        missing.add(
            at
                + "/min_chain_length: "
                + length
                    .map(l -> "a verified chain of " + l + " entries")
                    .orElse("no verified CoC chain")
                + ", "
                + r.minChainLength()
                + " required");
      }
    }
    for (int i = 0; i < r.minSignals().size(); i++) {
      SignalRequirement s = r.minSignals().get(i);
      Optional<Figure> f = record.figure(s.signal());
      String where = at + "/min_signals/" + i + ": " + s.signal() + " ";
      if (f.isEmpty()) {
        missing.add(where + "has no figure here");
      } else if (f.get().sample() < s.minSample()) {
        missing.add(
            where
                + "rests on "
                + f.get().sample()
                + " observation(s), "
                + s.minSample()
                + " required");
      } else if (f.get().value().compareTo(s.atLeast()) < 0) {
        missing.add(
            where
                + "is "
                + f.get().value().stripTrailingZeros().toPlainString()
                + ", at least "
                + s.atLeast().stripTrailingZeros().toPlainString()
                + " required");
      }
    }
    if (missing.isEmpty()) {
      return Optional.empty();
    }
    BigDecimal cap = r.valueCapWhenUnproven();
    if (cap != null && (amount == null || amount.compareTo(cap) <= 0)) {
      return Optional.empty(); // unproven, and held to the cap
    }
    return Optional.of(
        "the "
            + role.wireName()
            + " does not meet this agreement's eligibility: "
            + String.join("; ", missing)
            + (cap != null
                ? "; an unproven "
                    + role.wireName()
                    + " is held to "
                    + cap.toPlainString()
                    + ", and this agreement is for "
                    + amount.toPlainString()
                : ""));
  }
}
