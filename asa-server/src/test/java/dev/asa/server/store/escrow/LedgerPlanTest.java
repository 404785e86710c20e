package dev.asa.server.store.escrow;

import static org.assertj.core.api.Assertions.assertThat;

import dev.asa.server.store.Store;
import dev.asa.server.store.Stores;
import dev.asa.server.store.db.QueryText;
import dev.asa.server.store.db.TestPostgres;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The ledger's index by account leaves out holding accounts (V026): a query may use it only when it
 * repeats the index's condition, and a database that cannot prove the condition reads the whole
 * table instead, silently. So the plans are read here: an account's entries through the partial
 * index, a holding account's balance through the agreement's key, on both databases.
 */
class LedgerPlanTest {
  @TempDir Path dataDir;

  @Test
  void sqliteReadsAnAccountThroughThePartialIndexAndAHoldingAccountThroughTheKey()
      throws SQLException {
    Stores.open(null, dataDir).close();
    try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + dataDir.resolve("asa.db"));
        Statement s = c.createStatement()) {
      assertThat(
              QueryText.of(s, "EXPLAIN QUERY PLAN " + bound(LedgerStore.SELECT_ENTRIES_OF_ACCOUNT)))
          .contains("INDEX ledger_by_account (account=?)");
      assertThat(QueryText.of(s, "EXPLAIN QUERY PLAN " + holdingLegs()))
          .contains("PRIMARY KEY (agreement_seq=?)");
    }
  }

  @Test
  void postgresqlReadsAnAccountThroughThePartialIndexAndAHoldingAccountThroughTheKey()
      throws SQLException {
    try (TestPostgres pg = TestPostgres.freshSchema();
        Store store = Stores.open(pg.url(), null);
        Connection c = pg.connection();
        Statement s = c.createStatement()) {
      // An empty table is cheapest to read whole; what is checked is that the index can serve.
      s.execute("SET enable_seqscan = off");
      assertThat(QueryText.of(s, "EXPLAIN " + bound(LedgerStore.SELECT_ENTRIES_OF_ACCOUNT)))
          .contains("ledger_by_account");
      assertThat(QueryText.of(s, "EXPLAIN " + holdingLegs())).contains("ledger_entries_pkey");
    }
  }

  /** The positional statement of a holding account's legs, its parameters given values in order. */
  private static String holdingLegs() {
    String sql = LedgerStore.SELECT_HOLDING_LEGS;
    for (String value : new String[] {"'asa-1'", "'escrow:asa-1'", "'USD'"}) {
      sql = sql.replaceFirst("\\?", value);
    }
    return sql;
  }

  /** The statement with its named parameters given values, as JDBI would bind them. */
  private static String bound(String sql) {
    return sql.replace(":account", "'party:k'")
        .replace(":agreement_id", "'asa-1'")
        .replace(":currency", "'USD'")
        .replace(":limit", "10");
  }
}
