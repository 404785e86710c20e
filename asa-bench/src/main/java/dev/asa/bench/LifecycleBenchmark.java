package dev.asa.bench;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.asa.bench.BenchOptions.Scenario;
import dev.asa.client.AsaClient;
import dev.asa.crypto.Ed25519PrivateKey;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.sql.Connection;
import java.sql.DriverManager;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Full agreement lifecycles per second through the HTTP API, for each store, with p50/p99 latency
 * per call, the server's CPU time per lifecycle and the bytes on disk per closed agreement. A
 * benchmark that prints numbers, not a test: run it with {@code ./asa bench}.
 *
 * <p>One lifecycle = create (from a template) -> sign as client -> sign as provider (each signing
 * the agreement_hash of the create answer) -> fund the escrow as client -> deliver -> verify (with
 * the evaluator's scores; the verification is pessimistic, so it is enforced at once: the agreement
 * closes and the ledger releases and refunds in that call): six HTTP calls. (With an optimistic
 * window of 0 s an explicit close would race the server's own challenge-window timer.) The server
 * runs as a child process ({@code asa serve} on the benchmark's classpath, see {@link
 * ServerProcess}) on a loopback port, so that its own CPU time can be read; clients are concurrent
 * threads of this process over real HTTP.
 *
 * <p>With {@code --nodes N} (PostgreSQL) it starts N servers on one schema and sends call k of
 * lifecycle i to node (k + i) mod N, so the nodes share an agreement's state through the database
 * only; it then also prints what PostgreSQL did in the window (transactions and CPU per lifecycle,
 * lock waits: {@link PostgresLoad}), as it does for one node.
 *
 * <p>With {@code --scenario structural} the unit is instead one signed {@code POST /verifications}
 * at structural depth, without an agreement, on the evaluator benchmark's kind of deliverable.
 *
 * <p>Arguments: see {@link BenchOptions}. With {@code --server} the benchmark drives a server
 * running elsewhere instead of starting its own (then it knows neither its CPU time nor its store).
 */
public final class LifecycleBenchmark {

  public static void main(String[] args) throws Exception {
    BenchOptions o;
    try {
      o = BenchOptions.parse(args);
    } catch (IllegalArgumentException e) {
      System.err.println(e.getMessage());
      System.exit(2);
      return;
    }
    String taskset = o.serverCores().isEmpty() ? null : ServerProcess.taskset();
    System.out.printf(
        "ASA lifecycle benchmark: %d client threads, %d s warm-up%s, %d s measured, %d cores,"
            + " Java %s%n",
        o.clients(),
        o.warmup(),
        o.settleJit() == 0 ? "" : " (+ up to " + o.settleJit() + " s until the JIT settles)",
        o.seconds(),
        Runtime.getRuntime().availableProcessors(),
        Runtime.version());
    if (o.server() != null) {
      // A server started elsewhere (./asa serve): no PID to read its CPU from, no store to size.
      List<AsaClient> client = List.of(AsaClient.connect(URI.create(o.server())));
      System.out.println();
      System.out.println("server: " + o.server() + " (external process)");
      run(o, client, Duration.ofSeconds(o.warmup()), null, null);
      Result r = run(o, client, Duration.ofSeconds(o.seconds()), null, null);
      print(o.scenario(), r, null, null, SignatureFloor.of(o.scenario()));
      return;
    }
    for (String store : o.stores()) {
      Path base = Files.createTempDirectory("asa-bench");
      String dbUrl = null;
      String schema = null;
      Thread dropper = null;
      if (store.equals("postgresql")) {
        schema = "asa_bench_" + Long.toHexString(new SecureRandom().nextLong() & Long.MAX_VALUE);
        createSchema(o.pg(), schema);
        dbUrl = o.pg() + (o.pg().contains("?") ? "&" : "?") + "currentSchema=" + schema;
        // An interrupted run (Ctrl-C) leaves no schema behind either.
        String doomed = schema;
        dropper =
            new Thread(
                () -> {
                  try {
                    dropSchema(o.pg(), doomed);
                  } catch (Exception e) {
                    System.err.println("could not drop schema " + doomed + ": " + e);
                  }
                },
                "asa-bench-drop-schema");
        Runtime.getRuntime().addShutdownHook(dropper);
      }
      try {
        ServerNodes servers =
            ServerNodes.start(base, dbUrl, schema == null ? "asa-bench" : schema, o);
        Result r;
        SignatureFloor floorBefore;
        boolean clean;
        try {
          System.out.println();
          System.out.println("store: " + servers.get(0).store());
          for (int i = 0; i < servers.size(); i++) {
            ServerProcess server = servers.get(i);
            System.out.printf(
                "%s: pid %d, %s, %s, log %s%n",
                servers.size() == 1 ? "server" : "node " + (i + 1),
                server.pid(),
                o.coresOf(i) == null ? "all cores" : taskset + " -c " + o.coresOf(i),
                String.join(" ", o.serverJavaOpts()),
                server.log());
          }
          if (servers.size() > 1) {
            System.out.printf(
                "nodes: %d on schema %s; %s%n",
                servers.size(),
                schema,
                o.stickyAgreements()
                    ? "every call of lifecycle i goes to node i mod " + servers.size()
                    : "call k of lifecycle i goes to node (k + i) mod " + servers.size());
          }
          if (schema != null) {
            System.out.println(atRest(jdbc(o.pg()), servers));
          }
          List<AsaClient> clients =
              servers.all().stream().map(s -> AsaClient.connect(URI.create(s.url()))).toList();
          run(o, clients, Duration.ofSeconds(o.warmup()), servers, null);
          settleJit(o, clients, servers);
          floorBefore = SignatureFloor.of(o.scenario());
          r =
              run(
                  o,
                  clients,
                  Duration.ofSeconds(o.seconds()),
                  servers,
                  schema == null ? null : jdbc(o.pg()));
        } finally {
          clean = servers.stopCleanly();
        }
        StoreFootprint disk =
            schema == null
                ? StoreFootprint.sqlite(ServerNodes.dataDir(base, 0, 1).resolve("asa.db"), clean)
                : StoreFootprint.postgres(jdbc(o.pg()), schema);
        StoreFootprint compacted =
            schema == null || o.scenario() != Scenario.LIFECYCLE
                ? null
                : StoreFootprint.postgresCompacted(jdbc(o.pg()), schema);
        // After the servers stopped, and before the window: the machine's speed drifts.
        SignatureFloor floorAfter = SignatureFloor.of(o.scenario());
        print(o.scenario(), r, disk, compacted, SignatureFloor.between(floorBefore, floorAfter));
        String drift = SignatureFloor.drift(floorBefore, floorAfter);
        if (!drift.isEmpty()) {
          System.out.println(drift);
        }
      } finally {
        if (schema != null) {
          Runtime.getRuntime().removeShutdownHook(dropper);
          if (!o.keepStore()) {
            dropSchema(o.pg(), schema);
          }
        }
        if (o.keepStore()) {
          System.out.println(
              "  store kept: "
                  + (schema == null
                      ? ServerNodes.dataDir(base, 0, 1).resolve("asa.db").toString()
                      : "schema " + schema));
        } else {
          for (int i = 0; i < o.nodes(); i++) {
            deleteTree(ServerNodes.dataDir(base, i, o.nodes())); // the servers' logs stay
          }
        }
      }
    }
  }

  /**
   * Warms up on in steps until the servers' compiler threads took less than {@link
   * BenchOptions#SETTLED_JIT_SHARE} of their CPU in a step, for at most {@code --settle-jit}
   * seconds; says how long it took and where the JIT stood.
   */
  private static void settleJit(BenchOptions o, List<AsaClient> clients, ServerNodes servers)
      throws Exception {
    if (o.settleJit() == 0) {
      System.out.printf("warm-up: %d s (the JIT not waited for)%n", o.warmup());
      return;
    }
    int extra = 0;
    double share = Double.NaN;
    while (extra < o.settleJit()) {
      Result step = run(o, clients, Duration.ofSeconds(BenchOptions.SETTLE_STEP), servers, null);
      extra += BenchOptions.SETTLE_STEP;
      share = jitShare(step.serverCpuByKind());
      if (Double.isNaN(share) || share < BenchOptions.SETTLED_JIT_SHARE) {
        break; // settled, or the threads' CPU cannot be read here (not Linux)
      }
    }
    System.out.printf(
        "warm-up: %d s, then %d s more %s (the JIT %.1f%% of the servers' CPU in the last %d s)%n",
        o.warmup(),
        extra,
        share < BenchOptions.SETTLED_JIT_SHARE ? "until the JIT settled" : "and the JIT still busy",
        100 * share,
        BenchOptions.SETTLE_STEP);
  }

  /** The compiler threads' share of the servers' CPU (NaN when it could not be read). */
  static double jitShare(Map<String, Duration> byKind) {
    long total = byKind.values().stream().mapToLong(Duration::toNanos).sum();
    return total == 0
        ? Double.NaN
        : byKind.getOrDefault("jit", Duration.ZERO).toNanos() / (double) total;
  }

  /** How long the database is watched with the nodes idle, before the warm-up. */
  private static final Duration AT_REST = Duration.ofSeconds(10);

  /**
   * What the idle nodes cost PostgreSQL (their polling), so that a per-lifecycle figure can be
   * split into the lifecycle's own share and a fixed rate per node.
   */
  private static String atRest(String pgJdbc, ServerNodes servers) throws Exception {
    PostgresLoad idle = PostgresLoad.start(pgJdbc, servers.applicationNames());
    Thread.sleep(AT_REST.toMillis());
    return idle.stop().atRest(servers.size(), AT_REST.toSeconds());
  }

  /**
   * What one measured window gave.
   *
   * @param serverCpuByNode each server's CPU time in the window; null for an external server
   * @param clientCpu this process's CPU time in the window (the client threads, and its JIT and GC)
   * @param machineCpu the whole machine's busy CPU time in the window; null where /proc is missing
   * @param database what PostgreSQL did in the window; null for SQLite or an external server
   */
  private record Result(
      long done,
      long failed,
      double elapsed,
      Map<String, long[]> latencies,
      List<Duration> serverCpuByNode,
      Map<String, Duration> serverCpuByKind,
      Duration clientCpu,
      Duration machineCpu,
      long commits,
      PostgresLoad.Window database) {

    Duration serverCpu() {
      return serverCpuByNode == null
          ? null
          : serverCpuByNode.stream().reduce(Duration.ZERO, Duration::plus);
    }
  }

  /**
   * Runs the clients for {@code duration}.
   *
   * @param nodes a client of each node; call k of unit i goes to node (k + i) mod their number, so
   *     that with several nodes one agreement's calls land on all of them and meet in the database
   *     (or, with --route agreement, all to node i mod their number)
   * @param servers the nodes' processes, to read their CPU time and commits; null for an external
   *     server
   * @param pgJdbc the PostgreSQL database to watch in the window, or null
   */
  private static Result run(
      BenchOptions o, List<AsaClient> nodes, Duration duration, ServerNodes servers, String pgJdbc)
      throws Exception {
    Scenario scenario = o.scenario();
    int clients = o.clients();
    Map<String, ConcurrentLinkedQueue<Long>> latencies = new ConcurrentHashMap<>();
    scenario.calls.forEach(c -> latencies.put(c, new ConcurrentLinkedQueue<>()));
    AtomicLong done = new AtomicLong();
    AtomicLong failed = new AtomicLong();
    AtomicLong started = new AtomicLong();
    AtomicBoolean stop = new AtomicBoolean();
    Ed25519PrivateKey clientKey = Ed25519PrivateKey.generate(new SecureRandom());
    Ed25519PrivateKey providerKey = Ed25519PrivateKey.generate(new SecureRandom());
    Ed25519PrivateKey evaluatorKey = Ed25519PrivateKey.generate(new SecureRandom());
    List<Parties> parties =
        nodes.stream()
            .map(node ->
                new Parties(
                    node.withKey(clientKey),
                    node.withKey(providerKey),
                    node.withKey(evaluatorKey),
                    clientKey,
                    providerKey,
                    evaluatorKey))
            .toList();
    ExecutorService pool = Executors.newFixedThreadPool(clients);
    // The window: from before the first call to after the last lifecycle has finished, so every
    // CPU second of the server in it belongs to a lifecycle counted (or to a failure).
    long commits0 = servers == null ? 0 : servers.commits();
    List<Duration> serverCpu0 = servers == null ? null : servers.cpu();
    Map<String, Duration> byKind0 = servers == null ? Map.of() : servers.cpuByKind();
    PostgresLoad database =
        pgJdbc == null ? null : PostgresLoad.start(pgJdbc, servers.applicationNames());
    Duration clientCpu0 = ownCpu();
    Duration machine0 = ProcCpu.machineBusy().orElse(null);
    long start = System.nanoTime();
    for (int i = 0; i < clients; i++) {
      pool.submit(() -> {
        while (!stop.get()) {
          try {
            Route route = new Route(parties, started.getAndIncrement(), o.stickyAgreements());
            switch (scenario) {
              case LIFECYCLE -> lifecycle(route, latencies);
              case STRUCTURAL -> structural(route, latencies);
            }
            done.incrementAndGet();
          } catch (RuntimeException e) {
            if (failed.incrementAndGet() < 3) {
              System.err.println("lifecycle failed: " + e.getMessage());
            }
          }
        }
      });
    }
    Thread.sleep(duration.toMillis());
    stop.set(true);
    pool.shutdown();
    pool.awaitTermination(1, java.util.concurrent.TimeUnit.MINUTES);
    double elapsed = (System.nanoTime() - start) / 1e9;
    Duration machine =
        machine0 == null ? null : ProcCpu.machineBusy().map(m -> m.minus(machine0)).orElse(null);
    List<Duration> serverCpu = null;
    if (servers != null) {
      List<Duration> now = servers.cpu();
      serverCpu = new ArrayList<>();
      for (int i = 0; i < now.size(); i++) {
        serverCpu.add(now.get(i).minus(serverCpu0.get(i)));
      }
    }
    PostgresLoad.Window db = database == null ? null : database.stop();
    // The second reading committed its own nonce on each node: commits that are not the work's.
    long commits = servers == null ? -1 : servers.commits() - commits0 - servers.size();
    Map<String, Duration> byKind = new LinkedHashMap<>();
    if (servers != null) {
      servers
          .cpuByKind()
          .forEach((k, v) -> byKind.put(k, v.minus(byKind0.getOrDefault(k, Duration.ZERO))));
    }
    Duration clientCpu = ownCpu().minus(clientCpu0);
    Map<String, long[]> sorted = new LinkedHashMap<>();
    for (String call : scenario.calls) {
      sorted.put(call, latencies.get(call).stream().mapToLong(Long::longValue).sorted().toArray());
    }
    return new Result(
        done.get(),
        failed.get(),
        elapsed,
        sorted,
        serverCpu,
        byKind,
        clientCpu,
        machine,
        commits,
        db);
  }

  private static Duration ownCpu() {
    return ServerProcess.cpuOf(ProcessHandle.current().pid()).orElse(Duration.ZERO);
  }

  /**
   * One table per store: throughput and latency per call, then CPU (against the signature floor),
   * commits and disk per lifecycle ({@code compacted}: PostgreSQL's live rows only, or null).
   */
  private static void print(
      Scenario scenario,
      Result r,
      StoreFootprint disk,
      StoreFootprint compacted,
      SignatureFloor floor) {
    String unit = scenario.unit;
    System.out.printf(
        "%ss: %d in %.1f s = %.1f %ss/s (%.0f HTTP calls/s), failures: %d%n",
        unit,
        r.done(),
        r.elapsed(),
        r.done() / r.elapsed(),
        unit,
        r.done() * scenario.calls.size() / r.elapsed(),
        r.failed());
    System.out.printf("  %-14s %8s %8s %8s%n", "call", "p50 ms", "p99 ms", "count");
    for (String call : scenario.calls) {
      long[] sorted = r.latencies().get(call);
      System.out.printf(
          "  %-14s %8.2f %8.2f %8d%n", call, pct(sorted, 0.50), pct(sorted, 0.99), sorted.length);
    }
    String serverCpu =
        r.serverCpu() == null
            ? "n/a (external server)"
            : String.format(
                Locale.ROOT,
                "%.2f ms  (%.1f s CPU in %.1f s: %.2f cores busy)",
                perLifecycleMs(r.serverCpu(), r.done()),
                r.serverCpu().toNanos() / 1e9,
                r.elapsed(),
                r.serverCpu().toNanos() / 1e9 / r.elapsed());
    System.out.printf("  %-28s %s%n", "server CPU per " + unit, serverCpu);
    if (r.done() > 0) {
      System.out.println(
          floor.describe(
              unit, r.serverCpu() == null ? Double.NaN : perLifecycleMs(r.serverCpu(), r.done())));
    }
    if (r.serverCpuByNode() != null && r.serverCpuByNode().size() > 1) {
      System.out.printf("  %-28s %s%n", "  of which (nodes)", byNode(r));
    }
    if (!r.serverCpuByKind().isEmpty()) {
      System.out.printf("  %-28s %s%n", "  of which (threads)", byKind(r));
    }
    if (r.commits() >= 0 && r.done() > 0) {
      System.out.printf(
          Locale.ROOT,
          "  %-28s %.2f  (%d write transactions; failures' included)%n",
          "commits per " + unit,
          (double) r.commits() / r.done(),
          r.commits());
    }
    if (r.database() != null && r.done() > 0) {
      r.database().describe(unit, r.done(), r.elapsed()).forEach(System.out::println);
    }
    System.out.printf(
        Locale.ROOT,
        "  %-28s %.2f ms  (the benchmark's own process: client threads, JIT, GC)%n",
        "client CPU per " + unit,
        perLifecycleMs(r.clientCpu(), r.done()));
    if (r.machineCpu() != null) {
      System.out.printf(
          Locale.ROOT,
          "  %-28s %.2f of %d cores busy  (every process: servers, PostgreSQL, client, others')%n",
          "machine",
          r.machineCpu().toNanos() / 1e9 / r.elapsed(),
          ProcCpu.machineCores());
    }
    if (scenario != Scenario.LIFECYCLE) {
      return; // no agreements: bytes per agreement mean nothing here
    }
    if (disk == null) {
      System.out.printf("  %-28s %s%n", "bytes per closed agreement", "n/a (external server)");
      return;
    }
    System.out.printf(
        Locale.ROOT,
        "  %-28s %,d (%,d CLOSED), warm-up included%n",
        "agreements in the store",
        disk.agreements(),
        disk.closed());
    System.out.printf(
        Locale.ROOT, "  %-28s %,d  (%s)%n", "bytes on disk", disk.bytes(), disk.what());
    System.out.printf(
        Locale.ROOT,
        "  %-28s %s%n",
        "bytes per closed agreement",
        disk.closed() == 0
            ? "n/a (none closed)"
            : String.format(Locale.ROOT, "%,d", disk.bytesPerClosed()));
    if (disk.closed() > 0 && disk.keptBytesPerClosed() != disk.bytesPerClosed()) {
      System.out.printf(
          Locale.ROOT,
          "  %-28s %,d  (without %s: pruned after their window, so bounded by the request rate)%n",
          "  kept per agreement",
          disk.keptBytesPerClosed(),
          String.join(", ", StoreFootprint.TRANSIENT));
    }
    if (!disk.largestPerClosed(1).isEmpty()) {
      System.out.printf("  %-28s %s%n", "  of which (tables+indexes)", disk.largestPerClosed(6));
    }
    if (compacted != null && compacted.closed() > 0) {
      System.out.printf(
          Locale.ROOT,
          "  %-28s %,d  (after VACUUM FULL: without the dead row versions autovacuum makes"
              + " reusable)%n",
          "  kept, live rows only",
          compacted.keptBytesPerClosed());
      System.out.printf(
          "  %-28s %s%n", "  of which (tables+indexes)", compacted.largestPerClosed(6));
    }
  }

  /** "node 1 5.10 ms (0.92 cores busy), node 2 5.02 ms (0.90 cores busy)": each server's share. */
  private static String byNode(Result r) {
    List<String> parts = new ArrayList<>();
    for (int i = 0; i < r.serverCpuByNode().size(); i++) {
      Duration d = r.serverCpuByNode().get(i);
      parts.add(
          String.format(
              Locale.ROOT,
              "node %d %.2f ms (%.2f cores busy)",
              i + 1,
              perLifecycleMs(d, r.done()),
              d.toNanos() / 1e9 / r.elapsed()));
    }
    return String.join(", ", parts);
  }

  /**
   * "work 3.02 ms, jit 0.21 ms, gc+vm 0.10 ms": what the server's threads spent per lifecycle.
   * Compiler time still counting in the window means the warm-up was too short for a steady state.
   */
  private static String byKind(Result r) {
    StringBuilder b = new StringBuilder();
    for (String kind : List.of("work", "jit", "gc+vm")) {
      Duration d = r.serverCpuByKind().get(kind);
      if (d != null) {
        b.append(b.isEmpty() ? "" : ", ")
            .append(String.format(Locale.ROOT, "%s %.2f ms", kind, perLifecycleMs(d, r.done())));
      }
    }
    return b.toString();
  }

  static double perLifecycleMs(Duration cpu, long lifecycles) {
    return lifecycles == 0 ? Double.NaN : cpu.toNanos() / 1e6 / lifecycles;
  }

  /** Each party's client signs its requests with its own key (RFC 9421), as the server requires. */
  private record Parties(
      AsaClient client,
      AsaClient provider,
      AsaClient evaluator,
      Ed25519PrivateKey clientKey,
      Ed25519PrivateKey providerKey,
      Ed25519PrivateKey evaluatorKey) {}

  /**
   * Which node each call of unit {@code index} goes to: call k to node (k + index) mod N. With two
   * nodes, one agreement's calls alternate between them (and the next agreement starts on the
   * other), so every step reads what the other node wrote: the state they share is the database's.
   * Sticky: every call of unit {@code index} to node index mod N, as a load balancer with affinity
   * by agreement id would send them; what differs between the two is the cost of crossing nodes.
   */
  private record Route(List<Parties> nodes, long index, boolean sticky) {
    Parties call(int k) {
      return nodes.get((int) (((sticky ? 0 : k) + index) % nodes.size()));
    }
  }

  private static void lifecycle(Route route, Map<String, ConcurrentLinkedQueue<Long>> latencies) {
    Parties p = route.call(0);
    ObjectNode doc =
        LifecycleBenchmarkDocs.document(p.clientKey(), p.providerKey(), p.evaluatorKey());
    ObjectNode created = timed(latencies, "create", () -> p.client().createAgreement(doc));
    String id = created.path("agreement_id").asText();
    // Each party signs the agreement_hash the create answer carries, as an agent would: no extra
    // read.
    byte[] hash = created.path("agreement_hash").asText().getBytes(StandardCharsets.UTF_8);
    timed(
        latencies,
        "sign_client",
        () -> route.call(1).client().signRaw(id, "client", p.clientKey().sign(hash).toBase64Url()));
    timed(
        latencies,
        "sign_provider",
        () ->
            route
                .call(2)
                .provider()
                .signRaw(id, "provider", p.providerKey().sign(hash).toBase64Url()));
    // The escrow holds the agreement's amount before the provider may deliver.
    timed(latencies, "fund", () -> route.call(3).client().fund(id));
    timed(
        latencies,
        "deliver",
        () -> route.call(4).provider().deliver(id, LifecycleBenchmarkDocs.DELIVERABLE, "markdown"));
    ObjectNode closed =
        timed(
            latencies,
            "verify",
            () -> route.call(5).evaluator().verify(id, LifecycleBenchmarkDocs.SCORES));
    if (!closed.path("state").asText().equals("CLOSED")) {
      throw new IllegalStateException("lifecycle ended in " + closed.path("state").asText());
    }
  }

  private static final AtomicLong UNIQUE = new AtomicLong();

  private static void structural(Route route, Map<String, ConcurrentLinkedQueue<Long>> latencies) {
    Parties p = route.call(0);
    // Each request unique: the server answers a repeated one from its first job without evaluating.
    ObjectNode request = LifecycleBenchmarkDocs.STRUCTURAL_REQUEST.deepCopy();
    ((ObjectNode) request.get("original_request"))
        .put("description", EvaluatorBenchmark.REQUEST + " Run " + UNIQUE.incrementAndGet() + ".");
    ObjectNode answer =
        timed(latencies, "verify_structural", () -> p.client().requestVerification(request));
    if (!answer.path("composite").path("score").isNumber()) {
      throw new IllegalStateException("not a result: " + answer);
    }
  }

  private interface Call {
    ObjectNode run();
  }

  private static ObjectNode timed(
      Map<String, ConcurrentLinkedQueue<Long>> latencies, String name, Call call) {
    long t0 = System.nanoTime();
    ObjectNode result = call.run();
    latencies.get(name).add(System.nanoTime() - t0);
    return result;
  }

  private static double pct(long[] sorted, double p) {
    if (sorted.length == 0) {
      return Double.NaN;
    }
    return sorted[Math.min(sorted.length - 1, (int) Math.floor(p * sorted.length))] / 1e6;
  }

  private static void createSchema(String url, String schema) throws Exception {
    try (Connection c = DriverManager.getConnection(jdbc(url))) {
      c.createStatement().execute("CREATE SCHEMA " + schema);
    }
  }

  private static void dropSchema(String url, String schema) throws Exception {
    try (Connection c = DriverManager.getConnection(jdbc(url))) {
      c.createStatement().execute("DROP SCHEMA " + schema + " CASCADE");
    }
  }

  private static void deleteTree(Path dir) throws java.io.IOException {
    if (!Files.exists(dir)) {
      return; // a node that never started
    }
    try (var paths = Files.walk(dir)) {
      for (Path p : paths.sorted(java.util.Comparator.reverseOrder()).toList()) {
        Files.deleteIfExists(p);
      }
    }
  }

  /** postgresql://user@host:port/db -> jdbc:postgresql://host:port/db?user=user */
  static String jdbc(String url) {
    URI u = URI.create(url);
    String user = u.getUserInfo() == null ? "" : "?user=" + u.getUserInfo().split(":")[0];
    return "jdbc:postgresql://"
        + u.getHost()
        + ":"
        + (u.getPort() < 0 ? 5432 : u.getPort())
        + u.getPath()
        + user;
  }
}
