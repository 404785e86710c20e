package dev.asa.server.store.escrow;

import dev.asa.agreement.Currency;
import dev.asa.agreement.Money;
import dev.asa.ledger.Accounts;
import dev.asa.ledger.Transfer;
import dev.asa.server.store.db.Database;
import dev.asa.server.store.db.EpochMillis;
import dev.asa.server.store.db.PlainStatements;
import dev.asa.server.store.db.SqlErrors;
import java.math.BigDecimal;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import org.jdbi.v3.core.Handle;
import org.jdbi.v3.core.mapper.RowMapper;

/**
 * The escrow ledger (balanced double entries, one transfer of each kind per agreement) and the
 * payment authorizations captured at funding. Transfers are posted by a {@code Write.PostTransfer}
 * with the change that decided them.
 */
public final class LedgerStore {

  // A leg is keyed by its agreement's row_seq (V026); the transfer id is the agreement id, a slash
  // and the kind, put together when read (Transfer.id). Selecting the row_seq from the agreement
  // inserts nothing when there is no such agreement: post counts the rows. Positional, as the
  // statements of post all are (run with PlainStatements, with the change that decided them):
  // bound by addLeg in this order.
  private static final String INSERT_ENTRY =
      "INSERT INTO ledger_entries (agreement_seq, kind, leg, account, direction, currency, amount,"
          + " at)"
          + " SELECT row_seq, ?, ?, ?, ?, ?, ?, ? FROM agreements WHERE id = ?";
  private static final String ENTRY_COLUMNS =
      "a.id AS agreement_id, l.kind, l.account, l.direction, l.currency, l.amount, l.at"
          + " FROM ledger_entries l JOIN agreements a ON a.row_seq = l.agreement_seq";
  private static final String SELECT_ENTRIES_OF_AGREEMENT =
      "SELECT " + ENTRY_COLUMNS + " WHERE a.id = :agreement_id ORDER BY l.at, l.kind, l.leg";
  // The condition on the account repeats the partial index's (V026), so that both databases use
  // it: an agreement's escrow and collateral accounts are not indexed by account.
  private static final String NOT_HOLDING =
      "l.account NOT LIKE 'escrow:%' AND l.account NOT LIKE 'collateral:%'";
  static final String SELECT_ENTRIES_OF_ACCOUNT =
      "SELECT "
          + ENTRY_COLUMNS
          + " WHERE l.account = :account AND "
          + NOT_HOLDING
          + " ORDER BY l.at DESC, a.id DESC, l.kind DESC LIMIT :limit";

  /** Takes the agreement's row lock (PostgreSQL) so two units of work cannot both spend a hold. */
  private static final String LOCK_AGREEMENT =
      "UPDATE agreements SET version = version WHERE id = ?";

  // A holding account's legs are all its own agreement's (Transfer's rule), so they are read
  // through the agreement's key rather than an index by account. Bound: agreement id, account,
  // currency.
  static final String SELECT_HOLDING_LEGS =
      "SELECT direction, amount FROM ledger_entries"
          + " WHERE agreement_seq = (SELECT row_seq FROM agreements WHERE id = ?)"
          + " AND account = ? AND currency = ?";

  private static final String INSERT_AUTHORIZATION =
      "INSERT INTO escrow_authorizations (agreement_id, binding, body, created_at)"
          + " VALUES (:agreement_id, :binding, :body, :created_at)";
  private static final String SELECT_AUTHORIZATION =
      "SELECT body FROM escrow_authorizations WHERE agreement_id = :agreement_id";

  private static final RowMapper<LedgerEntry> ENTRY =
      (rs, context) -> {
        String code = rs.getString("currency");
        Currency currency =
            Currency.of(code)
                .orElseThrow(() ->
                    new IllegalStateException(
                        "the ledger holds an unknown currency '" + code + "'"));
        String agreementId = rs.getString("agreement_id");
        Transfer.Kind kind = Transfer.Kind.fromWire(rs.getString("kind"));
        return new LedgerEntry(
            Transfer.id(agreementId, kind),
            agreementId,
            kind,
            rs.getString("account"),
            LedgerEntry.Direction.valueOf(rs.getString("direction").toUpperCase(Locale.ROOT)),
            new Money(new BigDecimal(rs.getString("amount")), currency),
            EpochMillis.instant(rs, "at"));
      };

  private final Database database;

  public LedgerStore(Database database) {
    this.database = database;
  }

  /** The ledger entries of an agreement's transfers, oldest first. */
  public List<LedgerEntry> entriesOfAgreement(String agreementId) {
    return database.read(
        "reading the ledger of agreement " + agreementId,
        handle ->
            handle
                .createQuery(SELECT_ENTRIES_OF_AGREEMENT)
                .bind("agreement_id", agreementId)
                .map(ENTRY)
                .list());
  }

  /**
   * The newest {@code limit} entries of a party's or an external ledger account, newest first.
   *
   * @throws IllegalArgumentException for an agreement's escrow or collateral account, which is read
   *     with its agreement ({@link #entriesOfAgreement})
   */
  public List<LedgerEntry> entriesOfAccount(String account, int limit) {
    if (Accounts.isHolding(account)) {
      throw new IllegalArgumentException(
          account + " is an agreement's own account: read it with its agreement's entries");
    }
    return database.read(
        "reading the ledger of account " + account,
        handle ->
            handle
                .createQuery(SELECT_ENTRIES_OF_ACCOUNT)
                .bind("account", account)
                .bind("limit", limit)
                .map(ENTRY)
                .list());
  }

  /** The payment authorization captured when the agreement was funded (x402), if any. */
  public Optional<String> authorization(String agreementId) {
    return database.read(
        "reading the payment authorization of agreement " + agreementId,
        handle ->
            handle
                .createQuery(SELECT_AUTHORIZATION)
                .bind("agreement_id", agreementId)
                .mapTo(String.class)
                .findOne());
  }

  /**
   * Posts a transfer under the ledger's own rules, whatever the caller believes: an escrow or
   * collateral account pays out only what it holds, so a release, refund, slash or return without a
   * hold (or stake) of at least that amount is refused and no such account goes below zero. Why
   * here and not in the caller: callers decide from facts, and facts can be wrong; the ledger's
   * balance is what the money actually is.
   */
  public static void post(Handle handle, Transfer t) {
    post(handle, t, false);
  }

  /**
   * As {@link #post(Handle, Transfer)}, in a transaction that has already {@code lockedAgreement}:
   * one that updated the transfer's agreement row first (a change of the agreement commits with its
   * transfers), which holds the row lock that the check of the hold would otherwise take.
   */
  public static void post(Handle handle, Transfer t, boolean lockedAgreement) {
    if (Accounts.isHolding(t.from())) {
      requireHeld(handle, t, lockedAgreement);
    }
    int[] inserted =
        SqlErrors.naming(
            () ->
                "agreement "
                    + t.agreementId()
                    + " already has a "
                    + t.kind().wireName()
                    + " transfer",
            () ->
                PlainStatements.batch(
                    handle,
                    INSERT_ENTRY,
                    List.of(LedgerEntry.Direction.DEBIT, LedgerEntry.Direction.CREDIT),
                    (statement, direction) -> addLeg(statement, t, direction)));
    if (Arrays.stream(inserted).sum() != 2) {
      throw new IllegalStateException(
          "no agreement " + t.agreementId() + " to post a " + t.kind().wireName() + " to");
    }
  }

  /** Keeps the payment authorization of a funding, one per agreement (a {@code Write}). */
  public static void putAuthorization(
      Handle handle, String agreementId, String binding, String body, Instant at) {
    SqlErrors.naming(
        () -> "agreement " + agreementId + " is already funded",
        () ->
            handle
                .createUpdate(INSERT_AUTHORIZATION)
                .bind("agreement_id", agreementId)
                .bind("binding", binding)
                .bind("body", body)
                .bind("created_at", at.toEpochMilli())
                .execute());
  }

  private static void requireHeld(Handle handle, Transfer t, boolean lockedAgreement) {
    if (!lockedAgreement) {
      PlainStatements.update(handle, LOCK_AGREEMENT, PlainStatements.strings(t.agreementId()));
    }
    BigDecimal balance =
        PlainStatements.query(
            handle,
            SELECT_HOLDING_LEGS,
            statement -> {
              statement.setString(1, t.agreementId());
              statement.setString(2, t.from());
              statement.setString(3, t.amount().currency().code());
            },
            LedgerStore::balance);
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
              + "; an escrow or collateral account pays out only what was put in it");
    }
  }

  /** The sum of holding legs read: credits add, debits subtract. */
  private static BigDecimal balance(ResultSet legs) throws SQLException {
    BigDecimal balance = BigDecimal.ZERO;
    while (legs.next()) {
      BigDecimal amount = new BigDecimal(legs.getString(2));
      balance = balance.add("credit".equals(legs.getString(1)) ? amount : amount.negate());
    }
    return balance;
  }

  /** Binds {@link #INSERT_ENTRY} for the transfer's leg: the debit of from, the credit of to. */
  private static void addLeg(
      PreparedStatement statement, Transfer t, LedgerEntry.Direction direction)
      throws SQLException {
    boolean debit = direction == LedgerEntry.Direction.DEBIT;
    int i = 1;
    statement.setString(i++, t.kind().wireName());
    statement.setInt(i++, debit ? 0 : 1);
    statement.setString(i++, debit ? t.from() : t.to());
    statement.setString(i++, direction.name().toLowerCase(Locale.ROOT));
    statement.setString(i++, t.amount().currency().code());
    statement.setString(i++, t.amount().toWire());
    statement.setLong(i++, t.at().toEpochMilli());
    statement.setString(i, t.agreementId());
  }
}
