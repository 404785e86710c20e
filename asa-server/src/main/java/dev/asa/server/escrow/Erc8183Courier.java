package dev.asa.server.escrow;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.asa.json.Json;
import dev.asa.server.escrow.erc8183.Erc8183Chain;
import dev.asa.server.escrow.erc8183.Job;
import dev.asa.server.escrow.erc8183.JobStatus;
import dev.asa.server.store.db.DuplicateKeyException;
import dev.asa.server.store.escrow.ChainTransaction;
import dev.asa.server.store.escrow.ChainTransactionStore;
import dev.asa.server.store.escrow.OutboxMessage;
import java.math.BigInteger;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.HexFormat;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Carries an {@code erc8183} settlement to the chain: {@code complete} (the provider is paid) or a
 * refund ({@code reject} while the job has not expired, {@code claimRefund} once it has).
 *
 * <p>One instruction is one transaction, whatever crashes: the first attempt signs it with the
 * attestor's next nonce and stores it ({@link ChainTransactionStore}) <em>before</em> sending it;
 * every later attempt, on this node or another after a restart, sends the same bytes again, which
 * have the same hash and nonce, so at most one can ever be mined. An attempt is delivered once its
 * receipt is as deep as the configured confirmations; a receipt that disappears (a reorg) makes the
 * next attempt send the same bytes again. Before signing, and when a transaction fails, the job is
 * read: one already settled the way asked (the client claimed its refund itself, say) needs no
 * transaction.
 */
final class Erc8183Courier implements Courier {
  private static final Logger log = LoggerFactory.getLogger(Erc8183Courier.class);

  /** Outbox message kinds: {@code erc8183.complete}, {@code erc8183.refund}. */
  static final String KIND_PREFIX = "erc8183.";

  enum Call {
    /** {@code complete(jobId, reason)}: the whole budget to the provider. */
    COMPLETE,
    /** {@code reject(jobId, reason)}, or {@code claimRefund(jobId)} once expired: all back. */
    REFUND;

    String wireName() {
      return name().toLowerCase(Locale.ROOT);
    }

    static Call fromWire(String s) {
      return valueOf(s.toUpperCase(Locale.ROOT));
    }

    boolean doneAt(JobStatus status) {
      return this == COMPLETE ? status == JobStatus.COMPLETED : status.refunded();
    }
  }

  /** What an outbox message asks of the chain (its body). */
  record Instruction(long chainId, String contract, BigInteger jobId, Call call, byte[] reason) {
    Instruction {
      reason = reason.clone();
    }

    @Override
    public byte[] reason() {
      return reason.clone();
    }

    ObjectNode toJson() {
      ObjectNode o = Json.object();
      o.put("chain_id", chainId);
      o.put("contract_address", contract);
      o.put("job_id", jobId.toString());
      o.put("call", call.wireName());
      o.put("reason", "0x" + HexFormat.of().formatHex(reason));
      return o;
    }

    /** The body this server wrote (the outbox is the server's own store). */
    static Instruction fromJson(String body) {
      JsonNode o = Json.parseTrusted(body);
      return new Instruction(
          o.get("chain_id").asLong(),
          o.get("contract_address").textValue(),
          new BigInteger(o.get("job_id").textValue()),
          Call.fromWire(o.get("call").textValue()),
          HexFormat.of().parseHex(o.get("reason").textValue().substring(2)));
    }
  }

  /**
   * How long a sent transaction may wait unmined before it is replaced with a higher fee (the base
   * fee rose past what it offers, say).
   */
  static final Duration STUCK_AFTER = Duration.ofMinutes(5);

  private final Erc8183Chain chain;
  private final ChainTransactionStore transactions;
  private final Clock clock;

  Erc8183Courier(Erc8183Chain chain, ChainTransactionStore transactions, Clock clock) {
    this.chain = chain;
    this.transactions = transactions;
    this.clock = clock;
  }

  /** Whether this courier carries the message. */
  static boolean carries(OutboxMessage message) {
    return message.kind().startsWith(KIND_PREFIX);
  }

  @Override
  public Attempt deliver(OutboxMessage message) {
    Instruction instruction = Instruction.fromJson(message.body());
    if (instruction.chainId() != chain.chainId()) {
      return new Attempt.Retry(
          "the instruction is for chain "
              + instruction.chainId()
              + ", but the configured RPC serves chain "
              + chain.chainId());
    }
    Optional<ChainTransaction> stored = transactions.ofMessage(message.id());
    if (stored.isEmpty()) {
      Job job = chain.job(instruction.contract(), instruction.jobId(), chain.head());
      if (instruction.call().doneAt(job.status())) {
        return alreadySettled(job, "nothing sent");
      }
      Optional<Attempt> refused = refusal(instruction, job);
      if (refused.isPresent()) {
        return refused.get();
      }
      try {
        stored = Optional.of(sign(message, instruction, job));
      } catch (DuplicateKeyException e) {
        return new Attempt.Retry(
            "another message took the nonce; signing again: " + e.getMessage());
      }
    }
    return follow(stored.get(), instruction);
  }

  /**
   * Done without a transaction of this server's (or without the one that failed): the job is
   * already settled the way the instruction asks, by another transaction.
   */
  private static Attempt alreadySettled(Job job, String detail) {
    return new Attempt.Delivered(
        0,
        "job " + job.id() + " is already " + job.status().displayName() + " on chain; " + detail);
  }

  /** Why the job cannot take the call now, if so (read at the latest block). */
  private static Optional<Attempt> refusal(Instruction instruction, Job job) {
    if (!job.exists()) {
      return Optional.of(
          new Attempt.Failed(
              "contract "
                  + instruction.contract()
                  + " has no job "
                  + instruction.jobId()
                  + " now (a reorg deeper than the confirmations?)"));
    }
    if (instruction.call() == Call.COMPLETE && job.status() != JobStatus.SUBMITTED) {
      return Optional.of(
          new Attempt.Failed(
              "job "
                  + job.id()
                  + " is "
                  + job.status().displayName()
                  + ": only a Submitted job can be completed, and the provider was not paid on"
                  + " chain"));
    }
    if (instruction.call() == Call.REFUND && !job.status().holdsBudget()) {
      return Optional.of(
          new Attempt.Failed(
              "job "
                  + job.id()
                  + " is "
                  + job.status().displayName()
                  + ": it holds no budget to refund"));
    }
    return Optional.empty();
  }

  /** Signs the call with the next nonce and stores it, not yet sent. */
  private ChainTransaction sign(OutboxMessage message, Instruction instruction, Job job) {
    String call;
    String data;
    if (instruction.call() == Call.COMPLETE) {
      call = "complete";
      data = Erc8183Chain.completeCall(instruction.jobId(), instruction.reason());
    } else if (chain.latestTime().isBefore(job.expiredAt())) {
      call = "reject";
      data = Erc8183Chain.rejectCall(instruction.jobId(), instruction.reason());
    } else {
      call = "claimRefund";
      data = Erc8183Chain.claimRefundCall(instruction.jobId());
    }
    long nonce =
        Math.max(
            transactions.nextNonce(instruction.chainId(), chain.attestor()), chain.pendingNonce());
    Erc8183Chain.Signed signed = chain.sign(nonce, instruction.contract(), data);
    Instant now = clock.instant();
    ChainTransaction tx =
        new ChainTransaction(
            message.id(),
            message.agreementId(),
            instruction.chainId(),
            chain.attestor(),
            nonce,
            call,
            signed.txHash(),
            signed.rawTx(),
            now,
            ChainTransaction.Status.SIGNED,
            null,
            0,
            now,
            List.of(),
            null);
    transactions.insert(tx);
    log.info(
        "signed {} of job {} for {}: transaction {} (nonce {})",
        call,
        instruction.jobId(),
        message.agreementId(),
        signed.txHash(),
        nonce);
    return tx;
  }

  /**
   * Whether a transaction the node accepted has waited long enough unmined to be replaced with a
   * higher fee: sent, none of its nonce mined yet, and signed {@link #STUCK_AFTER} ago.
   */
  private boolean stuck(ChainTransaction tx) {
    return tx.status() == ChainTransaction.Status.SENT
        && !clock.instant().isBefore(tx.signedAt().plus(STUCK_AFTER))
        && chain.minedNonce() <= tx.nonce();
  }

  /**
   * Sends again this server's stored transactions with the nonces below {@code tx}'s that the chain
   * has not mined (a reorg deeper than the confirmations dropped them, or the server stopped
   * between storing one and sending it): until they are mined, no later nonce can be. They are the
   * same signed bytes, so none can run twice. Whether there were any.
   */
  private boolean refill(ChainTransaction tx) {
    long next = chain.minedNonce();
    if (next >= tx.nonce()) {
      return false;
    }
    var gap = transactions.ofSender(tx.chainId(), tx.sender(), next, tx.nonce());
    for (ChainTransaction earlier : gap) {
      log.warn(
          "transaction {} (nonce {}) is not on chain, and later nonces wait for it: sending it"
              + " again",
          earlier.txHash(),
          earlier.nonce());
      chain.broadcast(earlier.rawTx());
    }
    return !gap.isEmpty();
  }

  /**
   * Sends the stored transaction if the chain has no receipt for it (replacing it first if it has
   * waited {@link #STUCK_AFTER} unmined), and reads how deep it is.
   */
  private Attempt follow(ChainTransaction tx, Instruction instruction) {
    Optional<Erc8183Chain.Receipt> receipt = Optional.empty();
    for (String hash : tx.allHashes()) {
      receipt = chain.receipt(hash);
      if (receipt.isPresent()) {
        if (!hash.equals(tx.txHash())) {
          transactions.minedAs(tx, hash);
          tx = transactions.ofMessage(tx.messageId()).orElseThrow();
        }
        break;
      }
    }
    if (receipt.isEmpty() && stuck(tx)) {
      Erc8183Chain.Signed replacement = chain.replacement(tx.rawTx());
      log.warn(
          "transaction {} (nonce {}) has waited since {} unmined at a gas price of {}: replacing"
              + " it with {} at {}",
          tx.txHash(),
          tx.nonce(),
          tx.signedAt(),
          Erc8183Chain.gasPriceOf(tx.rawTx()),
          replacement.txHash(),
          Erc8183Chain.gasPriceOf(replacement.rawTx()));
      transactions.replace(tx, replacement.txHash(), replacement.rawTx(), clock.instant());
      tx = transactions.ofMessage(tx.messageId()).orElseThrow();
    }
    if (receipt.isEmpty()) {
      Optional<String> refused = chain.broadcast(tx.rawTx());
      if (refused.isPresent() && refill(tx)) {
        refused = chain.broadcast(tx.rawTx());
      }
      if (refused.isPresent()) {
        Job job = chain.job(instruction.contract(), instruction.jobId(), chain.head());
        if (instruction.call().doneAt(job.status())) {
          return alreadySettled(
              job, "transaction " + tx.txHash() + " was refused (" + refused.get() + ")");
        }
        return new Attempt.Retry(
            "the node refused transaction " + tx.txHash() + ": " + refused.get());
      }
      transactions.observe(
          tx.messageId(), ChainTransaction.Status.SENT, null, 0, null, clock.instant());
      return new Attempt.Retry(
          "transaction " + tx.txHash() + " (nonce " + tx.nonce() + ") sent; not yet mined");
    }
    Erc8183Chain.Receipt r = receipt.get();
    int confirmations =
        (int) Math.max(0, Math.min(Integer.MAX_VALUE, chain.head() - r.block() + 1));
    boolean deep = confirmations >= chain.confirmations();
    if (!r.succeeded()) {
      transactions.observe(
          tx.messageId(),
          ChainTransaction.Status.REVERTED,
          r.block(),
          confirmations,
          r.gasUsed(),
          clock.instant());
      Job job = chain.job(instruction.contract(), instruction.jobId(), chain.head());
      if (instruction.call().doneAt(job.status())) {
        return alreadySettled(job, "transaction " + tx.txHash() + " reverted");
      }
      String reason =
          "transaction "
              + tx.txHash()
              + " reverted in block "
              + r.block()
              + "; job "
              + job.id()
              + " is "
              + job.status().displayName();
      return deep ? new Attempt.Failed(reason) : new Attempt.Retry(reason);
    }
    transactions.observe(
        tx.messageId(),
        deep ? ChainTransaction.Status.CONFIRMED : ChainTransaction.Status.MINED,
        r.block(),
        confirmations,
        r.gasUsed(),
        clock.instant());
    String where =
        tx.call()
            + " in transaction "
            + tx.txHash()
            + ", block "
            + r.block()
            + ", "
            + confirmations
            + " of "
            + chain.confirmations()
            + " confirmation(s), "
            + r.gasUsed()
            + " gas";
    return deep ? new Attempt.Delivered(0, where) : new Attempt.Retry("mined: " + where);
  }
}
