package dev.asa.agreement;

import java.time.Instant;
import java.util.Objects;
import java.util.Optional;

/**
 * The typed view of an agreement's terms: every member of the section 4.1 document that the
 * protocol acts on. Unknown members are not lost: {@link dev.asa.document.Agreement} keeps the
 * document itself, and this view is derived from it.
 */
public record AgreementTerms(
    AsaVersion asaVersion,
    String agreementId,
    Instant createdAt,
    Instant expiresAt,
    Parties parties,
    Service service,
    QualityCriteria qualityCriteria,
    VerificationTerms verification,
    Escrow escrow,
    DisputeTerms dispute,
    Eligibility eligibility) {

  public AgreementTerms {
    Objects.requireNonNull(asaVersion, "asaVersion");
    Objects.requireNonNull(agreementId, "agreementId");
    Objects.requireNonNull(createdAt, "createdAt");
    Objects.requireNonNull(parties, "parties");
    Objects.requireNonNull(service, "service");
    Objects.requireNonNull(qualityCriteria, "qualityCriteria");
    Objects.requireNonNull(verification, "verification");
    Objects.requireNonNull(escrow, "escrow");
    Objects.requireNonNull(eligibility, "eligibility (Eligibility.NONE for none)");
  }

  public Optional<Instant> expiry() {
    return Optional.ofNullable(expiresAt);
  }

  /**
   * How long the evaluator has after delivery before the dead-man's switch acts: the switch's own
   * {@code evaluator_timeout_seconds}, else the verification terms'.
   */
  public long evaluatorDeadlineSeconds() {
    Long dms = escrow.deadMansSwitch().evaluatorTimeoutSeconds();
    return dms != null ? dms : verification.evaluatorTimeoutSeconds();
  }

  public Optional<DisputeTerms> disputeTerms() {
    return Optional.ofNullable(dispute);
  }
}
