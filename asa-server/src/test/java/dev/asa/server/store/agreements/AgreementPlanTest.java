package dev.asa.server.store.agreements;

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
 * The market's read of a service type's latest CLOSED agreements goes through the partial index of
 * V027, which holds CLOSED agreements only: a database uses a partial index only when the query
 * implies its condition, and reads the whole table otherwise, silently. So the plans are read here,
 * on both databases.
 */
class AgreementPlanTest {
  @TempDir Path dataDir;

  @Test
  void sqliteReadsTheLatestClosedAgreementsOfATypeThroughThePartialIndex() throws SQLException {
    Stores.open(null, dataDir).close();
    try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + dataDir.resolve("asa.db"));
        Statement s = c.createStatement()) {
      assertThat(
              QueryText.of(
                  s, "EXPLAIN QUERY PLAN " + bound(AgreementStore.SELECT_RECENT_CLOSED_BY_TYPE)))
          .contains("INDEX agreements_closed_by_service_type (service_type=?)")
          .doesNotContain("TEMP B-TREE"); // newest first from the index itself, no sort
    }
  }

  @Test
  void postgresqlReadsTheLatestClosedAgreementsOfATypeThroughThePartialIndex() throws SQLException {
    try (TestPostgres pg = TestPostgres.freshSchema();
        Store store = Stores.open(pg.url(), null);
        Connection c = pg.connection();
        Statement s = c.createStatement()) {
      // An empty table is cheapest to read whole; what is checked is that the index can serve.
      s.execute("SET enable_seqscan = off");
      assertThat(QueryText.of(s, "EXPLAIN " + bound(AgreementStore.SELECT_RECENT_CLOSED_BY_TYPE)))
          .contains("agreements_closed_by_service_type")
          .doesNotContain("Sort");
    }
  }

  /** The statement with its named parameters given values, as JDBI would bind them. */
  private static String bound(String sql) {
    return sql.replace(":service_type", "'text.summarize'").replace(":limit", "10");
  }
}
