package dev.asa.server.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.asa.json.Json;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * V009 moves the server's facts out of stored documents into their own column, on a database that
 * a build before it filled: nothing is lost, and no document keeps a {@code metadata} member.
 */
class FactsMigrationTest {
  private static final String FACTS_SCRIPT = "V009__agreement_facts.sql";
  private static final String LEGACY_DOCUMENT = """
      {"agreement_id":"asa-legacy","status":"closed","service":{"type":"general"},
       "metadata":{"escrow":{"status":"settled","funded_at":"2026-11-22T10:00:00Z"},"template":"general"}}""";
  private static final String NO_FACTS_DOCUMENT = """
      {"agreement_id":"asa-plain","status":"proposed","service":{"type":"general"}}""";

  @TempDir Path dataDir;

  @Test
  void sqliteMovesMetadataIntoTheFactsColumn() throws SQLException {
    try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + dataDir.resolve("asa.db"))) {
      fillAsAnOlderBuild(c, Dialect.SQLITE);
    }
    try (AgreementStore store = Stores.open(null, dataDir)) {
      assertMoved(store);
    }
  }

  @Test
  void postgresqlMovesMetadataIntoTheFactsColumn() throws SQLException {
    String schema = "asa_test_" + UUID.randomUUID().toString().replace("-", "").substring(0, 12);
    String server = System.getenv().getOrDefault("ASA_TEST_POSTGRES_URL", "postgresql://postgres@127.0.0.1:5432/test");
    String jdbc = "jdbc:postgresql://127.0.0.1:5432/test?user=postgres";
    try (Connection admin = DriverManager.getConnection(jdbc)) {
      admin.createStatement().execute("CREATE SCHEMA " + schema);
    } catch (SQLException e) {
      assumeTrue(!"true".equalsIgnoreCase(System.getenv("CI")), "PostgreSQL is required on CI: " + e.getMessage());
      assumeTrue(false, "PostgreSQL is not reachable: " + e.getMessage());
    }
    try {
      try (Connection c = DriverManager.getConnection(jdbc + "&currentSchema=" + schema)) {
        fillAsAnOlderBuild(c, Dialect.POSTGRESQL);
      }
      try (AgreementStore store = Stores.open(server + (server.contains("?") ? "&" : "?") + "currentSchema=" + schema, dataDir)) {
        assertMoved(store);
      }
    } finally {
      try (Connection admin = DriverManager.getConnection(jdbc)) {
        admin.createStatement().execute("DROP SCHEMA " + schema + " CASCADE");
      }
    }
  }

  /** Applies every script before V009, as the older build did, and stores documents the old way. */
  private static void fillAsAnOlderBuild(Connection c, Dialect dialect) throws SQLException {
    try (Statement s = c.createStatement()) {
      s.execute("CREATE TABLE schema_migrations (version INTEGER NOT NULL PRIMARY KEY, name TEXT NOT NULL,"
          + " applied_at BIGINT NOT NULL)");
      int version = 0;
      for (String script : Migrations.SCRIPTS) {
        if (script.equals(FACTS_SCRIPT)) {
          break;
        }
        for (String statement : Migrations.statements(Migrations.read(
            "dev/asa/server/store/migrations/" + dialect.migrationFolder() + "/" + script))) {
          s.execute(statement);
        }
        version = Integer.parseInt(script.substring(1, 4));
        s.execute("INSERT INTO schema_migrations VALUES (" + version + ", '" + script + "', 0)");
      }
    }
    insert(c, "asa-legacy", LEGACY_DOCUMENT);
    insert(c, "asa-plain", NO_FACTS_DOCUMENT);
  }

  private static void insert(Connection c, String id, String document) throws SQLException {
    try (PreparedStatement p = c.prepareStatement("INSERT INTO agreements (id, version, state, document, service_type,"
        + " client_identity, provider_identity, evaluator_identity, created_at, updated_at)"
        + " VALUES (?, 1, 'closed', ?, 'general', 'c', 'p', 'e', 0, 0)")) {
      p.setString(1, id);
      p.setString(2, document);
      p.executeUpdate();
    }
  }

  private static void assertMoved(AgreementStore store) {
    AgreementRow legacy = store.find("asa-legacy").orElseThrow();
    JsonNode facts = Json.parseTrusted(legacy.facts());
    assertThat(facts.path("escrow").path("status").asText()).isEqualTo("settled");
    assertThat(facts.path("template").asText()).isEqualTo("general");
    JsonNode document = Json.parseTrusted(legacy.document());
    assertThat(document.has("metadata")).isFalse();
    assertThat(document.path("agreement_id").asText()).isEqualTo("asa-legacy");
    AgreementRow plain = store.find("asa-plain").orElseThrow();
    assertThat(plain.facts()).isEqualTo("{}");
    assertThat(Json.parseTrusted(plain.document()).path("status").asText()).isEqualTo("proposed");
  }
}
