package dev.asa.coc;

import dev.asa.crypto.Digest;
import java.time.Duration;
import java.time.Instant;
import java.util.Objects;

/**
 * What a verified chain shows: how long it is, where it starts and ends, and over what time.
 *
 * @param genesis the genesis entry's hash, in ASA's form (the identity's {@code value})
 * @param head the last entry's hash, in ASA's form: with {@code length}, what a later look at the
 *     chain must still find at that place (a chain grows, it never changes)
 */
public record CocSummary(
    long length, Digest genesis, Digest head, Instant genesisAt, Instant latestAt) {
  public CocSummary {
    Objects.requireNonNull(genesis, "genesis");
    Objects.requireNonNull(head, "head");
    Objects.requireNonNull(genesisAt, "genesisAt");
    Objects.requireNonNull(latestAt, "latestAt");
  }

  /** The operational age: from the genesis entry's timestamp to the latest entry's. */
  public Duration age() {
    return Duration.between(genesisAt, latestAt);
  }
}
