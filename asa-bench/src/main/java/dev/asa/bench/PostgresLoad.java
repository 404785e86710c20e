package dev.asa.bench;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;

/**
 * What PostgreSQL did in a measured window: the transactions and deadlocks of the benchmark's
 * database ({@code pg_stat_database}), what the nodes' connections were doing, sampled from {@code
 * pg_stat_activity} every 100 ms (lock waits above all: with several nodes, two requests of one
 * agreement on two nodes meet there), and the CPU time of PostgreSQL's processes when they run on
 * this machine (all of them, and the nodes' own backends). The nodes are told apart from anyone
 * else's sessions by the {@code application_name} each connects with.
 *
 * <p>The benchmark's own queries are kept out of the figures: this sampler's statements run on the
 * same database, so their count is subtracted from its transactions. PostgreSQL publishes a
 * backend's counters at most once a second, so both readings lag the work by up to a second; in a
 * steady window the two lags cancel.
 */
final class PostgresLoad {

  static final Duration SAMPLE_EVERY = Duration.ofMillis(100);

  private final Connection db;
  private final String database;
  private final List<String> nodeNames;
  private final long[] counters0;
  private final Duration postgresCpu0;
  private final ScheduledExecutorService sampler;
  private final ScheduledFuture<?> sampling;
  // Written by the sampler thread only, read after it has stopped.
  private final Map<Long, Integer> backendNode = new HashMap<>();
  private final Map<Long, Duration> backendCpu0 = new HashMap<>();
  private final Map<String, Integer> states = new HashMap<>();
  private final Map<String, Integer> lockedStatements = new HashMap<>();
  private long ownQueries;
  private int samples;
  private int samplesWithLockWaits;
  private int maxLockWaiters;
  private int samplesWithOthers;
  private int samplesWithOthersHere;
  private SQLException failure;

  private PostgresLoad(Connection db, String database, List<String> nodeNames) throws SQLException {
    this.db = db;
    this.database = database;
    this.nodeNames = nodeNames;
    this.counters0 = counters();
    this.postgresCpu0 = ProcCpu.ofCommand("postgres");
    sample(true);
    this.sampler =
        Executors.newSingleThreadScheduledExecutor(r -> {
          Thread t = new Thread(r, "asa-bench-pg-sampler");
          t.setDaemon(true);
          return t;
        });
    this.sampling =
        sampler.scheduleAtFixedRate(
            this::sampleOrRemember,
            SAMPLE_EVERY.toMillis(),
            SAMPLE_EVERY.toMillis(),
            TimeUnit.MILLISECONDS);
  }

  /**
   * Takes the first readings and starts sampling.
   *
   * @param jdbcUrl the benchmark's database
   * @param nodeNames the application_name of each node's connections, in node order
   */
  static PostgresLoad start(String jdbcUrl, List<String> nodeNames) throws SQLException {
    Connection c = DriverManager.getConnection(jdbcUrl);
    try {
      c.setAutoCommit(true);
      String database;
      try (ResultSet r = c.createStatement().executeQuery("SELECT current_database()")) {
        r.next();
        database = r.getString(1);
      }
      return new PostgresLoad(c, database, nodeNames);
    } catch (SQLException | RuntimeException e) {
      c.close();
      throw e;
    }
  }

  /** Stops sampling, takes the last readings and closes the connection. */
  Window stop() throws SQLException, InterruptedException {
    sampling.cancel(false);
    sampler.shutdown();
    sampler.awaitTermination(10, TimeUnit.SECONDS);
    try (db) {
      if (failure != null) {
        throw failure;
      }
      long[] counters1 = counters();
      Duration postgresCpu = ProcCpu.ofCommand("postgres").minus(postgresCpu0);
      List<Duration> byNode = new ArrayList<>();
      nodeNames.forEach(n -> byNode.add(Duration.ZERO));
      boolean local = false;
      for (Map.Entry<Long, Integer> b : backendNode.entrySet()) {
        // A backend is on this machine if /proc shows a postgres process of that id.
        if (!ProcCpu.comm(b.getKey()).orElse("").equals("postgres")) {
          continue;
        }
        local = true;
        Duration cpu =
            ProcCpu.ofPid(b.getKey())
                .orElse(Duration.ZERO) // ended since: its time is lost to this sum
                .minus(backendCpu0.getOrDefault(b.getKey(), Duration.ZERO));
        byNode.set(b.getValue(), byNode.get(b.getValue()).plus(cpu));
      }
      return new Window(
          counters1[0] - counters0[0] - ownQueries,
          counters1[1] - counters0[1],
          ownQueries,
          counters1[2] - counters0[2],
          samples,
          samplesWithLockWaits,
          maxLockWaiters,
          largestFirst(lockedStatements),
          largestFirst(states),
          samplesWithOthers,
          samplesWithOthersHere,
          local ? postgresCpu : null,
          local ? byNode : null);
    }
  }

  private static Map<String, Integer> largestFirst(Map<String, Integer> counts) {
    Map<String, Integer> sorted = new LinkedHashMap<>();
    counts.entrySet().stream()
        .sorted(Map.Entry.<String, Integer>comparingByValue().reversed())
        .forEach(e -> sorted.put(e.getKey(), e.getValue()));
    return sorted;
  }

  /** xact_commit, xact_rollback and deadlocks of the database so far. */
  private long[] counters() throws SQLException {
    try (PreparedStatement s =
        db.prepareStatement(
            "SELECT xact_commit, xact_rollback, deadlocks FROM pg_stat_database"
                + " WHERE datname = current_database()")) {
      try (ResultSet r = s.executeQuery()) {
        r.next();
        return new long[] {r.getLong(1), r.getLong(2), r.getLong(3)};
      } finally {
        ownQueries++;
      }
    }
  }

  private void sampleOrRemember() {
    if (failure != null) {
      return;
    }
    try {
      sample(false);
    } catch (SQLException e) {
      failure = e;
    }
  }

  /**
   * One look at every session: what each node connection is doing ("active on CPU", "active
   * Lock:transactionid", "idle in transaction Client:ClientRead" ...), how many wait for a lock,
   * and whether anyone else is busy (their transactions and CPU would count in the figures).
   *
   * @param first the window's first sample, which also notes each backend's CPU time so far
   */
  private void sample(boolean first) throws SQLException {
    int lockWaiters = 0;
    boolean others = false;
    boolean othersHere = false;
    try (PreparedStatement s =
            db.prepareStatement(
                "SELECT pid, datname, application_name, state, wait_event_type, wait_event,"
                    + " backend_type, query FROM pg_stat_activity WHERE pid <> pg_backend_pid()");
        ResultSet r = s.executeQuery()) {
      while (r.next()) {
        long pid = r.getLong(1);
        String state = r.getString(4);
        int node = nodeNames.indexOf(r.getString(3));
        if (node < 0) {
          if ("client backend".equals(r.getString(7)) && state != null && !state.equals("idle")) {
            others = true;
            othersHere |= database.equals(r.getString(2));
          }
          continue;
        }
        if (backendNode.put(pid, node) == null && first) {
          ProcCpu.ofPid(pid).ifPresent(cpu -> backendCpu0.put(pid, cpu));
        }
        if ("Lock".equals(r.getString(5))) {
          lockWaiters++;
          lockedStatements.merge(statement(r.getString(8)), 1, Integer::sum);
        }
        if (state != null && !state.equals("idle")) {
          String wait = r.getString(5) == null ? "on CPU" : r.getString(5) + ":" + r.getString(6);
          states.merge(state + " " + wait, 1, Integer::sum);
        }
      }
    } finally {
      ownQueries++;
    }
    samples++;
    samplesWithLockWaits += lockWaiters > 0 ? 1 : 0;
    maxLockWaiters = Math.max(maxLockWaiters, lockWaiters);
    samplesWithOthers += others ? 1 : 0;
    samplesWithOthersHere += othersHere ? 1 : 0;
  }

  /** The start of a statement, enough to tell which one waits: "UPDATE evaluators SET ...". */
  static String statement(String sql) {
    String flat = sql == null ? "?" : sql.strip().replaceAll("\\s+", " ");
    return flat.length() <= 60 ? flat : flat.substring(0, 57) + "...";
  }

  /**
   * What one window gave.
   *
   * @param commits xact_commit of the database in the window, the sampler's own left out
   * @param ownQueries the sampler's statements, left out of {@code commits}
   * @param lockedStatements per statement (its start) that waited on a lock, in how many samples a
   *     node connection waited in it, largest first
   * @param states per state and wait of a node connection that was not idle, how many samples found
   *     one so, largest first (a busy connection counts once per sample)
   * @param samplesWithOthers samples in which a session not of the nodes was busy (on any database)
   * @param samplesWithOthersHere of those, samples with such a session on the benchmark's database
   * @param postgresCpu the CPU time of every postgres process (backends, WAL writer, checkpointer,
   *     autovacuum; anyone's); null when PostgreSQL does not run on this machine
   * @param backendCpuByNode the CPU time of each node's backends; null as above
   */
  record Window(
      long commits,
      long rollbacks,
      long ownQueries,
      long deadlocks,
      int samples,
      int samplesWithLockWaits,
      int maxLockWaiters,
      Map<String, Integer> lockedStatements,
      Map<String, Integer> states,
      int samplesWithOthers,
      int samplesWithOthersHere,
      Duration postgresCpu,
      List<Duration> backendCpuByNode) {

    long transactions() {
      return commits + rollbacks;
    }

    /** The lines the benchmark prints for this window, beside its other per-unit figures. */
    List<String> describe(String unit, long units, double seconds) {
      List<String> lines = new ArrayList<>();
      lines.add(
          line(
              "PG transactions per " + unit,
              String.format(
                  Locale.ROOT,
                  "%.2f  (%d commits + %d rollbacks in the database; the benchmark's own %d"
                      + " sampling queries left out)",
                  (double) transactions() / units,
                  commits,
                  rollbacks,
                  ownQueries)));
      lines.add(
          line(
              "PG lock waits",
              String.format(
                  Locale.ROOT,
                  "%d of %d samples (every %d ms) had a node connection waiting on a lock, at"
                      + " most %d at once; %d deadlocks",
                  samplesWithLockWaits,
                  samples,
                  SAMPLE_EVERY.toMillis(),
                  maxLockWaiters,
                  deadlocks)));
      if (!lockedStatements.isEmpty()) {
        lines.add(line("  waiting in", top(lockedStatements, 3)));
      }
      lines.add(line("  node connections seen", top(states, 6)));
      if (postgresCpu == null) {
        lines.add(line("PG CPU per " + unit, "n/a (PostgreSQL is not on this machine)"));
      } else {
        lines.add(
            line(
                "PG CPU per " + unit,
                String.format(
                    Locale.ROOT,
                    "%.2f ms  (every postgres process: %.1f s CPU in %.1f s, %.2f cores busy)",
                    LifecycleBenchmark.perLifecycleMs(postgresCpu, units),
                    postgresCpu.toNanos() / 1e9,
                    seconds,
                    postgresCpu.toNanos() / 1e9 / seconds)));
        List<String> nodes = new ArrayList<>();
        Duration all = Duration.ZERO;
        for (int i = 0; i < backendCpuByNode.size(); i++) {
          all = all.plus(backendCpuByNode.get(i));
          nodes.add(
              String.format(
                  Locale.ROOT,
                  "node %d %.2f ms",
                  i + 1,
                  LifecycleBenchmark.perLifecycleMs(backendCpuByNode.get(i), units)));
        }
        lines.add(
            line(
                "  of which the nodes' backends",
                String.format(Locale.ROOT, "%.2f ms", LifecycleBenchmark.perLifecycleMs(all, units))
                    + (nodes.size() > 1 ? "  (" + String.join(", ", nodes) + ")" : "")));
      }
      if (samplesWithOthers > 0) {
        lines.add(
            line(
                "  not the benchmark's alone",
                String.format(
                    Locale.ROOT,
                    "another session was busy in %d of %d samples (%d on this database): its"
                        + " transactions there and its CPU count above",
                    samplesWithOthers,
                    samples,
                    samplesWithOthersHere)));
      }
      return lines;
    }

    /**
     * The line for a window with no load: what the nodes cost the database by merely running (each
     * polls its timers and outbox every second), which the per-unit figures above include.
     */
    String atRest(int nodes, double seconds) {
      return String.format(
          Locale.ROOT,
          "PostgreSQL at rest (%d node%s, no load, %.0f s): %.1f transactions/s, %s%s",
          nodes,
          nodes == 1 ? "" : "s",
          seconds,
          transactions() / seconds,
          postgresCpu == null
              ? "CPU n/a"
              : String.format(
                  Locale.ROOT, "%.3f cores of postgres CPU", postgresCpu.toNanos() / 1e9 / seconds),
          samplesWithOthers == 0
              ? ""
              : String.format(
                  Locale.ROOT,
                  " (another session busy in %d of %d samples)",
                  samplesWithOthers,
                  samples));
    }

    private static String line(String name, String value) {
      return String.format(Locale.ROOT, "  %-28s %s", name, value);
    }

    /** "active on CPU 412, idle in transaction Client:ClientRead 96, ..." */
    static String top(Map<String, Integer> counts, int n) {
      List<String> parts = new ArrayList<>();
      counts.entrySet().stream().limit(n).forEach(e -> parts.add(e.getKey() + " " + e.getValue()));
      return parts.isEmpty() ? "none busy" : String.join(", ", parts);
    }
  }
}
