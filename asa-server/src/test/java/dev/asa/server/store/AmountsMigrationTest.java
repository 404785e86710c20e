package dev.asa.server.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.asa.server.store.agreements.AgreementFilter;
import dev.asa.server.store.agreements.AgreementRow;
import dev.asa.server.store.db.Dialect;
import java.math.BigDecimal;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * V014 gives agreements stored before it their amount and currency columns, read from their
 * documents, on both databases; an agreement without payment terms keeps both NULL, and the amount
 * filters then find the old rows as they find new ones.
 */
class AmountsMigrationTest {
  private static final int BEFORE_AMOUNTS = 13; // V014__agreement_amounts.sql comes next

  @TempDir Path dataDir;

  @Test
  void sqliteFillsTheColumnsFromTheDocuments() throws SQLException {
    try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + dataDir.resolve("asa.db"))) {
      fillAsAnOlderBuild(c, Dialect.SQLITE);
    }
    try (Store store = Stores.open(null, dataDir)) {
      assertFilled(store);
    }
  }

  @Test
  void postgresqlFillsTheColumnsFromTheDocuments() throws SQLException {
    String schema = "asa_test_" + UUID.randomUUID().toString().replace("-", "").substring(0, 12);
    String server =
        System.getenv()
            .getOrDefault("ASA_TEST_POSTGRES_URL", "postgresql://postgres@127.0.0.1:5432/test");
    String jdbc = "jdbc:postgresql://127.0.0.1:5432/test?user=postgres";
    try (Connection admin = DriverManager.getConnection(jdbc)) {
      admin.createStatement().execute("CREATE SCHEMA " + schema);
    } catch (SQLException e) {
      assumeTrue(
          !"true".equalsIgnoreCase(System.getenv("CI")),
          "PostgreSQL is required on CI: " + e.getMessage());
      assumeTrue(false, "PostgreSQL is not reachable: " + e.getMessage());
    }
    try {
      try (Connection c = DriverManager.getConnection(jdbc + "&currentSchema=" + schema)) {
        fillAsAnOlderBuild(c, Dialect.POSTGRESQL);
      }
      try (Store store =
          Stores.open(
              server + (server.contains("?") ? "&" : "?") + "currentSchema=" + schema, dataDir)) {
        assertFilled(store);
      }
    } finally {
      try (Connection admin = DriverManager.getConnection(jdbc)) {
        admin.createStatement().execute("DROP SCHEMA " + schema + " CASCADE");
      }
    }
  }

  private static void fillAsAnOlderBuild(Connection c, Dialect dialect) throws SQLException {
    OlderBuild.migrate(c, dialect, BEFORE_AMOUNTS);
    insert(
        c,
        "asa-priced",
        1,
        "{\"escrow\":{\"payment\":{\"amount\":\"12.50\",\"currency\":\"EUR\"}}}");
    insert(c, "asa-unpriced", 2, "{\"escrow\":{\"enabled\":false}}");
    insert(c, "asa-no-escrow", 3, "{\"service\":{\"type\":\"general\"}}");
  }

  private static void insert(Connection c, String id, int seq, String document)
      throws SQLException {
    try (PreparedStatement p =
        c.prepareStatement(
            "INSERT INTO agreements (id, version, state, document, service_type,"
                + " client_identity, provider_identity, evaluator_identity, created_at, updated_at)"
                + " VALUES (?, 1, 'active', ?, 'general', 'c', 'p', 'e', ?, ?)")) {
      p.setString(1, id);
      p.setString(2, document);
      p.setLong(3, seq);
      p.setLong(4, seq);
      p.executeUpdate();
    }
  }

  private static void assertFilled(Store store) {
    AgreementRow priced = store.agreements().find("asa-priced").orElseThrow();
    assertThat(priced.amount()).isEqualTo("12.50");
    assertThat(priced.currency()).isEqualTo("EUR");
    for (String id : new String[] {"asa-unpriced", "asa-no-escrow"}) {
      AgreementRow row = store.agreements().find(id).orElseThrow();
      assertThat(row.amount()).as(id).isNull();
      assertThat(row.currency()).as(id).isNull();
    }
    AgreementFilter atLeastTwelve =
        new AgreementFilter(null, null, null, null, new BigDecimal("12"), null, null);
    assertThat(store.agreements().listAll(atLeastTwelve, null, 10).items())
        .extracting(AgreementRow::id)
        .containsExactly("asa-priced");
  }
}
