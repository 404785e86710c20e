package dev.asa.server.store.escrow;

import dev.asa.server.store.db.Database;
import dev.asa.server.store.db.DuplicateKeyException;
import dev.asa.server.store.db.EpochMillis;
import dev.asa.server.store.db.SqlErrors;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import org.jdbi.v3.core.mapper.RowMapper;

/**
 * The transactions this server signed on a chain, one per outbox message ({@link
 * ChainTransaction}). A transaction is stored before it is broadcast, and a nonce is taken once per
 * sender and chain (the table's unique key): so whatever crashes, one instruction is one
 * transaction.
 */
public final class ChainTransactionStore {

  private static final String COLUMNS =
      "message_id, agreement_id, chain_id, sender, nonce, call, tx_hash, raw_tx, signed_at,"
          + " status, block_number, confirmations, observed_at, replaced_hashes, gas_used";
  private static final String INSERT =
      "INSERT INTO chain_transactions ("
          + COLUMNS
          + ") VALUES (:message_id, :agreement_id, :chain_id, :sender, :nonce, :call, :tx_hash,"
          + " :raw_tx, :signed_at, :status, NULL, 0, :signed_at, '', NULL)";
  private static final String OBSERVE =
      "UPDATE chain_transactions SET status = :status, block_number = :block_number,"
          + " confirmations = :confirmations, gas_used = :gas_used, observed_at = :observed_at"
          + " WHERE message_id = :id";

  private static final RowMapper<ChainTransaction> ROW =
      (rs, context) -> {
        long block = rs.getLong("block_number");
        Long blockNumber = rs.wasNull() ? null : block;
        long gas = rs.getLong("gas_used");
        Long gasUsed = rs.wasNull() ? null : gas;
        return new ChainTransaction(
            rs.getString("message_id"),
            rs.getString("agreement_id"),
            rs.getLong("chain_id"),
            rs.getString("sender"),
            rs.getLong("nonce"),
            rs.getString("call"),
            rs.getString("tx_hash"),
            rs.getString("raw_tx"),
            EpochMillis.instant(rs, "signed_at"),
            ChainTransaction.Status.valueOf(rs.getString("status").toUpperCase(Locale.ROOT)),
            blockNumber,
            rs.getInt("confirmations"),
            EpochMillis.instant(rs, "observed_at"),
            hashes(rs.getString("replaced_hashes")),
            gasUsed);
      };

  private static List<String> hashes(String text) {
    return text == null || text.isEmpty() ? List.of() : List.of(text.split(","));
  }

  private final Database database;

  public ChainTransactionStore(Database database) {
    this.database = database;
  }

  /** The transaction signed for an outbox message, if one was. */
  public Optional<ChainTransaction> ofMessage(String messageId) {
    return database.read(
        "reading the chain transaction of " + messageId,
        h ->
            h.createQuery("SELECT " + COLUMNS + " FROM chain_transactions WHERE message_id = :id")
                .bind("id", messageId)
                .map(ROW)
                .findOne());
  }

  /** The agreement's transactions, oldest first. */
  public List<ChainTransaction> ofAgreement(String agreementId) {
    return database.read(
        "reading the chain transactions of " + agreementId,
        h ->
            h.createQuery(
                    "SELECT "
                        + COLUMNS
                        + " FROM chain_transactions WHERE agreement_id = :id"
                        + " ORDER BY signed_at, nonce")
                .bind("id", agreementId)
                .map(ROW)
                .list());
  }

  /**
   * This sender's transactions on this chain with a nonce from {@code from} (inclusive) to {@code
   * to} (exclusive), lowest first.
   */
  public List<ChainTransaction> ofSender(long chainId, String sender, long from, long to) {
    return database.read(
        "reading the chain transactions of " + sender,
        h ->
            h.createQuery(
                    "SELECT "
                        + COLUMNS
                        + " FROM chain_transactions WHERE chain_id = :chain AND sender = :sender"
                        + " AND nonce >= :from AND nonce < :to ORDER BY nonce")
                .bind("chain", chainId)
                .bind("sender", sender)
                .bind("from", from)
                .bind("to", to)
                .map(ROW)
                .list());
  }

  /** The nonce after the highest this sender has used on this chain, or 0. */
  public long nextNonce(long chainId, String sender) {
    return database.read(
        "reading the next nonce of " + sender,
        h ->
            h.createQuery(
                    "SELECT MAX(nonce) FROM chain_transactions"
                        + " WHERE chain_id = :chain AND sender = :sender")
                .bind("chain", chainId)
                .bind("sender", sender)
                .mapTo(Long.class)
                .findOne()
                .map(n -> n + 1)
                .orElse(0L));
  }

  /**
   * Stores a transaction signed and not yet sent.
   *
   * @throws DuplicateKeyException when its message already has one, or another took its nonce
   */
  public void insert(ChainTransaction tx) {
    database.write(
        "storing chain transaction " + tx.txHash(),
        h ->
            SqlErrors.naming(
                () ->
                    "a transaction for message "
                        + tx.messageId()
                        + ", or nonce "
                        + tx.nonce()
                        + " of "
                        + tx.sender()
                        + ", is already stored",
                () ->
                    h.createUpdate(INSERT)
                        .bind("message_id", tx.messageId())
                        .bind("agreement_id", tx.agreementId())
                        .bind("chain_id", tx.chainId())
                        .bind("sender", tx.sender())
                        .bind("nonce", tx.nonce())
                        .bind("call", tx.call())
                        .bind("tx_hash", tx.txHash())
                        .bind("raw_tx", tx.rawTx())
                        .bind("signed_at", tx.signedAt().toEpochMilli())
                        .bind("status", tx.status().name().toLowerCase(Locale.ROOT))
                        .execute()));
  }

  /**
   * Replaces a stored transaction by another with the same nonce and a higher fee, signed and not
   * yet sent; the one replaced joins {@link ChainTransaction#replacedHashes}.
   */
  public void replace(ChainTransaction current, String txHash, String rawTx, Instant at) {
    List<String> replaced = new ArrayList<>(current.replacedHashes());
    replaced.add(current.txHash());
    database.write(
        "replacing chain transaction " + current.txHash(),
        h ->
            h.createUpdate(
                    "UPDATE chain_transactions SET tx_hash = :tx_hash, raw_tx = :raw_tx,"
                        + " signed_at = :at, observed_at = :at, status = 'signed',"
                        + " replaced_hashes = :replaced WHERE message_id = :id AND tx_hash = :old")
                .bind("tx_hash", txHash)
                .bind("raw_tx", rawTx)
                .bind("at", at.toEpochMilli())
                .bind("replaced", String.join(",", replaced))
                .bind("id", current.messageId())
                .bind("old", current.txHash())
                .execute());
  }

  /**
   * Records that {@code minedHash}, one of the hashes signed for the message, is the one the chain
   * mined: it becomes the transaction's hash, the others stay as replaced.
   */
  public void minedAs(ChainTransaction current, String minedHash) {
    if (current.txHash().equals(minedHash)) {
      return;
    }
    List<String> others = new ArrayList<>(current.replacedHashes());
    others.remove(minedHash);
    others.add(current.txHash());
    database.write(
        "recording which transaction of " + current.messageId() + " was mined",
        h ->
            h.createUpdate(
                    "UPDATE chain_transactions SET tx_hash = :mined, replaced_hashes = :others"
                        + " WHERE message_id = :id")
                .bind("mined", minedHash)
                .bind("others", String.join(",", others))
                .bind("id", current.messageId())
                .execute());
  }

  /**
   * Records what the chain shows of a stored transaction now.
   *
   * @param gasUsed from its receipt, or null while it has none
   */
  public void observe(
      String messageId,
      ChainTransaction.Status status,
      Long blockNumber,
      int confirmations,
      Long gasUsed,
      Instant at) {
    database.write(
        "recording what the chain shows of " + messageId,
        h ->
            h.createUpdate(OBSERVE)
                .bind("status", status.name().toLowerCase(Locale.ROOT))
                .bind("block_number", blockNumber)
                .bind("confirmations", confirmations)
                .bind("gas_used", gasUsed)
                .bind("observed_at", at.toEpochMilli())
                .bind("id", messageId)
                .execute());
  }
}
