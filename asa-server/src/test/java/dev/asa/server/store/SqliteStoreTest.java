package dev.asa.server.store;

import static dev.asa.server.store.TestRows.agreement;
import static dev.asa.server.store.TestRows.deliverable;
import static dev.asa.server.store.TestRows.event;
import static dev.asa.server.store.TestRows.next;
import static org.assertj.core.api.Assertions.assertThat;

import dev.asa.lifecycle.State;
import dev.asa.server.store.agreements.AgreementRow;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The contract against a SQLite file in a fresh temporary directory per test. */
class SqliteStoreTest extends StoreContract {

  @TempDir Path dir;

  private Path file() {
    return dir.resolve("asa.db");
  }

  @Override
  protected Store openStore() {
    return Stores.open(null, dir);
  }

  @Override
  protected Connection rawConnection() throws SQLException {
    return DriverManager.getConnection("jdbc:sqlite:" + file());
  }

  @Test
  void describesTheFileAndRunsInWalMode() throws SQLException {
    assertThat(store.describe()).isEqualTo("SQLite " + file().toAbsolutePath() + " (WAL)");
    try (Connection c = rawConnection();
        Statement s = c.createStatement();
        ResultSet rs = s.executeQuery("PRAGMA journal_mode")) {
      rs.next();
      assertThat(rs.getString(1)).isEqualTo("wal");
    }
  }

  @Test
  void createsTheDataDirectoryAndAcceptsExplicitUrls() {
    Path nested = dir.resolve("a/b/asa-data");
    try (Store s = Stores.open("", nested)) {
      assertThat(Files.isRegularFile(nested.resolve("asa.db"))).isTrue();
      assertThat(s.describe()).contains(nested.resolve("asa.db").toString());
    }
    Path other = dir.resolve("other.db");
    try (Store s = Stores.open("sqlite:" + other, null)) {
      assertThat(s.describe()).isEqualTo("SQLite " + other + " (WAL)");
    }
    try (Store s = Stores.open("jdbc:sqlite:" + other, null)) {
      assertThat(s.describe()).isEqualTo("SQLite " + other + " (WAL)");
    }
  }

  /**
   * Erasure must not leave the content readable in the file's free space: secure_delete zeroes it.
   * After a checkpoint, the raw bytes of the database file must not contain it.
   */
  @Test
  void erasedContentIsGoneFromTheFileItself() throws Exception {
    String marker = "SECRET-MARKER-" + "x".repeat(40);
    AgreementRow v1 = agreement("erase-bytes", 1, State.ACTIVE);
    store
        .writes()
        .createAgreement(
            v1,
            List.of(event(v1.id(), 1)),
            List.of(
                new Write.PutDeliverable(deliverable(v1.id(), 1, marker + " small")),
                new Write.PutDeliverable(
                    deliverable(
                        v1.id(),
                        2,
                        marker + " big " + "y".repeat(20_000))))); // spills to overflow pages
    checkpoint();
    assertThat(fileContains(marker)).as("content present before erasure").isTrue();

    store
        .writes()
        .commit(
            new Commit(
                v1,
                next(v1, State.VERIFIED),
                List.of(event(v1.id(), 2)),
                List.of(new Write.EraseDeliverableContent(v1.id()))));
    checkpoint();

    assertThat(fileContains(marker)).as("content present after erasure").isFalse();
  }

  private void checkpoint() throws SQLException {
    try (Connection c = rawConnection();
        Statement s = c.createStatement();
        ResultSet rs = s.executeQuery("PRAGMA wal_checkpoint(TRUNCATE)")) {
      rs.next();
      assertThat(rs.getInt(1)).as("checkpoint blocked").isZero();
    }
  }

  private boolean fileContains(String marker) throws Exception {
    String bytes = new String(Files.readAllBytes(file()), StandardCharsets.ISO_8859_1);
    Path wal = Path.of(file() + "-wal");
    if (Files.exists(wal)) {
      bytes += new String(Files.readAllBytes(wal), StandardCharsets.ISO_8859_1);
    }
    return bytes.contains(marker);
  }
}
