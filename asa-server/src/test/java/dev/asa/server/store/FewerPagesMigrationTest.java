package dev.asa.server.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.asa.server.store.agreements.EventRecord;
import dev.asa.server.store.db.Dialect;
import dev.asa.server.store.db.PackedDigest;
import dev.asa.server.store.db.QueryText;
import dev.asa.server.store.db.TestPostgres;
import dev.asa.server.store.timers.TimerRow;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * V028: on SQLite, agreement events and timers move to tables without rowid, and what a live
 * agreement had in them reads back as it was written; on both databases, an agreement's timers are
 * cleared through their key (agreement, kind), not by reading the whole table, and the index of
 * canaries served holds canaries only and still counts them.
 */
class FewerPagesMigrationTest {
  private static final int BEFORE = 27;
  private static final String H1 = "a".repeat(64);
  private static final String H2 = "b".repeat(64);

  /** TaskStore's count of the canaries served as a service type, for a type given. */
  private static final String CANARIES_OF_TYPE =
      "SELECT count(*) FROM evaluator_tasks WHERE kind = 'canary' AND service_type = 'general'";

  /** TimerStore's clearing of an ended agreement's timers, for an agreement given. */
  private static final String CLEAR_TIMERS =
      "DELETE FROM timers WHERE agreement_id = 'asa-one' AND dead_at IS NULL";

  @TempDir Path dataDir;

  @Test
  void sqliteKeepsALiveAgreementsEventsAndTimersAndCountsItsCanaries() throws SQLException {
    try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + dataDir.resolve("asa.db"))) {
      writeAsAnOlderBuild(c, Dialect.SQLITE);
    }
    try (Store store = Stores.open(null, dataDir)) {
      assertEventsAndTimersReadBack(store);
      assertThat(store.tasks().canariesOfType("general")).isEqualTo(1);
      assertThat(store.tasks().canariesServed()).containsExactly("canary-1");
    }
    try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + dataDir.resolve("asa.db"));
        Statement s = c.createStatement()) {
      assertThat(QueryText.of(s, "SELECT type FROM sqlite_schema WHERE name = 'agreement_events'"))
          .isEqualTo("table");
      assertThat(QueryText.of(s, "SELECT sql FROM sqlite_schema WHERE name = 'agreement_events'"))
          .endsWith("WITHOUT ROWID");
      assertThat(QueryText.of(s, "SELECT sql FROM sqlite_schema WHERE name = 'timers'"))
          .endsWith("WITHOUT ROWID");
      assertThat(QueryText.of(s, "EXPLAIN QUERY PLAN " + CANARIES_OF_TYPE))
          .contains("evaluator_tasks_canaries_served");
      assertThat(QueryText.of(s, "EXPLAIN QUERY PLAN " + CLEAR_TIMERS))
          .contains("USING PRIMARY KEY (agreement_id=?)");
      assertRefusesASecondEventAtATakenSeq(c);
    }
  }

  @Test
  void postgresqlCountsItsCanariesThroughTheIndexOfCanariesOnly() throws SQLException {
    try (TestPostgres postgres = TestPostgres.freshSchema()) {
      try (Connection c = postgres.connection()) {
        writeAsAnOlderBuild(c, Dialect.POSTGRESQL);
      }
      try (Store store = Stores.open(postgres.url(), dataDir)) {
        assertEventsAndTimersReadBack(store);
        assertThat(store.tasks().canariesOfType("general")).isEqualTo(1);
        assertThat(store.tasks().canariesServed()).containsExactly("canary-1");
      }
      try (Connection c = postgres.connection();
          Statement s = c.createStatement()) {
        s.execute("SET enable_seqscan = off");
        assertThat(QueryText.of(s, "EXPLAIN " + CANARIES_OF_TYPE))
            .contains("evaluator_tasks_canaries_served");
        assertThat(QueryText.of(s, "EXPLAIN " + CLEAR_TIMERS)).contains("timers_pkey");
        assertRefusesASecondEventAtATakenSeq(c);
      }
    }
  }

  private static void writeAsAnOlderBuild(Connection c, Dialect dialect) throws SQLException {
    OlderBuild.migrate(c, dialect, BEFORE);
    OlderBuild.write(
        c,
        "INSERT INTO agreements (id, version, state, document, facts, service_type,"
            + " client_identity, provider_identity, evaluator_identity, created_at, updated_at)"
            + " VALUES ('asa-one', 2, 'active', '{}', '{}', 'general', 'c', 'p', 'e', 1, 2)");
    event(c, 0, "created", null, H1);
    event(c, 1, "signed", H1, H2);
    timer(c, "asa-one:delivery_deadline", "delivery_deadline", 5_000, null);
    timer(c, "asa-one:funding_deadline", "funding_deadline", 4_000, 3_000L);
    task(c, "task-real", "real", null);
    task(c, "task-canary", "canary", "canary-1");
  }

  private static void event(Connection c, int seq, String type, String prev, String hash)
      throws SQLException {
    OlderBuild.write(
        c,
        "INSERT INTO agreement_events (agreement_id, seq, type, actor, occurred_at, payload,"
            + " prev_hash, hash) VALUES ('asa-one', ?, ?, '{\"role\":\"client\"}', ?, '{}', ?, ?)",
        seq,
        type,
        1_000L + seq,
        prev == null ? null : PackedDigest.pack(prev),
        PackedDigest.pack(hash));
  }

  private static void timer(Connection c, String id, String kind, long due, Long deadAt)
      throws SQLException {
    OlderBuild.write(
        c,
        "INSERT INTO timers (id, agreement_id, kind, due_at, attempts, last_error, dead_at)"
            + " VALUES (?, 'asa-one', ?, ?, ?, ?, ?)",
        id,
        kind,
        due,
        deadAt == null ? 0 : 3,
        deadAt == null ? null : "failed three times",
        deadAt);
  }

  private static void task(Connection c, String id, String kind, String canaryId)
      throws SQLException {
    OlderBuild.write(
        c,
        "INSERT INTO evaluator_tasks (id, evaluator_key, agreement_id, delivery, kind, canary_id,"
            + " service_type, scheduled, status, created_at, deadline_at)"
            + " VALUES (?, 'key-e', 'asa-one', 1, ?, ?, 'general', 1, 'open', 1, 9)",
        id,
        kind,
        canaryId);
  }

  private static void assertEventsAndTimersReadBack(Store store) {
    List<EventRecord> log = store.events().log("asa-one");
    assertThat(log).extracting(EventRecord::seq).containsExactly(0L, 1L);
    assertThat(log).extracting(EventRecord::type).containsExactly("created", "signed");
    assertThat(log.get(1).prevHash()).isEqualTo(H1);
    assertThat(log.get(1).hash()).isEqualTo(H2);
    assertThat(log.get(1).at()).isEqualTo(Instant.ofEpochMilli(1_001));
    assertThat(store.events().last("asa-one")).map(EventRecord::seq).contains(1L);
    assertThat(store.timers().pending("asa-one"))
        .extracting(TimerRow::id)
        .containsExactly("asa-one:delivery_deadline");
    assertThat(store.timers().dead(10))
        .extracting(TimerRow::id, TimerRow::attempts, TimerRow::lastError)
        .containsExactly(
            org.assertj.core.groups.Tuple.tuple(
                "asa-one:funding_deadline", 3, "failed three times"));
  }

  private static void assertRefusesASecondEventAtATakenSeq(Connection c) {
    assertThatThrownBy(() -> event(c, 1, "signed", H1, H2)).isInstanceOf(SQLException.class);
  }
}
