package dev.asa.server.escrow.erc8183;

import java.math.BigInteger;
import java.time.Instant;
import java.util.Objects;

/**
 * An ERC-8183 job as its contract's {@code getJob} answers, read at one block.
 *
 * @param expiredAt after this, anyone may {@code claimRefund} a job still holding its budget
 */
public record Job(
    BigInteger id,
    String client,
    String provider,
    String evaluator,
    String description,
    BigInteger budget,
    Instant expiredAt,
    JobStatus status) {

  static final String ZERO_ADDRESS = "0x0000000000000000000000000000000000000000";

  public Job {
    Objects.requireNonNull(id, "id");
    Objects.requireNonNull(status, "status");
  }

  /** The contract keeps no client for a job id it never created. */
  public boolean exists() {
    return client != null && !Addresses.same(client, ZERO_ADDRESS);
  }
}
