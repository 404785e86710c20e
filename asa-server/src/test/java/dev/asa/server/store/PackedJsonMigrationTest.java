package dev.asa.server.store;

import static org.assertj.core.api.Assertions.assertThat;

import dev.asa.server.store.agreements.AgreementRow;
import dev.asa.server.store.agreements.EventRecord;
import dev.asa.server.store.db.Dialect;
import dev.asa.server.store.db.PackedText;
import dev.asa.server.store.db.TestPostgres;
import dev.asa.server.store.verification.VerificationRow;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * V017: the JSON stored before packing is read back exactly as it was written, on both databases,
 * and what is written afterwards is stored packed (a few bytes naming the dictionary, then
 * deflate), readable through the same columns.
 */
class PackedJsonMigrationTest {
  private static final int BEFORE_PACKING = 16; // V017__packed_json.sql comes next

  private static final String DOCUMENT =
      "{\"asa_version\":\"1.0.0\",\"service\":{\"type\":\"general\"},\"note\":\"caf\u00e9\"}";
  private static final String FACTS = "{\"template\":\"general\"}";
  private static final String ACTOR = "{\"role\":\"client\",\"key\":\"k\",\"authenticated\":true}";
  private static final String PAYLOAD = "{\"state\":\"PROPOSED\"}";
  private static final String RESULT = "{\"determination\":{\"result\":\"PASS\"}}";

  @TempDir Path dataDir;

  @Test
  void sqliteReadsOldTextAndPacksNewValues() throws SQLException {
    String url = "jdbc:sqlite:" + dataDir.resolve("asa.db");
    try (Connection c = DriverManager.getConnection(url)) {
      fillAsAnOlderBuild(c, Dialect.SQLITE);
    }
    try (Store store = Stores.open(null, dataDir)) {
      assertOldRowsReadBack(store);
      writeANewVerification(store);
    }
    try (Connection c = DriverManager.getConnection(url)) {
      assertStoredPacked(c, "SELECT result FROM verifications WHERE id = 'ver-new'");
    }
  }

  @Test
  void postgresqlReadsOldTextAndPacksNewValues() throws SQLException {
    try (TestPostgres postgres = TestPostgres.freshSchema()) {
      try (Connection c = postgres.connection()) {
        fillAsAnOlderBuild(c, Dialect.POSTGRESQL);
      }
      try (Store store = Stores.open(postgres.url(), dataDir)) {
        assertOldRowsReadBack(store);
        writeANewVerification(store);
      }
      try (Connection c = postgres.connection()) {
        assertStoredPacked(c, "SELECT result FROM verifications WHERE id = 'ver-new'");
      }
    }
  }

  private static void fillAsAnOlderBuild(Connection c, Dialect dialect) throws SQLException {
    OlderBuild.migrate(c, dialect, BEFORE_PACKING);
    OlderBuild.write(
        c,
        "INSERT INTO agreements (id, version, state, document, facts, service_type,"
            + " client_identity, provider_identity, evaluator_identity, created_at, updated_at)"
            + " VALUES ('asa-old', 1, 'proposed', ?, ?, 'general', 'c', 'p', 'e', 1, 1)",
        DOCUMENT,
        FACTS);
    OlderBuild.write(
        c,
        "INSERT INTO agreement_events (agreement_id, seq, type, actor, occurred_at, payload,"
            + " prev_hash, hash) VALUES ('asa-old', 1, 'created', ?, 1, ?, 'sha256:0', 'sha256:1')",
        ACTOR,
        PAYLOAD);
    OlderBuild.write(
        c,
        "INSERT INTO verifications (id, agreement_id, deliverable_hash, result, created_at)"
            + " VALUES ('ver-old', 'asa-old', 'sha256:2', ?, 1)",
        RESULT);
  }

  private static void assertOldRowsReadBack(Store store) {
    AgreementRow row = store.agreements().find("asa-old").orElseThrow();
    assertThat(row.document()).isEqualTo(DOCUMENT);
    assertThat(row.facts()).isEqualTo(FACTS);
    EventRecord event = store.events().log("asa-old").getFirst();
    assertThat(event.actor()).isEqualTo(ACTOR);
    assertThat(event.payload()).isEqualTo(PAYLOAD);
    assertThat(event.prevHash()).isEqualTo("sha256:0");
    assertThat(event.hash()).isEqualTo("sha256:1");
    assertThat(store.verifications().find("ver-old").orElseThrow().result()).isEqualTo(RESULT);
  }

  private static void writeANewVerification(Store store) {
    VerificationRow fresh =
        new VerificationRow(
            "ver-new", "asa-old", "sha256:3", RESULT, null, Instant.ofEpochMilli(2));
    store.writes().apply(List.of(new Write.PutVerification(fresh)));
    assertThat(store.verifications().find("ver-new").orElseThrow().result()).isEqualTo(RESULT);
  }

  private static void assertStoredPacked(Connection c, String query) throws SQLException {
    try (ResultSet rs = c.createStatement().executeQuery(query)) {
      assertThat(rs.next()).isTrue();
      byte[] stored = rs.getBytes(1);
      assertThat(stored[0]).isEqualTo((byte) PackedText.Dictionary.VOCABULARY.number());
      assertThat(PackedText.unpack(stored)).isEqualTo(RESULT);
    }
  }
}
