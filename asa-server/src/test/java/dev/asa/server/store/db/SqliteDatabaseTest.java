package dev.asa.server.store.db;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.List;
import jdk.jfr.Recording;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordingFile;
import org.jdbi.v3.core.Handle;
import org.jdbi.v3.core.statement.Query;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The SQLite writer and each reader connection prepare each statement once for the life of the
 * connection (preparing costs about 10 us a statement), and a kept statement never holds a reader
 * on an old snapshot. Bound values never reach a Flight Recorder recording.
 */
class SqliteDatabaseTest {

  @TempDir Path dir;

  @Test
  void theWriterAndTheReadersKeepTheirPreparedStatements() throws SQLException {
    PreparedStatement written;
    PreparedStatement read;
    try (SqliteDatabase database = SqliteDatabase.open(dir.resolve("asa.db"))) {
      written = database.write("probing", SqliteDatabaseTest::statementOf);
      assertThat(database.write("probing again", SqliteDatabaseTest::statementOf))
          .isSameAs(written);
      assertThat(written.isClosed()).isFalse();

      read = database.read("probing", SqliteDatabaseTest::statementOf);
      assertThat(read).isNotSameAs(written);
      assertThat(read.isClosed()).as("kept with its reader connection").isFalse();
      // one reader is idle in the pool: the next read borrows it and finds its statement
      assertThat(database.read("probing again", SqliteDatabaseTest::statementOf)).isSameAs(read);
    }
    assertThat(written.isClosed()).as("closed with the database").isTrue();
    assertThat(read.isClosed()).as("closed with its connection").isTrue();
  }

  /**
   * A kept statement is reset when its result set closes, which ends the read's snapshot: each read
   * sees every commit before it, whichever reader it lands on, also after reading only the first
   * row of several.
   */
  @Test
  void aReaderAlwaysSeesTheLatestCommit() {
    try (SqliteDatabase database = SqliteDatabase.open(dir.resolve("asa.db"))) {
      database.write("creating", h -> h.execute("CREATE TABLE probe (n INTEGER NOT NULL)"));
      for (int n = 1; n <= 200; n++) {
        int value = n;
        database.write("inserting", h -> h.execute("INSERT INTO probe (n) VALUES (?)", value));
        Integer newest =
            database.read(
                "reading the first of all",
                h ->
                    h.createQuery("SELECT n FROM probe ORDER BY n DESC")
                        .mapTo(Integer.class)
                        .findFirst()
                        .orElseThrow());
        Integer count =
            database.read(
                "counting",
                h -> h.createQuery("SELECT count(*) FROM probe").mapTo(Integer.class).one());
        assertThat(newest).isEqualTo(n);
        assertThat(count).isEqualTo(n);
      }
    }
  }

  /**
   * A lookup runs on the writer connection when no write holds it (its cache is warm), on a reader
   * otherwise: it never waits for a write, never sees a write's rows before they are committed, and
   * one made inside a write's own work sees committed rows only, as a read does.
   */
  @Test
  void aLookupUsesTheFreeWriterAndOtherwiseAReaderAndSeesCommittedRowsOnly() throws Exception {
    try (SqliteDatabase database = SqliteDatabase.open(dir.resolve("asa.db"))) {
      database.write("creating", h -> h.execute("CREATE TABLE probe (n INTEGER NOT NULL)"));
      database.write("inserting", h -> h.execute("INSERT INTO probe (n) VALUES (1)"));
      PreparedStatement written = database.write("probing", SqliteDatabaseTest::statementOf);
      assertThat(database.lookup("probing", SqliteDatabaseTest::statementOf))
          .as("the writer's own kept statement: the lookup ran on the writer")
          .isSameAs(written);
      for (int n = 2; n <= 50; n++) {
        int value = n;
        database.write("inserting", h -> h.execute("INSERT INTO probe (n) VALUES (?)", value));
        assertThat(database.lookup("counting", SqliteDatabaseTest::count)).isEqualTo(n);
      }

      var inWrite = new java.util.concurrent.CountDownLatch(1);
      var release = new java.util.concurrent.CountDownLatch(1);
      Thread writer =
          Thread.ofPlatform()
              .start(() ->
                  database.write(
                      "inserting slowly",
                      h -> {
                        h.execute("INSERT INTO probe (n) VALUES (51)");
                        inWrite.countDown();
                        await(release);
                        return null;
                      }));
      inWrite.await();
      try {
        assertThat(database.lookup("counting during a write", SqliteDatabaseTest::count))
            .as("served by a reader at once, without the uncommitted row")
            .isEqualTo(50);
      } finally {
        release.countDown();
        writer.join();
      }
      assertThat(database.lookup("counting after it", SqliteDatabaseTest::count)).isEqualTo(51);

      int seenInside =
          database.write(
              "inserting and looking",
              h -> {
                h.execute("INSERT INTO probe (n) VALUES (52)");
                return database.lookup("counting inside", SqliteDatabaseTest::count);
              });
      assertThat(seenInside).as("inside a write: committed rows only").isEqualTo(51);
    }
  }

  /**
   * A plain statement ({@link PlainStatements}) uses the connection's kept statement, on the writer
   * and on a reader alike, ends a read's snapshot by closing its rows (a later read sees the latest
   * commit), and its errors are translated as a JDBI statement's are: a taken key is a {@link
   * DuplicateKeyException}, and the write rolls back.
   */
  @Test
  void aPlainStatementUsesTheKeptStatementAndItsErrorsAreTranslated() throws SQLException {
    try (SqliteDatabase database = SqliteDatabase.open(dir.resolve("asa.db"))) {
      database.write(
          "creating", h -> h.execute("CREATE TABLE probe (n INTEGER NOT NULL PRIMARY KEY)"));
      var onWriter = new java.util.ArrayList<java.sql.Statement>();
      for (int n = 1; n <= 3; n++) {
        int value = n;
        long inserted =
            database.write(
                "inserting",
                h ->
                    PlainStatements.query(
                        h,
                        "INSERT INTO probe (n) VALUES (?) RETURNING n",
                        st -> st.setInt(1, value),
                        rows -> {
                          onWriter.add(rows.getStatement());
                          rows.next();
                          return rows.getLong(1);
                        }));
        assertThat(inserted).isEqualTo(n);
        assertThat(plainCount(database)).as("a reader sees each commit").isEqualTo(n);
      }
      assertThat(onWriter).as("one kept statement").containsOnly(onWriter.get(0));
      assertThat(onWriter.get(0).isClosed()).isFalse();

      assertThatThrownBy(() ->
              database.write(
                  "inserting a taken key",
                  h -> {
                    h.execute("INSERT INTO probe (n) VALUES (4)");
                    return PlainStatements.query(
                        h,
                        "INSERT INTO probe (n) VALUES (?) RETURNING n",
                        st -> st.setInt(1, 1),
                        rows -> rows.next());
                  }))
          .isInstanceOf(DuplicateKeyException.class);
      assertThat(plainCount(database)).as("rolled back whole").isEqualTo(3);
    }
  }

  private static int plainCount(SqliteDatabase database) {
    return database.read(
        "counting",
        h ->
            PlainStatements.query(
                h,
                "SELECT count(*) FROM probe",
                st -> {},
                rows -> {
                  rows.next();
                  return rows.getInt(1);
                }));
  }

  private static int count(Handle h) {
    return h.createQuery("SELECT count(*) FROM probe").mapTo(Integer.class).one();
  }

  private static void await(java.util.concurrent.CountDownLatch latch) {
    try {
      latch.await();
    } catch (InterruptedException e) {
      throw new IllegalStateException(e);
    }
  }

  @Test
  void aFlightRecordingHoldsNoBoundValues() throws Exception {
    String secret = "deliverable content " + "x".repeat(40);
    Path dump = dir.resolve("recording.jfr");
    try (SqliteDatabase database = SqliteDatabase.open(dir.resolve("asa.db"));
        Recording recording = new Recording()) {
      recording.enable("jdbi.statement");
      recording.start();
      database.write(
          "probing",
          handle ->
              handle
                  .createQuery("SELECT :secret")
                  .bind("secret", secret)
                  .mapTo(String.class)
                  .one());
      recording.stop();
      recording.dump(dump);
    }
    List<RecordedEvent> statements =
        RecordingFile.readAllEvents(dump).stream()
            .filter(e -> e.getEventType().getName().equals("jdbi.statement"))
            .toList();
    assertThat(statements).isNotEmpty();
    assertThat(statements)
        .allSatisfy(e -> assertThat(e.getString("parameters")).doesNotContain("deliverable"));
  }

  /** Runs a query and returns the JDBC statement JDBI ran it with. */
  private static PreparedStatement statementOf(Handle handle) {
    Query query = handle.createQuery("SELECT 1");
    assertThat(query.mapTo(Integer.class).one()).isEqualTo(1);
    return (PreparedStatement) query.getContext().getStatement();
  }
}
