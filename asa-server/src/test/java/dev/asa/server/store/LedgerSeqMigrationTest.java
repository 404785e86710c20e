package dev.asa.server.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.asa.agreement.Currency;
import dev.asa.agreement.Money;
import dev.asa.ledger.Transfer;
import dev.asa.server.store.db.Dialect;
import dev.asa.server.store.db.TestPostgres;
import dev.asa.server.store.escrow.LedgerEntry;
import java.math.BigDecimal;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * V026: the ledger's legs move to a key of the agreement's row_seq and still read as they were
 * written (the transfer id put together from the agreement id and the kind), on both databases, and
 * the key still refuses a second transfer of a kind.
 */
class LedgerSeqMigrationTest {
  private static final int BEFORE_SEQ_KEYS = 25;

  @TempDir Path dataDir;

  @Test
  void sqliteReadsTheLegsWrittenBeforeAndRefusesASecondHold() throws SQLException {
    try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + dataDir.resolve("asa.db"))) {
      writeAsAnOlderBuild(c, Dialect.SQLITE);
    }
    try (Store store = Stores.open(null, dataDir)) {
      assertLegsReadBackAndKeyHolds(store);
    }
  }

  @Test
  void postgresqlReadsTheLegsWrittenBeforeAndRefusesASecondHold() throws SQLException {
    try (TestPostgres postgres = TestPostgres.freshSchema()) {
      try (Connection c = postgres.connection()) {
        writeAsAnOlderBuild(c, Dialect.POSTGRESQL);
      }
      try (Store store = Stores.open(postgres.url(), dataDir)) {
        assertLegsReadBackAndKeyHolds(store);
      }
    }
  }

  private static void writeAsAnOlderBuild(Connection c, Dialect dialect) throws SQLException {
    OlderBuild.migrate(c, dialect, BEFORE_SEQ_KEYS);
    for (String id : List.of("asa-one", "asa-two")) {
      OlderBuild.write(
          c,
          "INSERT INTO agreements (id, version, state, document, facts, service_type,"
              + " client_identity, provider_identity, evaluator_identity, created_at, updated_at)"
              + " VALUES (?, 1, 'active', '{}', '{}', 'general', 'c', 'p', 'e', 1, 1)",
          id);
    }
    leg(c, "asa-one", "fund", 0, "external:ledger", "debit", 1_000);
    leg(c, "asa-one", "fund", 1, "party:C", "credit", 1_000);
    leg(c, "asa-one", "hold", 0, "party:C", "debit", 2_000);
    leg(c, "asa-one", "hold", 1, "escrow:asa-one", "credit", 2_000);
    leg(c, "asa-two", "fund", 0, "external:ledger", "debit", 3_000);
    leg(c, "asa-two", "fund", 1, "party:C", "credit", 3_000);
  }

  private static void leg(
      Connection c, String agreement, String kind, int leg, String account, String dir, long at)
      throws SQLException {
    OlderBuild.write(
        c,
        "INSERT INTO ledger_entries (transfer_id, leg, agreement_id, kind, account, direction,"
            + " currency, amount, at) VALUES (?, ?, ?, ?, ?, ?, 'USD', '10.00', ?)",
        agreement + "/" + kind,
        leg,
        agreement,
        kind,
        account,
        dir,
        at);
  }

  private static void assertLegsReadBackAndKeyHolds(Store store) {
    List<LedgerEntry> one = store.ledger().entriesOfAgreement("asa-one");
    assertThat(one)
        .extracting(LedgerEntry::transferId)
        .containsExactly("asa-one/fund", "asa-one/fund", "asa-one/hold", "asa-one/hold");
    assertThat(one).extracting(LedgerEntry::agreementId).containsOnly("asa-one");
    assertThat(one.get(3).account()).isEqualTo("escrow:asa-one");
    assertThat(one.get(3).direction()).isEqualTo(LedgerEntry.Direction.CREDIT);
    assertThat(one.get(3).at()).isEqualTo(Instant.ofEpochMilli(2_000));
    assertThat(store.ledger().entriesOfAccount("party:C", 10))
        .extracting(LedgerEntry::transferId)
        .containsExactly("asa-two/fund", "asa-one/hold", "asa-one/fund");
    assertThat(store.ledger().entriesOfAccount("external:ledger", 10))
        .extracting(LedgerEntry::transferId)
        .containsExactly("asa-two/fund", "asa-one/fund");
    // An agreement's own accounts are not indexed by account: they are read through it.
    assertThatThrownBy(() -> store.ledger().entriesOfAccount("escrow:asa-one", 10))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("read it with its agreement");

    assertThatThrownBy(() -> store.writes().apply(List.of(fundOf("asa-one"))))
        .hasMessageContaining("already has a fund transfer");
    assertThatThrownBy(() -> store.writes().apply(List.of(fundOf("asa-none"))))
        .hasMessageContaining("no agreement asa-none");
    assertThat(store.ledger().entriesOfAgreement("asa-none")).isEmpty();
  }

  /** A funding of 5.00 USD posted to {@code agreementId}. */
  private static Write fundOf(String agreementId) {
    return new Write.PostTransfer(
        new Transfer(
            agreementId,
            Transfer.Kind.FUND,
            "external:ledger",
            "party:C",
            new Money(new BigDecimal("5.00"), Currency.of("USD").orElseThrow()),
            Instant.ofEpochMilli(4_000)));
  }
}
