package dev.asa.server.store;

import dev.asa.agreement.Currency;
import dev.asa.agreement.Money;
import dev.asa.escrow.Accounts;
import dev.asa.escrow.Transfer;
import java.math.BigDecimal;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Types;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * The SQL of the ledger and the outbox (V005), used by {@link JdbcAgreementStore} inside its
 * transactions.
 */
final class EscrowTables {
  private EscrowTables() {}

  private static final String INSERT_ENTRY =
      "INSERT INTO ledger_entries (transfer_id, leg, agreement_id, kind, account, direction, currency, amount, at)"
          + " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)";
  private static final String ENTRY_COLUMNS =
      "transfer_id, agreement_id, kind, account, direction, currency, amount, at";
  private static final String SELECT_ENTRIES_OF_AGREEMENT =
      "SELECT "
          + ENTRY_COLUMNS
          + " FROM ledger_entries WHERE agreement_id = ? ORDER BY at, transfer_id, leg";
  private static final String SELECT_ENTRIES_OF_ACCOUNT =
      "SELECT "
          + ENTRY_COLUMNS
          + " FROM ledger_entries WHERE account = ? ORDER BY at DESC, transfer_id DESC LIMIT ?";

  private static final String INSERT_MESSAGE =
      "INSERT INTO outbox (id, agreement_id, kind, destination, body, created_at, status, attempts, next_attempt_at)"
          + " VALUES (?, ?, ?, ?, ?, ?, 'pending', 0, ?)";
  private static final String MESSAGE_COLUMNS =
      "id, agreement_id, kind, destination, body, created_at, attempts, status, next_attempt_at, last_error, response, delivered_at";
  private static final String SELECT_MESSAGES_OF_AGREEMENT =
      "SELECT " + MESSAGE_COLUMNS + " FROM outbox WHERE agreement_id = ? ORDER BY created_at, id";
  private static final String SELECT_DUE_MESSAGES =
      "SELECT "
          + MESSAGE_COLUMNS
          + " FROM outbox WHERE status = 'pending' AND next_attempt_at <= ?"
          + " AND (claimed_until IS NULL OR claimed_until < ?) ORDER BY next_attempt_at LIMIT ?";
  private static final String CLAIM_MESSAGE =
      "UPDATE outbox SET claimed_by = ?, claimed_until = ? WHERE id = ? AND status = 'pending'"
          + " AND (claimed_until IS NULL OR claimed_until < ?)";
  private static final String RECORD_ATTEMPT =
      "UPDATE outbox SET status = ?, attempts = attempts + 1, next_attempt_at = ?, last_error = ?, response = ?,"
          + " delivered_at = ?, claimed_by = NULL, claimed_until = NULL WHERE id = ? AND claimed_by = ?";

  private static final String INSERT_AUTHORIZATION =
      "INSERT INTO escrow_authorizations (agreement_id, binding, body, created_at) VALUES (?, ?, ?, ?)";
  private static final String SELECT_AUTHORIZATION =
      "SELECT body FROM escrow_authorizations WHERE agreement_id = ?";

  static void putAuthorization(Statements sql, Write.PutAuthorization put) throws SQLException {
    PreparedStatement s = sql.prepare(INSERT_AUTHORIZATION);
    s.setString(1, put.agreementId());
    s.setString(2, put.binding());
    s.setString(3, put.body());
    s.setLong(4, put.at().toEpochMilli());
    JdbcAgreementStore.executeUpdate(
        s, () -> "agreement " + put.agreementId() + " is already funded");
  }

  static Optional<String> authorization(Statements sql, String agreementId) throws SQLException {
    PreparedStatement s = sql.prepare(SELECT_AUTHORIZATION);
    s.setString(1, agreementId);
    try (ResultSet rs = s.executeQuery()) {
      return rs.next() ? Optional.of(rs.getString(1)) : Optional.empty();
    }
  }

  /**
   * Takes the agreement's row lock (PostgreSQL) so two units of work cannot both spend one hold.
   */
  private static final String LOCK_AGREEMENT =
      "UPDATE agreements SET version = version WHERE id = ?";

  private static final String SELECT_ACCOUNT_LEGS =
      "SELECT direction, amount FROM ledger_entries WHERE account = ? AND currency = ?";

  /**
   * Posts a transfer under the ledger's own rules, whatever the caller believes: an escrow account
   * pays out only what it holds, so a release or refund without a hold of at least that amount is
   * refused and no escrow account goes below zero. Why here and not in the caller: callers decide
   * from facts, and facts can be wrong; the ledger's balance is what the money actually is.
   */
  static void postTransfer(Statements sql, Transfer t) throws SQLException {
    if (t.from().startsWith(ESCROW_PREFIX)) {
      requireHeld(sql, t);
    }
    PreparedStatement s = sql.prepare(INSERT_ENTRY);
    addLeg(s, t, 0, t.from(), LedgerEntry.Direction.DEBIT);
    addLeg(s, t, 1, t.to(), LedgerEntry.Direction.CREDIT);
    JdbcAgreementStore.executeBatch(
        s,
        () ->
            "agreement " + t.agreementId() + " already has a " + t.kind().wireName() + " transfer");
  }

  private static final String ESCROW_PREFIX = Accounts.escrow("");

  private static void requireHeld(Statements sql, Transfer t) throws SQLException {
    PreparedStatement lock = sql.prepare(LOCK_AGREEMENT);
    lock.setString(1, t.agreementId());
    lock.executeUpdate();
    PreparedStatement s = sql.prepare(SELECT_ACCOUNT_LEGS);
    s.setString(1, t.from());
    s.setString(2, t.amount().currency().code());
    BigDecimal balance = BigDecimal.ZERO;
    try (ResultSet rs = s.executeQuery()) {
      while (rs.next()) {
        BigDecimal amount = new BigDecimal(rs.getString(2));
        balance = "credit".equals(rs.getString(1)) ? balance.add(amount) : balance.subtract(amount);
      }
    }
    if (balance.compareTo(t.amount().amount()) < 0) {
      throw new LedgerRefusedException(
          "the ledger refuses the "
              + t.kind().wireName()
              + " of "
              + t.amount().toWire()
              + " "
              + t.amount().currency().code()
              + " from "
              + t.from()
              + ": it holds "
              + balance.toPlainString()
              + "; an escrow pays out only what was held in it");
    }
  }

  private static void addLeg(
      PreparedStatement s, Transfer t, int leg, String account, LedgerEntry.Direction d)
      throws SQLException {
    s.setString(1, t.id());
    s.setInt(2, leg);
    s.setString(3, t.agreementId());
    s.setString(4, t.kind().wireName());
    s.setString(5, account);
    s.setString(6, d.name().toLowerCase(Locale.ROOT));
    s.setString(7, t.amount().currency().code());
    s.setString(8, t.amount().toWire());
    s.setLong(9, t.at().toEpochMilli());
    s.addBatch();
  }

  static void enqueue(Statements sql, OutboxMessage m) throws SQLException {
    PreparedStatement s = sql.prepare(INSERT_MESSAGE);
    s.setString(1, m.id());
    s.setString(2, m.agreementId());
    s.setString(3, m.kind());
    s.setString(4, m.destination());
    s.setString(5, m.body());
    s.setLong(6, m.createdAt().toEpochMilli());
    s.setLong(7, m.createdAt().toEpochMilli());
    JdbcAgreementStore.executeUpdate(s, () -> "outbox message " + m.id() + " already exists");
  }

  static List<LedgerEntry> entriesOfAgreement(Statements sql, String agreementId)
      throws SQLException {
    PreparedStatement s = sql.prepare(SELECT_ENTRIES_OF_AGREEMENT);
    s.setString(1, agreementId);
    return entries(s);
  }

  static List<LedgerEntry> entriesOfAccount(Statements sql, String account, int limit)
      throws SQLException {
    PreparedStatement s = sql.prepare(SELECT_ENTRIES_OF_ACCOUNT);
    s.setString(1, account);
    s.setInt(2, limit);
    return entries(s);
  }

  private static List<LedgerEntry> entries(PreparedStatement s) throws SQLException {
    List<LedgerEntry> out = new ArrayList<>();
    try (ResultSet rs = s.executeQuery()) {
      while (rs.next()) {
        String code = rs.getString(6);
        Currency currency =
            Currency.of(code)
                .orElseThrow(() ->
                    new IllegalStateException(
                        "the ledger holds an unknown currency '" + code + "'"));
        out.add(
            new LedgerEntry(
                rs.getString(1),
                rs.getString(2),
                Transfer.Kind.fromWire(rs.getString(3)),
                rs.getString(4),
                LedgerEntry.Direction.valueOf(rs.getString(5).toUpperCase(Locale.ROOT)),
                new Money(new BigDecimal(rs.getString(7)), currency),
                Instant.ofEpochMilli(rs.getLong(8))));
      }
    }
    return out;
  }

  static List<OutboxRow> messagesOfAgreement(Statements sql, String agreementId)
      throws SQLException {
    PreparedStatement s = sql.prepare(SELECT_MESSAGES_OF_AGREEMENT);
    s.setString(1, agreementId);
    return messages(s);
  }

  static List<OutboxMessage> claimDue(
      Statements sql, Instant now, String node, Duration lease, int limit) throws SQLException {
    PreparedStatement select = sql.prepare(SELECT_DUE_MESSAGES);
    select.setLong(1, now.toEpochMilli());
    select.setLong(2, now.toEpochMilli());
    select.setInt(3, limit);
    List<OutboxMessage> claimed = new ArrayList<>();
    for (OutboxRow row : messages(select)) {
      PreparedStatement claim = sql.prepare(CLAIM_MESSAGE);
      claim.setString(1, node);
      claim.setLong(2, now.plus(lease).toEpochMilli());
      claim.setString(3, row.message().id());
      claim.setLong(4, now.toEpochMilli());
      if (claim.executeUpdate() == 1) { // another node may have claimed it since the select
        claimed.add(row.message());
      }
    }
    return claimed;
  }

  static void recordAttempt(
      Statements sql,
      String id,
      String node,
      OutboxRow.Status status,
      Instant nextAttemptAt,
      String error,
      String response,
      Instant deliveredAt)
      throws SQLException {
    PreparedStatement s = sql.prepare(RECORD_ATTEMPT);
    s.setString(1, status.name().toLowerCase(Locale.ROOT));
    s.setLong(2, nextAttemptAt.toEpochMilli());
    setNullable(s, 3, error);
    setNullable(s, 4, response);
    if (deliveredAt == null) {
      s.setNull(5, Types.BIGINT);
    } else {
      s.setLong(5, deliveredAt.toEpochMilli());
    }
    s.setString(6, id);
    s.setString(7, node);
    s.executeUpdate();
  }

  private static void setNullable(PreparedStatement s, int column, String value)
      throws SQLException {
    if (value == null) {
      s.setNull(column, Types.VARCHAR);
    } else {
      s.setString(column, value);
    }
  }

  private static List<OutboxRow> messages(PreparedStatement s) throws SQLException {
    List<OutboxRow> out = new ArrayList<>();
    try (ResultSet rs = s.executeQuery()) {
      while (rs.next()) {
        OutboxMessage m =
            new OutboxMessage(
                rs.getString(1),
                rs.getString(2),
                rs.getString(3),
                rs.getString(4),
                rs.getString(5),
                Instant.ofEpochMilli(rs.getLong(6)),
                rs.getInt(7));
        long delivered = rs.getLong(12);
        Instant deliveredAt = rs.wasNull() ? null : Instant.ofEpochMilli(delivered);
        out.add(
            new OutboxRow(
                m,
                OutboxRow.Status.valueOf(rs.getString(8).toUpperCase(Locale.ROOT)),
                rs.getInt(7),
                Instant.ofEpochMilli(rs.getLong(9)),
                rs.getString(10),
                rs.getString(11),
                deliveredAt));
      }
    }
    return out;
  }
}
