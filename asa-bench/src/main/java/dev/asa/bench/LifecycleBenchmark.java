package dev.asa.bench;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.asa.client.AsaClient;
import dev.asa.crypto.Ed25519PrivateKey;
import dev.asa.server.AsaServer;
import dev.asa.server.config.ServerConfig;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.sql.Connection;
import java.sql.DriverManager;
import java.time.Duration;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Full agreement lifecycles per second through the HTTP API, for each store, with p50/p99 latency
 * per call. A benchmark that prints numbers, not a test: run it with {@code ./asa bench}.
 *
 * <p>One lifecycle = create (from a template) -> sign as client -> sign as provider (each signing
 * the agreement_hash of the create answer) -> fund the escrow as client -> deliver -> verify (with
 * the evaluator's scores; the verification is pessimistic, so it is enforced at once: the agreement
 * closes and the ledger releases and refunds in that call): six HTTP calls. (With an optimistic
 * window of 0 s an explicit close would race the server's own challenge-window timer.) The server
 * runs in this process on a loopback port; clients are concurrent threads over real HTTP.
 *
 * <p>Arguments: {@code [--seconds N] [--warmup N] [--clients N] [--stores sqlite,postgresql] [--pg
 * postgresql://user@127.0.0.1:5432/test] [--server URL]}. With {@code --server} the benchmark
 * drives a server running in another process instead of starting its own.
 */
public final class LifecycleBenchmark {

  private static final List<String> CALLS =
      List.of("create", "sign_client", "sign_provider", "fund", "deliver", "verify");

  public static void main(String[] args) throws Exception {
    Map<String, String> opts = options(args);
    int seconds = Integer.parseInt(opts.getOrDefault("seconds", "20"));
    int warmup = Integer.parseInt(opts.getOrDefault("warmup", "60"));
    int clients = Integer.parseInt(opts.getOrDefault("clients", "16"));
    String pg =
        opts.getOrDefault(
            "pg",
            System.getenv()
                .getOrDefault("ASA_BENCH_PG", "postgresql://postgres@127.0.0.1:5432/test"));
    System.out.printf(
        "ASA lifecycle benchmark: %d client threads, %d s warm-up, %d s measured, %d cores, Java %s%n",
        clients, warmup, seconds, Runtime.getRuntime().availableProcessors(), Runtime.version());
    if (opts.containsKey("server")) {
      // A server started elsewhere (./asa serve), so that client and server do not share a JVM.
      AsaClient client = AsaClient.connect(URI.create(opts.get("server")));
      System.out.println();
      System.out.println("server: " + opts.get("server") + " (external process)");
      run(client, clients, Duration.ofSeconds(warmup), false);
      run(client, clients, Duration.ofSeconds(seconds), true);
      return;
    }
    for (String store : opts.getOrDefault("stores", "sqlite,postgresql").split(",")) {
      Path dir = Files.createTempDirectory("asa-bench");
      String dbUrl = null;
      String schema = null;
      if (store.equals("postgresql")) {
        schema = "asa_bench_" + Long.toHexString(new SecureRandom().nextLong() & Long.MAX_VALUE);
        createSchema(pg, schema);
        dbUrl = pg + (pg.contains("?") ? "&" : "?") + "currentSchema=" + schema;
      }
      // The per-key rate limit is raised: the benchmark's three keys are its whole load.
      try (AsaServer server =
          AsaServer.start(
              ServerConfig.defaults()
                  .withPort(0)
                  .withDataDir(dir)
                  .withDbUrl(dbUrl)
                  .withRateLimit(1_000_000, 1_000_000))) {
        System.out.println();
        System.out.println("store: " + server.storeDescription());
        AsaClient client = AsaClient.connect(URI.create(server.url("127.0.0.1")));
        run(client, clients, Duration.ofSeconds(warmup), false);
        run(client, clients, Duration.ofSeconds(seconds), true);
      } finally {
        if (schema != null) {
          dropSchema(pg, schema);
        }
      }
    }
  }

  private static void run(AsaClient client, int clients, Duration duration, boolean report)
      throws Exception {
    Map<String, ConcurrentLinkedQueue<Long>> latencies = new ConcurrentHashMap<>();
    CALLS.forEach(c -> latencies.put(c, new ConcurrentLinkedQueue<>()));
    AtomicLong done = new AtomicLong();
    AtomicLong failed = new AtomicLong();
    AtomicBoolean stop = new AtomicBoolean();
    Ed25519PrivateKey clientKey = Ed25519PrivateKey.generate(new SecureRandom());
    Ed25519PrivateKey providerKey = Ed25519PrivateKey.generate(new SecureRandom());
    Ed25519PrivateKey evaluatorKey = Ed25519PrivateKey.generate(new SecureRandom());
    Parties parties =
        new Parties(
            client.withKey(clientKey),
            client.withKey(providerKey),
            client.withKey(evaluatorKey),
            clientKey,
            providerKey,
            evaluatorKey);
    ExecutorService pool = Executors.newFixedThreadPool(clients);
    long start = System.nanoTime();
    for (int i = 0; i < clients; i++) {
      pool.submit(() -> {
        while (!stop.get()) {
          try {
            lifecycle(parties, latencies);
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
    if (!report) {
      return;
    }
    System.out.printf(
        "lifecycles: %d in %.1f s = %.1f lifecycles/s (%.0f HTTP calls/s), failures: %d%n",
        done.get(),
        elapsed,
        done.get() / elapsed,
        done.get() * CALLS.size() / elapsed,
        failed.get());
    System.out.printf("  %-14s %8s %8s %8s%n", "call", "p50 ms", "p99 ms", "count");
    for (String call : CALLS) {
      long[] sorted = latencies.get(call).stream().mapToLong(Long::longValue).sorted().toArray();
      System.out.printf(
          "  %-14s %8.2f %8.2f %8d%n", call, pct(sorted, 0.50), pct(sorted, 0.99), sorted.length);
    }
  }

  /** Each party's client signs its requests with its own key (RFC 9421), as the server requires. */
  private record Parties(
      AsaClient client,
      AsaClient provider,
      AsaClient evaluator,
      Ed25519PrivateKey clientKey,
      Ed25519PrivateKey providerKey,
      Ed25519PrivateKey evaluatorKey) {}

  private static void lifecycle(Parties p, Map<String, ConcurrentLinkedQueue<Long>> latencies) {
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
        () -> p.client().signRaw(id, "client", p.clientKey().sign(hash).toBase64Url()));
    timed(
        latencies,
        "sign_provider",
        () -> p.provider().signRaw(id, "provider", p.providerKey().sign(hash).toBase64Url()));
    // The escrow holds the agreement's amount before the provider may deliver.
    timed(latencies, "fund", () -> p.client().fund(id));
    timed(
        latencies,
        "deliver",
        () -> p.provider().deliver(id, LifecycleBenchmarkDocs.DELIVERABLE, "markdown"));
    ObjectNode closed =
        timed(latencies, "verify", () -> p.evaluator().verify(id, LifecycleBenchmarkDocs.SCORES));
    if (!closed.path("state").asText().equals("CLOSED")) {
      throw new IllegalStateException("lifecycle ended in " + closed.path("state").asText());
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

  /** postgresql://user@host:port/db -> jdbc:postgresql://host:port/db?user=user */
  private static String jdbc(String url) {
    URI u = URI.create(url);
    String user = u.getUserInfo() == null ? "" : "?user=" + u.getUserInfo().split(":")[0];
    return "jdbc:postgresql://"
        + u.getHost()
        + ":"
        + (u.getPort() < 0 ? 5432 : u.getPort())
        + u.getPath()
        + user;
  }

  private static Map<String, String> options(String[] args) {
    Map<String, String> m = new LinkedHashMap<>();
    for (int i = 0; i < args.length; i++) {
      if (!args[i].startsWith("--") || i + 1 >= args.length) {
        throw new IllegalArgumentException(
            "usage: [--seconds N] [--warmup N] [--clients N] [--stores sqlite,postgresql] [--pg URL]; bad: "
                + Arrays.toString(args));
      }
      m.put(args[i].substring(2), args[++i]);
    }
    return m;
  }
}
