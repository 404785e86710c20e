package dev.asa.server.store.shadow;

import java.time.Instant;
import java.util.Objects;

/**
 * A sealed envelope of Shadow Scoring criteria (V007).
 *
 * @param agreementId null for a standalone seal
 * @param sealerKey the key (base64url) of who sealed: the only party that reads the criteria before
 *     the reveal
 * @param seal the public part: {statement, signature, signer}
 * @param envelope the whole envelope with nonce and criteria: secret until {@code revealedAt}
 * @param hardening the hardening policy {max_cycles, threshold}
 * @param validation the server's validation state (JSON), null before the first validation
 */
public record SealRow(
    String id,
    String agreementId,
    String sealerKey,
    String commitment,
    String seal,
    String envelope,
    String hardening,
    String validation,
    Instant createdAt,
    Instant revealedAt) {
  public SealRow {
    Objects.requireNonNull(id, "id");
    Objects.requireNonNull(sealerKey, "sealerKey");
    Objects.requireNonNull(commitment, "commitment");
    Objects.requireNonNull(seal, "seal");
    Objects.requireNonNull(envelope, "envelope");
    Objects.requireNonNull(hardening, "hardening");
    Objects.requireNonNull(createdAt, "createdAt");
  }

  public boolean revealed() {
    return revealedAt != null;
  }
}
