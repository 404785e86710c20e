package dev.asa.server.store.db;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
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
 * A commit, then a row read by key, as a change reads its agreement after the commits before it: on
 * a reader ({@link SqliteDatabase#read}), whose page cache every commit empties, or as a lookup
 * ({@link SqliteDatabase#lookup}), on the writer whose cache the commit left warm. 20,000 rows of
 * about an agreement row's size, keyed by text. Run with {@code ./asa bench-core SqliteLookup}.
 */
@BenchmarkMode(Mode.SampleTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Fork(1)
@Warmup(iterations = 2, time = 2)
@Measurement(iterations = 3, time = 2)
@State(Scope.Benchmark)
public class SqliteLookupBenchmark {
  private static final int ROWS = 20_000;

  private Path dir;
  private SqliteDatabase database;
  private long n;

  @Setup(Level.Trial)
  public void setUp() throws IOException {
    dir = Files.createTempDirectory("asa-lookup-bench");
    database = SqliteDatabase.open(dir.resolve("asa.db"));
    database.write(
        "creating",
        h -> {
          h.execute("CREATE TABLE rows (id TEXT PRIMARY KEY, version INTEGER, body BLOB)");
          for (int i = 0; i < ROWS; i++) {
            h.execute("INSERT INTO rows VALUES (?, 1, ?)", id(i), new byte[900]);
          }
          return null;
        });
  }

  @TearDown(Level.Trial)
  public void tearDown() throws IOException {
    BenchmarkDatabases.closeAndDelete(database, dir);
  }

  @Benchmark
  public long commitThenReadOnAReader() {
    commit();
    return database.read("reading", this::versionOfNext);
  }

  @Benchmark
  public long commitThenLookUpOnTheWriter() {
    commit();
    return database.lookup("looking up", this::versionOfNext);
  }

  private void commit() {
    long at = n++ % ROWS;
    database.write(
        "changing",
        h -> h.execute("UPDATE rows SET version = version + 1 WHERE id = ?", id((int) at)));
  }

  private long versionOfNext(org.jdbi.v3.core.Handle h) {
    return h.createQuery("SELECT version FROM rows WHERE id = :id")
        .bind("id", id((int) ((n * 7919) % ROWS)))
        .mapTo(Long.class)
        .one();
  }

  private static String id(int i) {
    return BenchmarkDatabases.spreadId(i);
  }
}
