package dev.asa.server.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.asa.json.Json;
import dev.asa.server.store.agreements.AgreementRow;
import dev.asa.server.store.db.Dialect;
import dev.asa.server.store.db.Migrations;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * V009 moves the server's facts out of stored documents into their own column, on a database that a
 * build before it filled: nothing is lost, and no document keeps a {@code metadata} member. That
 * build recorded its migrations in {@code schema_migrations}, before Flyway: the first start with
 * Flyway takes such a database over.
 */
class FactsMigrationTest {
  private static final int FACTS_VERSION = 9; // V009__agreement_facts.sql
  private static final String LEGACY_DOCUMENT =
      """
      {"agreement_id":"asa-legacy","status":"closed","service":{"type":"general"},
       "metadata":{"escrow":{"status":"settled","funded_at":"2026-11-22T10:00:00Z"},"template":"general"}}\
      """;
  private static final String NO_FACTS_DOCUMENT =
      """
      {"agreement_id":"asa-plain","status":"proposed","service":{"type":"general"}}\
      """;

  @TempDir Path dataDir;

  @Test
  void sqliteMovesMetadataIntoTheFactsColumn() throws SQLException {
    try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + dataDir.resolve("asa.db"))) {
      fillAsAnOlderBuild(c, Dialect.SQLITE);
    }
    try (Store store = Stores.open(null, dataDir)) {
      assertMoved(store);
    }
    try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + dataDir.resolve("asa.db"))) {
      assertTakenOverByFlyway(c);
    }
    try (Store again = Stores.open(null, dataDir)) {
      assertMoved(again);
    }
  }

  @Test
  void postgresqlMovesMetadataIntoTheFactsColumn() throws SQLException {
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
        assertMoved(store);
      }
      try (Connection c = DriverManager.getConnection(jdbc + "&currentSchema=" + schema)) {
        assertTakenOverByFlyway(c);
      }
    } finally {
      try (Connection admin = DriverManager.getConnection(jdbc)) {
        admin.createStatement().execute("DROP SCHEMA " + schema + " CASCADE");
      }
    }
  }

  /** Applies every script before V009, as the older build did, and stores documents the old way. */
  private static void fillAsAnOlderBuild(Connection c, Dialect dialect) throws SQLException {
    OlderBuild.migrate(c, dialect, FACTS_VERSION - 1);
    insert(c, "asa-legacy", LEGACY_DOCUMENT);
    insert(c, "asa-plain", NO_FACTS_DOCUMENT);
  }

  /**
   * Flyway took the database over: baselined at the older build's newest version, V009 applied by
   * Flyway, and schema_migrations marked so that an older build refuses the database.
   */
  private static void assertTakenOverByFlyway(Connection c) throws SQLException {
    List<String> history = new ArrayList<>();
    try (Statement s = c.createStatement();
        ResultSet rs =
            s.executeQuery(
                "SELECT version, type, success FROM flyway_schema_history"
                    + " ORDER BY installed_rank")) {
      while (rs.next()) {
        history.add(rs.getString(1) + " " + rs.getString(2) + " " + rs.getBoolean(3));
      }
    }
    // The baseline, this migration, then whichever later ones this build has.
    assertThat(history)
        .startsWith(
            String.format("%03d BASELINE true", FACTS_VERSION - 1),
            String.format("%03d SQL true", FACTS_VERSION));
    assertThat(history.subList(2, history.size())).allMatch(h -> h.endsWith(" SQL true"));
    try (Statement s = c.createStatement();
        ResultSet rs = s.executeQuery("SELECT max(version) FROM schema_migrations")) {
      rs.next();
      assertThat(rs.getInt(1)).isEqualTo(Migrations.LEGACY_RETIRED);
    }
  }

  private static void insert(Connection c, String id, String document) throws SQLException {
    try (PreparedStatement p =
        c.prepareStatement(
            "INSERT INTO agreements (id, version, state, document, service_type,"
                + " client_identity, provider_identity, evaluator_identity, created_at, updated_at)"
                + " VALUES (?, 1, 'closed', ?, 'general', 'c', 'p', 'e', 0, 0)")) {
      p.setString(1, id);
      p.setString(2, document);
      p.executeUpdate();
    }
  }

  private static void assertMoved(Store store) {
    AgreementRow legacy = store.agreements().find("asa-legacy").orElseThrow();
    JsonNode facts = Json.parseTrusted(legacy.facts());
    assertThat(facts.path("escrow").path("status").asText()).isEqualTo("settled");
    assertThat(facts.path("template").asText()).isEqualTo("general");
    JsonNode document = Json.parseTrusted(legacy.document());
    assertThat(document.has("metadata")).isFalse();
    assertThat(document.path("agreement_id").asText()).isEqualTo("asa-legacy");
    AgreementRow plain = store.agreements().find("asa-plain").orElseThrow();
    assertThat(plain.facts()).isEqualTo("{}");
    assertThat(Json.parseTrusted(plain.document()).path("status").asText()).isEqualTo("proposed");
  }
}
