package dev.asa.server.store.escrow;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * A transaction this server signed for one outbox message, and what the chain last showed of it.
 *
 * @param call the contract function it calls ({@code complete}, {@code reject}, {@code
 *     claimRefund})
 * @param rawTx the signed transaction, hex: broadcast as it is, as often as needed
 * @param blockNumber the block it was last seen mined in, or null
 * @param replacedHashes earlier transactions with the same nonce that this one replaced for a
 *     higher fee, oldest first: at most one of them all can be mined
 * @param gasUsed the gas its receipt shows it used, or null while no receipt was seen
 */
public record ChainTransaction(
    String messageId,
    String agreementId,
    long chainId,
    String sender,
    long nonce,
    String call,
    String txHash,
    String rawTx,
    Instant signedAt,
    Status status,
    Long blockNumber,
    int confirmations,
    Instant observedAt,
    List<String> replacedHashes,
    Long gasUsed) {

  public ChainTransaction {
    Objects.requireNonNull(messageId, "messageId");
    Objects.requireNonNull(agreementId, "agreementId");
    Objects.requireNonNull(sender, "sender");
    Objects.requireNonNull(call, "call");
    Objects.requireNonNull(txHash, "txHash");
    Objects.requireNonNull(rawTx, "rawTx");
    Objects.requireNonNull(signedAt, "signedAt");
    Objects.requireNonNull(status, "status");
    Objects.requireNonNull(observedAt, "observedAt");
    replacedHashes = List.copyOf(replacedHashes);
  }

  /** Every hash signed for this instruction, the current one first. */
  public List<String> allHashes() {
    List<String> all = new ArrayList<>();
    all.add(txHash);
    all.addAll(replacedHashes.reversed());
    return all;
  }

  public enum Status {
    /** Signed and stored; not yet seen by the chain's node. */
    SIGNED,
    /** Accepted by the node, not yet mined (or no longer: a reorg dropped its block). */
    SENT,
    /** Mined and succeeded, with fewer confirmations than required. */
    MINED,
    /** Mined, succeeded, and as deep as required: the instruction is done. */
    CONFIRMED,
    /** Mined and reverted: the call changed nothing. */
    REVERTED
  }
}
