package dev.asa.server.store.db;

import java.time.Duration;
import java.time.Instant;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Function;
import javax.sql.DataSource;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A circuit breaker in front of a {@link Database}: once the database is known not to serve (a full
 * disk, a server that cannot be reached), work is refused at once with the same {@link
 * StoreUnavailableException}, instead of each request waiting for a connection that will not come
 * (10 s) or hammering a full disk, and a background probe closes the circuit again as soon as the
 * database serves. The same process heals by itself: nobody has to restart it.
 *
 * <p>Fails closed, and why: while the circuit is open nothing is written, so nothing a caller is
 * told was refused can have happened; a caller that was told "accepted" had its commit return
 * before the circuit opened. Only the causes that say the database itself cannot serve open it
 * ({@link #trips}); a busy pool or a lock held by another process does not.
 *
 * <p>Logged once: the failure that opens the circuit (with its stack trace), and its closing, with
 * how long it was open and how many calls it refused meanwhile; not one line per refused request.
 */
public final class Circuit implements Database {
  private static final Logger log = LoggerFactory.getLogger(Circuit.class);

  /** How often the probe tries the database while the circuit is open. */
  static final Duration PROBE_EVERY = Duration.ofSeconds(1);

  /** The work a probe runs: a real write for SQLite (a full disk), a query for PostgreSQL. */
  @FunctionalInterface
  interface Probe {
    void run(Database database);
  }

  private final Database inner;
  private final Set<StoreUnavailableException.Cause> trips;
  private final boolean guardsReads;
  private final Probe probe;
  private final ScheduledExecutorService prober;

  private final Object lock = new Object();
  private final Set<StoreUnavailableException.Cause> traced = ConcurrentHashMap.newKeySet();
  private volatile Open open; // null while closed; changed under lock

  /** Why the circuit is open, since when, and how many calls it refused. */
  private record Open(StoreUnavailableException cause, Instant since, AtomicLong refused) {}

  /**
   * @param trips the causes that open the circuit
   * @param guardsReads whether reads are refused too while it is open (PostgreSQL: nothing can be
   *     read from a server that cannot be reached; SQLite reads a full disk fine)
   * @param probe what must succeed for the circuit to close
   */
  Circuit(
      Database inner,
      Set<StoreUnavailableException.Cause> trips,
      boolean guardsReads,
      Probe probe) {
    this.inner = Objects.requireNonNull(inner, "inner");
    this.trips = Set.copyOf(trips);
    this.guardsReads = guardsReads;
    this.probe = Objects.requireNonNull(probe, "probe");
    this.prober =
        Executors.newSingleThreadScheduledExecutor(r -> {
          Thread t = new Thread(r, "asa-store-probe");
          t.setDaemon(true);
          return t;
        });
  }

  /** For SQLite: a full or failing disk opens it; reads go on; the probe writes one page. */
  public static Circuit sqlite(Database inner) {
    return new Circuit(
        inner,
        Set.of(StoreUnavailableException.Cause.DISK_FULL, StoreUnavailableException.Cause.FAILING),
        false,
        Circuit::writeOnePage);
  }

  /** For PostgreSQL: an unreachable server opens it, for reads and writes; the probe queries. */
  public static Circuit postgres(Database inner) {
    return new Circuit(
        inner,
        Set.of(StoreUnavailableException.Cause.UNREACHABLE),
        true,
        database ->
            database.read(
                "probing the database", h -> h.createQuery("SELECT 1").mapTo(Integer.class).one()));
  }

  /**
   * A real write, so a disk with no room fails it: setting the schema's user version (unused by
   * this server and by Flyway) to what it is dirties the header page, which the commit appends to
   * the WAL. A transaction that writes nothing would commit on a full disk.
   */
  private static void writeOnePage(Database database) {
    database.write(
        "probing whether the database can write",
        h -> {
          int version = h.createQuery("PRAGMA user_version").mapTo(Integer.class).one();
          h.execute("PRAGMA user_version = " + version);
          return null;
        });
  }

  /** Why the circuit is open, when it is: what {@code /ready} reports. */
  @Override
  public Optional<String> outage() {
    Open o = open;
    if (o == null) {
      return Optional.empty();
    }
    return Optional.of(
        o.cause().kind().sentence()
            + " since "
            + o.since()
            + " ("
            + o.refused().get()
            + " calls refused; probing every "
            + PROBE_EVERY.toSeconds()
            + " s): "
            + o.cause().getMessage());
  }

  @Override
  public <T> T write(String doing, Work<T> work) {
    refuseIfOpen(doing);
    try {
      return inner.write(doing, work);
    } catch (StoreUnavailableException e) {
      throw tripped(e);
    }
  }

  @Override
  public <T> T read(String doing, Work<T> work) {
    return guardedRead(doing, () -> inner.read(doing, work));
  }

  @Override
  public <T> T lookup(String doing, Work<T> work) {
    return guardedRead(doing, () -> inner.lookup(doing, work));
  }

  private <T> T guardedRead(String doing, java.util.function.Supplier<T> read) {
    if (guardsReads) {
      refuseIfOpen(doing);
    }
    try {
      return read.get();
    } catch (StoreUnavailableException e) {
      throw guardsReads ? tripped(e) : e;
    }
  }

  private void refuseIfOpen(String doing) {
    Open o = open;
    if (o != null) {
      o.refused().incrementAndGet();
      StoreUnavailableException cause = o.cause();
      throw new StoreUnavailableException(
          cause.kind(),
          inner.describe()
              + " refused "
              + doing
              + ": "
              + cause.kind().sentence()
              + " since "
              + o.since()
              + ", and nothing is tried until a probe succeeds",
          cause.hint(),
          null);
    }
  }

  private StoreUnavailableException tripped(StoreUnavailableException e) {
    if (!trips.contains(e.kind())) {
      return e;
    }
    synchronized (lock) {
      if (open == null) {
        open = new Open(e, Instant.now(), new AtomicLong());
        // The stack trace once per cause: a disk that stays nearly full may let the probe write
        // and the next request fail again, once a second.
        Object trace = traced.add(e.kind()) ? e : String.valueOf(e);
        log.error(
            "{}: {}; refusing {} at once until a probe every {} s succeeds{}",
            inner.describe(),
            e.kind().sentence(),
            guardsReads ? "reads and writes" : "writes",
            PROBE_EVERY.toSeconds(),
            trace instanceof Throwable ? "" : " (" + trace + ")",
            trace instanceof Throwable t ? t : null);
        Future<?> unused =
            prober.schedule(this::probe, PROBE_EVERY.toMillis(), TimeUnit.MILLISECONDS);
      }
    }
    return e;
  }

  private void probe() {
    Open o = open;
    if (o == null) {
      return;
    }
    try {
      probe.run(inner);
    } catch (RuntimeException e) {
      if (!prober.isShutdown()) {
        Future<?> unused =
            prober.schedule(this::probe, PROBE_EVERY.toMillis(), TimeUnit.MILLISECONDS);
      }
      return;
    }
    synchronized (lock) {
      open = null;
    }
    log.info(
        "{} serves again after {} ms ({}); {} calls were refused meanwhile",
        inner.describe(),
        Duration.between(o.since(), Instant.now()).toMillis(),
        o.cause().kind().sentence(),
        o.refused().get());
  }

  @Override
  public Dialect dialect() {
    return inner.dialect();
  }

  @Override
  public <T> T withDataSource(Function<DataSource, T> work) {
    return inner.withDataSource(work);
  }

  @Override
  public String describe() {
    return inner.describe();
  }

  @Override
  public void close() {
    prober.shutdownNow();
    inner.close();
  }
}
