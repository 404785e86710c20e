package dev.asa.bench;

import java.io.File;
import java.io.IOException;
import java.net.URI;
import java.net.URL;
import java.net.URLClassLoader;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;

/**
 * The server under test as a child process: the same classpath as the benchmark, running what
 * {@code asa serve} runs ({@code dev.asa.cli.Main serve}), optionally pinned to some cores with
 * {@code taskset -c}. Its own CPU time is read from the operating system, so that server CPU per
 * lifecycle does not depend on what else the machine (or the client) does.
 */
final class ServerProcess implements AutoCloseable {

  /** The line {@code asa serve} prints once it listens. */
  private static final String LISTENING = "ASA server listening on ";

  private static final String STORE = "store: ";

  private final Process process;
  private final Path log;
  private final String url;
  private final String store;
  private final Thread killer;
  // The operator's key, made for the run: it reads /metrics (the commit counter).
  private static final dev.asa.crypto.Ed25519PrivateKey OPERATOR =
      dev.asa.crypto.Ed25519PrivateKey.generate(new java.security.SecureRandom());

  private ServerProcess(Process process, Path log, String url, String store, Thread killer) {
    this.process = process;
    this.log = log;
    this.url = url;
    this.store = store;
    this.killer = killer;
  }

  /**
   * Starts {@code asa serve} on a free loopback port and waits until {@code /ready} answers 200.
   *
   * @param dbUrl null for SQLite in {@code dataDir}
   * @param serverCores null for no pinning, else a {@code taskset -c} CPU list such as {@code 0}
   * @param javaOpts options of the child JVM, e.g. {@code -XX:+UseSerialGC}
   * @param logLevel the server's {@code --log-level}
   */
  static ServerProcess start(
      Path dataDir,
      String dbUrl,
      String serverCores,
      List<String> javaOpts,
      String logLevel,
      Path log)
      throws IOException, InterruptedException {
    Files.createDirectories(dataDir);
    Files.writeString(dataDir.resolve("operator.pub"), OPERATOR.publicKey().toBase64Url());
    List<String> command =
        command(
            serverCores,
            javaBinary(),
            javaOpts,
            classpath(),
            dataDir.toString(),
            dbUrl,
            logLevel,
            serverCores == null ? null : taskset());
    ProcessBuilder pb = new ProcessBuilder(command);
    // The child takes its settings from the command line only: no ASA_* variable of the caller.
    pb.environment().keySet().removeIf(k -> k.startsWith("ASA_"));
    pb.redirectErrorStream(true);
    pb.redirectOutput(log.toFile());
    pb.redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")));
    Process process = pb.start();
    // Whatever happens to the benchmark (an exception, Ctrl-C), the server goes with it.
    Thread killer = new Thread(() -> stop(process), "asa-bench-server-kill");
    Runtime.getRuntime().addShutdownHook(killer);
    try {
      String url = awaitLine(process, log, LISTENING, Duration.ofSeconds(120));
      String store = awaitLine(process, log, STORE, Duration.ofSeconds(10));
      awaitReady(process, url, Duration.ofSeconds(60));
      return new ServerProcess(process, log, url.strip(), store.strip(), killer);
    } catch (IOException | InterruptedException | RuntimeException e) {
      stop(process);
      Runtime.getRuntime().removeShutdownHook(killer);
      throw e;
    }
  }

  /** The child's command line (package-private for the test). */
  static List<String> command(
      String serverCores,
      String java,
      List<String> javaOpts,
      String classpath,
      String dataDir,
      String dbUrl,
      String logLevel,
      String taskset) {
    List<String> c = new ArrayList<>();
    if (serverCores != null) {
      c.addAll(List.of(taskset, "-c", serverCores));
    }
    c.add(java);
    c.addAll(javaOpts);
    c.add("--enable-native-access=ALL-UNNAMED");
    c.addAll(List.of("-cp", classpath, "dev.asa.cli.Main", "serve"));
    c.addAll(List.of("--host", "127.0.0.1", "--port", "0", "--data-dir", dataDir));
    if (dbUrl != null) {
      c.addAll(List.of("--db", dbUrl));
    }
    // The benchmark's three keys are its whole load: the per-key rate limit must not count.
    c.addAll(List.of("--rate-limit", "1000000", "--log-level", logLevel));
    c.addAll(List.of("--operator-key", dataDir + "/operator.pub"));
    return c;
  }

  String url() {
    return url;
  }

  /** What the server said about its store, e.g. "SQLite /tmp/.../asa.db (WAL)". */
  String store() {
    return store;
  }

  long pid() {
    return process.pid();
  }

  /**
   * The write transactions the server has committed ({@code asa_store_commits_total} from its
   * {@code GET /metrics}); the reading's own request commits one (its nonce), counted in.
   */
  long commits() throws IOException, InterruptedException {
    URI uri = URI.create(url + "/metrics");
    HttpRequest.Builder request = HttpRequest.newBuilder(uri).GET();
    new dev.asa.signedrequests.RequestSigner(
            OPERATOR, java.time.Clock.systemUTC(), new java.security.SecureRandom())
        .sign("GET", uri, null)
        .asMap()
        .forEach(request::header);
    try (HttpClient http = HttpClient.newHttpClient()) {
      String text = http.send(request.build(), HttpResponse.BodyHandlers.ofString()).body();
      return text.lines()
          .filter(l -> l.startsWith("asa_store_commits_total"))
          .mapToLong(l -> (long) Double.parseDouble(l.substring(l.lastIndexOf(' ') + 1)))
          .findFirst()
          .orElseThrow(() -> new IllegalStateException("no asa_store_commits_total at " + uri));
    }
  }

  /** The server process's CPU time so far (user + system, all its threads). */
  Duration cpu() {
    return cpuOf(process.pid())
        .orElseThrow(() -> new IllegalStateException("cannot read the CPU time of " + pid()));
  }

  /**
   * Stops the server as an operator would (SIGTERM: its shutdown hook closes the store, which
   * checkpoints SQLite's WAL into the database file), killing it after 60 s.
   *
   * @return true if it stopped by itself within the time
   */
  boolean stopCleanly() {
    boolean clean = stop(process);
    try {
      Runtime.getRuntime().removeShutdownHook(killer);
    } catch (IllegalStateException e) {
      // already shutting down: the hook runs anyway
    }
    return clean;
  }

  @Override
  public void close() {
    stopCleanly();
  }

  Path log() {
    return log;
  }

  private static boolean stop(Process process) {
    if (!process.isAlive()) {
      return true;
    }
    process.destroy();
    try {
      if (process.waitFor(60, TimeUnit.SECONDS)) {
        return true;
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    process.destroyForcibly();
    return false;
  }

  /**
   * The server's CPU time so far by kind of thread, read from /proc/PID/task (Linux; empty
   * elsewhere): "jit" for the compiler threads, "gc+vm" for the collector and the VM thread (which
   * runs the serial collector and safepoint work), "work" for everything else (request handling,
   * background loops). A lifecycle's cost is "work"; JIT time is a warm-up that a short run still
   * pays, which is why it is shown apart.
   */
  Map<String, Duration> cpuByKind() {
    Map<String, Duration> kinds = new TreeMap<>();
    try (var tasks = Files.list(Path.of("/proc/" + pid() + "/task"))) {
      for (Path task : tasks.toList()) {
        try {
          String name = Files.readString(task.resolve("comm"), StandardCharsets.UTF_8).strip();
          Duration cpu =
              ProcCpu.procStatCpu(Files.readString(task.resolve("stat"), StandardCharsets.UTF_8));
          kinds.merge(threadKind(name), cpu, Duration::plus);
        } catch (IOException | RuntimeException e) {
          // the thread ended between the listing and the read: its time is gone from both ends
        }
      }
    } catch (IOException | RuntimeException e) {
      return Map.of();
    }
    return kinds;
  }

  /** The kind of a JVM thread by its name as the kernel knows it (15 characters at most). */
  static String threadKind(String name) {
    if (name.contains("CompilerThre") || name.startsWith("C1 ") || name.startsWith("C2 ")) {
      return "jit";
    }
    if (name.equals("VM Thread") || name.startsWith("GC ") || name.startsWith("G1 ")) {
      return "gc+vm";
    }
    return "work";
  }

  /** CPU time of a process: from the JDK, or from /proc/PID/stat (utime + stime, 100 Hz). */
  static Optional<Duration> cpuOf(long pid) {
    Optional<Duration> fromJdk = ProcessHandle.of(pid).flatMap(h -> h.info().totalCpuDuration());
    return fromJdk.isPresent() ? fromJdk : ProcCpu.ofPid(pid);
  }

  /** The path of taskset, or an error that says where it comes from. */
  static String taskset() {
    for (String dir : System.getenv().getOrDefault("PATH", "/usr/bin:/bin").split(":")) {
      Path p = Path.of(dir.isEmpty() ? "." : dir, "taskset");
      if (Files.isExecutable(p)) {
        return p.toString();
      }
    }
    throw new IllegalStateException(
        "--server-cores needs taskset, which is not on the PATH (Linux: the util-linux package,"
            + " e.g. apt-get install util-linux)");
  }

  private static String javaBinary() {
    return ProcessHandle.current()
        .info()
        .command()
        .orElse(Path.of(System.getProperty("java.home"), "bin", "java").toString());
  }

  /**
   * The benchmark's own classpath: java.class.path when started with {@code java -cp} (what {@code
   * ./asa bench} does), or the URLs of the class loader that loaded it (Maven's exec:java).
   */
  static String classpath() {
    Set<String> entries = new LinkedHashSet<>();
    for (ClassLoader l = ServerProcess.class.getClassLoader(); l != null; l = l.getParent()) {
      if (l instanceof URLClassLoader u) {
        for (URL url : u.getURLs()) {
          if ("file".equals(url.getProtocol())) {
            entries.add(Path.of(URI.create(url.toString())).toString());
          }
        }
      }
    }
    entries.addAll(Arrays.asList(System.getProperty("java.class.path").split(File.pathSeparator)));
    entries.remove("");
    return String.join(File.pathSeparator, entries);
  }

  private static String awaitLine(Process process, Path log, String prefix, Duration timeout)
      throws IOException, InterruptedException {
    long deadline = System.nanoTime() + timeout.toNanos();
    while (System.nanoTime() < deadline) {
      for (String line : Files.readAllLines(log, StandardCharsets.UTF_8)) {
        if (line.startsWith(prefix)) {
          return line.substring(prefix.length());
        }
      }
      if (!process.isAlive()) {
        throw new IllegalStateException(
            "the server exited with status " + process.exitValue() + ":\n" + tail(log));
      }
      Thread.sleep(100);
    }
    throw new IllegalStateException(
        "the server did not print '" + prefix + "' within " + timeout + ":\n" + tail(log));
  }

  private static void awaitReady(Process process, String url, Duration timeout)
      throws InterruptedException {
    HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
    HttpRequest ready =
        HttpRequest.newBuilder(URI.create(url.strip() + "/ready"))
            .timeout(Duration.ofSeconds(5))
            .build();
    long deadline = System.nanoTime() + timeout.toNanos();
    String last = "no answer";
    while (System.nanoTime() < deadline && process.isAlive()) {
      try {
        HttpResponse<String> r = http.send(ready, HttpResponse.BodyHandlers.ofString());
        if (r.statusCode() == 200) {
          return;
        }
        last = r.statusCode() + " " + r.body();
      } catch (IOException e) {
        last = e.toString();
      }
      Thread.sleep(100);
    }
    throw new IllegalStateException(url + "/ready did not answer 200: " + last);
  }

  static String tail(Path log) {
    try {
      List<String> lines = Files.readAllLines(log, StandardCharsets.UTF_8);
      return String.join("\n", lines.subList(Math.max(0, lines.size() - 30), lines.size()));
    } catch (IOException e) {
      return "(no log: " + e + ")";
    }
  }
}
