package dev.asa.server.store;

import static org.assertj.core.api.Assertions.assertThat;

import dev.asa.server.store.db.DatabaseUrl;
import dev.asa.server.store.db.Dialect;
import dev.asa.server.store.db.TestPostgres;
import dev.asa.server.store.verification.VerificationStore;
import java.math.BigDecimal;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.Properties;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * V011 gives verifications a composite column and fills it from the results already stored, with
 * the score exactly as the result carries it (no rounding through a double).
 */
class CompositeMigrationTest {
  private static final int BEFORE_COMPOSITE = 10; // V011__verification_composite.sql comes next
  private static final String LONG_SCORE = "0.83333333333333333333";

  @TempDir Path dataDir;

  @Test
  void sqliteFillsTheCompositeOfStoredResults() throws SQLException {
    try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + dataDir.resolve("asa.db"))) {
      fillAsAnOlderBuild(c, Dialect.SQLITE);
    }
    try (Store store = Stores.open(null, dataDir)) {
      assertFilled(store);
    }
  }

  @Test
  void postgresqlFillsTheCompositeOfStoredResults() throws SQLException {
    try (TestPostgres pg = TestPostgres.freshSchema()) {
      DatabaseUrl.Postgres url = (DatabaseUrl.Postgres) DatabaseUrl.parse(pg.url(), null);
      Properties credentials = new Properties();
      if (url.user() != null) {
        credentials.setProperty("user", url.user());
      }
      try (Connection c = DriverManager.getConnection(url.jdbcUrl(), credentials)) {
        fillAsAnOlderBuild(c, Dialect.POSTGRESQL);
      }
      try (Store store = Stores.open(pg.url(), null)) {
        assertFilled(store);
      }
    }
  }

  private static void fillAsAnOlderBuild(Connection c, Dialect dialect) throws SQLException {
    OlderBuild.migrate(c, dialect, BEFORE_COMPOSITE);
    insert(c, "v-long", "{\"composite\":{\"score\":" + LONG_SCORE + ",\"passed\":true}}");
    insert(c, "v-whole", "{\"composite\":{\"score\":85}}");
    insert(c, "v-none", "{\"composite\":{\"score\":null}}");
    insert(c, "v-other", "{\"determination\":{\"result\":\"PASS\"}}");
  }

  private static void insert(Connection c, String id, String result) throws SQLException {
    try (PreparedStatement p =
        c.prepareStatement(
            "INSERT INTO verifications (id, agreement_id, deliverable_hash, result, created_at)"
                + " VALUES (?, NULL, 'sha256:d', ?, 0)")) {
      p.setString(1, id);
      p.setString(2, result);
      p.executeUpdate();
    }
  }

  private static void assertFilled(Store store) {
    VerificationStore verifications = store.verifications();
    assertThat(verifications.find("v-long").orElseThrow().composite())
        .isEqualTo(new BigDecimal(LONG_SCORE));
    assertThat(verifications.find("v-whole").orElseThrow().composite())
        .isEqualTo(new BigDecimal("85"));
    assertThat(verifications.find("v-none").orElseThrow().composite()).isNull();
    assertThat(verifications.find("v-other").orElseThrow().composite()).isNull();
  }
}
