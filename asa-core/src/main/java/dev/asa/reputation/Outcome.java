package dev.asa.reputation;

import dev.asa.agreement.Identity;
import dev.asa.agreement.Role;
import java.math.BigDecimal;
import java.time.Instant;
import java.util.Objects;
import java.util.Optional;

/**
 * What one ended agreement says about one party in one role: the only detail of an agreement that
 * reputation keeps. Aggregates are computed over these, and nothing else about the agreement (its
 * deliverable, its evidence, its price) ever reaches a signal (whitepaper 11.3: ASA reports
 * aggregates, never details).
 *
 * @param partyKey the Ed25519 key (base64url) the party signed with: an identity is a label anyone
 *     may write, so an outcome counts for the identity only under the key bound to it (see {@link
 *     SubjectBinding})
 * @param counterparty the other side, in {@link dev.asa.text.Identities#comparable} form, so that
 *     how many distinct counterparties stand behind a figure can be told
 * @param delivered the provider delivered before the agreement ended (the evaluator: it answered
 *     before its deadline; the client: it funded the escrow, or there was none to fund)
 * @param onTime delivered within the time the terms allow (the evaluator: without a backup taking
 *     over)
 * @param passed the recorded verification passed; null when none was recorded
 * @param composite the recorded composite score (0-100); null when none was recorded
 * @param disputed a party challenged, or the terms filed a dispute for a low score or a quarantine
 *     (the client: it challenged)
 */
public record Outcome(
    String agreementId,
    Role role,
    Identity identity,
    String partyKey,
    String counterparty,
    Instant endedAt,
    boolean delivered,
    boolean onTime,
    Boolean passed,
    BigDecimal composite,
    boolean disputed) {

  public Outcome {
    Objects.requireNonNull(agreementId, "agreementId");
    Objects.requireNonNull(role, "role");
    Objects.requireNonNull(identity, "identity");
    Objects.requireNonNull(partyKey, "partyKey");
    Objects.requireNonNull(counterparty, "counterparty");
    Objects.requireNonNull(endedAt, "endedAt");
    if (onTime && !delivered) {
      throw new IllegalArgumentException("on time means delivered");
    }
    endedAt = Instant.ofEpochMilli(endedAt.toEpochMilli());
  }

  public Optional<Boolean> verdict() {
    return Optional.ofNullable(passed);
  }

  public Optional<BigDecimal> compositeScore() {
    return Optional.ofNullable(composite);
  }
}
