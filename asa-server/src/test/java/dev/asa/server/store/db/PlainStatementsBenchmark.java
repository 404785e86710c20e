package dev.asa.server.store.db;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.jdbi.v3.core.Handle;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * An agreement-sized row updated by key with a version check and RETURNING, as every change does
 * ({@code AgreementStore.update}: 13 parameters), through JDBI's binding or as a {@link
 * PlainStatements} statement, each inside a write on the SQLite writer (the commit included, the
 * same in both). Run with {@code ./asa bench-core PlainStatements}.
 */
@BenchmarkMode(Mode.SampleTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Fork(1)
@Warmup(iterations = 2, time = 2)
@Measurement(iterations = 3, time = 2)
@State(Scope.Benchmark)
public class PlainStatementsBenchmark {
  private static final int ROWS = 10_000;
  private static final String NAMED =
      "UPDATE rows SET version = :version, state = :state, facts = :facts, service_type = :type,"
          + " client = :client, provider = :provider, evaluator = :evaluator,"
          + " updated_at = :updated_at, amount = :amount, currency = :currency"
          + " WHERE id = :id AND version = :expected RETURNING row_seq";
  private static final String POSITIONAL =
      "UPDATE rows SET version = ?, state = ?, facts = ?, service_type = ?, client = ?,"
          + " provider = ?, evaluator = ?, updated_at = ?, amount = ?, currency = ?"
          + " WHERE id = ? AND version = ? RETURNING row_seq";

  private Path dir;
  private SqliteDatabase database;
  private final long[] versions = new long[ROWS];
  private long n;
  private final byte[] facts = new byte[300];

  @Setup(Level.Trial)
  public void setUp() throws IOException {
    dir = Files.createTempDirectory("asa-plain-bench");
    database = SqliteDatabase.open(dir.resolve("asa.db"));
    database.write(
        "creating",
        h -> {
          h.execute(
              "CREATE TABLE rows (row_seq INTEGER PRIMARY KEY, id TEXT NOT NULL UNIQUE,"
                  + " version INTEGER, state TEXT, document BLOB, facts BLOB, service_type TEXT,"
                  + " client TEXT, provider TEXT, evaluator TEXT, updated_at INTEGER,"
                  + " amount TEXT, currency TEXT)");
          for (int i = 0; i < ROWS; i++) {
            h.execute(
                "INSERT INTO rows (id, version, document, facts) VALUES (?, 1, ?, ?)",
                id(i),
                new byte[550],
                facts);
            versions[i] = 1;
          }
          return null;
        });
  }

  @TearDown(Level.Trial)
  public void tearDown() throws IOException {
    BenchmarkDatabases.closeAndDelete(database, dir);
  }

  @Benchmark
  public long updateThroughJdbi() {
    int at = next();
    return database.write(
        "updating",
        h ->
            h.createQuery(NAMED)
                .bind("version", versions[at] + 1)
                .bind("state", "active")
                .bind("facts", facts)
                .bind("type", "research")
                .bind("client", "ed25519:client")
                .bind("provider", "ed25519:provider")
                .bind("evaluator", (String) null)
                .bind("updated_at", System.currentTimeMillis())
                .bind("amount", "10.00")
                .bind("currency", "USD")
                .bind("id", id(at))
                .bind("expected", versions[at]++)
                .mapTo(Long.class)
                .one());
  }

  @Benchmark
  public long updateAsAPlainStatement() {
    int at = next();
    return database.write("updating", h -> plainUpdate(h, at));
  }

  private long plainUpdate(Handle h, int at) {
    return PlainStatements.query(
        h,
        POSITIONAL,
        s -> {
          s.setLong(1, versions[at] + 1);
          s.setString(2, "active");
          s.setBytes(3, facts);
          s.setString(4, "research");
          s.setString(5, "ed25519:client");
          s.setString(6, "ed25519:provider");
          s.setString(7, null);
          s.setLong(8, System.currentTimeMillis());
          s.setString(9, "10.00");
          s.setString(10, "USD");
          s.setString(11, id(at));
          s.setLong(12, versions[at]++);
        },
        rows -> {
          rows.next();
          return rows.getLong(1);
        });
  }

  private int next() {
    return (int) (n++ * 7919 % ROWS);
  }

  private static String id(int i) {
    return BenchmarkDatabases.spreadId(i);
  }
}
