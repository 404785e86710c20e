package dev.asa.server.store;

import static org.assertj.core.api.Assertions.assertThat;

import dev.asa.server.store.db.Dialect;
import dev.asa.server.store.db.NonceTable;
import dev.asa.server.store.db.TestPostgres;
import dev.asa.testing.MutableClock;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * V025: the request nonces recorded before the upgrade move over as 16-byte digests, computed in
 * SQL the way the server computes them, so a request accepted just before the upgrade is still
 * refused as a replay after it, on both databases.
 */
class NonceDigestMigrationTest {
  private static final int BEFORE_DIGESTS = 24;
  private static final Instant NOW = Instant.ofEpochSecond(1_800_000_000);
  private static final Duration SKEW = Duration.ofSeconds(300);
  private static final String KEY = "11qYAYKxCrfVS_7TyWQHOg7hcvPapiMlrwIaaPcHURo";

  @TempDir Path dataDir;
  private final MutableClock clock = new MutableClock(NOW);

  @Test
  void sqliteKeepsRefusingAPairRecordedBeforeTheUpgrade() throws SQLException {
    String url = "jdbc:sqlite:" + dataDir.resolve("asa.db");
    try (Connection c = DriverManager.getConnection(url)) {
      recordAsAnOlderBuild(c, Dialect.SQLITE);
    }
    try (Store store = Stores.open(null, dataDir)) {
      assertReplaysRefused(store.nonces(clock, SKEW));
    }
    try (Connection c = DriverManager.getConnection(url)) {
      assertStoredAsDigests(c);
    }
  }

  @Test
  void postgresqlKeepsRefusingAPairRecordedBeforeTheUpgrade() throws SQLException {
    try (TestPostgres postgres = TestPostgres.freshSchema()) {
      try (Connection c = postgres.connection()) {
        recordAsAnOlderBuild(c, Dialect.POSTGRESQL);
      }
      try (Store store = Stores.open(postgres.url(), dataDir)) {
        assertReplaysRefused(store.nonces(clock, SKEW));
      }
      try (Connection c = postgres.connection()) {
        assertStoredAsDigests(c);
      }
    }
  }

  private static void recordAsAnOlderBuild(Connection c, Dialect dialect) throws SQLException {
    OlderBuild.migrate(c, dialect, BEFORE_DIGESTS);
    String insert = "INSERT INTO request_nonces (key_id, nonce, expires_at) VALUES (?, ?, ?)";
    try (PreparedStatement s = c.prepareStatement(insert)) {
      long live = NOW.getEpochSecond() + 200;
      Object[][] rows = {
        {KEY, "nonce-before-1", live},
        {KEY, "nonce-before-2", live},
        {"another-key", "nonce-before-1", live},
        // Outside its window: it moves over too and, as before, no longer blocks the pair.
        {KEY, "nonce-expired", NOW.getEpochSecond() - 1},
        // Unicode and a split that would collide without the length prefix.
        {"k\u00e9", "y-1", live},
      };
      for (Object[] row : rows) {
        s.setString(1, (String) row[0]);
        s.setString(2, (String) row[1]);
        s.setLong(3, (Long) row[2]);
        s.executeUpdate();
      }
    }
  }

  private static void assertReplaysRefused(NonceTable nonces) {
    assertThat(nonces.firstUse(KEY, "nonce-before-1", NOW)).isFalse();
    assertThat(nonces.firstUse(KEY, "nonce-before-2", NOW)).isFalse();
    assertThat(nonces.firstUse("another-key", "nonce-before-1", NOW)).isFalse();
    assertThat(nonces.firstUse("k\u00e9", "y-1", NOW)).isFalse();
    assertThat(nonces.firstUse("k\u00e9y", "-1", NOW)).isTrue();
    assertThat(nonces.firstUse(KEY, "nonce-expired", NOW)).isTrue();
    assertThat(nonces.firstUse(KEY, "nonce-after", NOW)).isTrue();
    assertThat(nonces.firstUse(KEY, "nonce-after", NOW)).isFalse();
  }

  private static void assertStoredAsDigests(Connection c) throws SQLException {
    try (PreparedStatement s = c.prepareStatement("SELECT digest FROM request_nonces");
        ResultSet rs = s.executeQuery()) {
      int rows = 0;
      while (rs.next()) {
        assertThat(rs.getBytes(1)).hasSize(16);
        rows++;
      }
      assertThat(rows).isEqualTo(7);
    }
  }
}
