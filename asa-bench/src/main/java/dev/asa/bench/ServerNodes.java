package dev.asa.bench;

import dev.asa.server.ServerKey;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The servers under test: one, or several on one PostgreSQL schema as an operator runs them behind
 * a load balancer (docs/operating.md, "Several nodes on PostgreSQL"): each with its own data
 * directory, log and CPU list, all with the same server key (the first node's, copied) and the same
 * operator key. Each node connects with an application_name of its own, so that PostgreSQL's views
 * tell its sessions apart from the other nodes' and from anyone else's.
 */
final class ServerNodes implements AutoCloseable {

  private final List<ServerProcess> nodes;
  private final List<String> applicationNames;

  private ServerNodes(List<ServerProcess> nodes, List<String> applicationNames) {
    this.nodes = nodes;
    this.applicationNames = applicationNames;
  }

  /**
   * Starts the nodes one after the other (the first one migrates the schema and makes the server
   * key, the others find both).
   *
   * @param base the run's directory: node i's data directory and log go in it
   * @param dbUrl null for SQLite (one node only), else the PostgreSQL URL of the run's schema
   * @param runName names the run's sessions in PostgreSQL, e.g. the schema's name
   */
  static ServerNodes start(Path base, String dbUrl, String runName, BenchOptions o)
      throws IOException, InterruptedException {
    List<ServerProcess> started = new ArrayList<>();
    List<String> names = new ArrayList<>();
    try {
      for (int i = 0; i < o.nodes(); i++) {
        String name = runName + "-node-" + (i + 1);
        Path dir = dataDir(base, i, o.nodes());
        if (i > 0) {
          Files.createDirectories(dir);
          Files.copy(
              dataDir(base, 0, o.nodes()).resolve(ServerKey.FILE_NAME),
              dir.resolve(ServerKey.FILE_NAME));
        }
        started.add(
            ServerProcess.start(
                dir,
                dbUrl == null ? null : withApplicationName(dbUrl, name),
                o.coresOf(i),
                o.serverJavaOpts(),
                o.serverLogLevel(),
                base.resolve(o.nodes() == 1 ? "server.log" : "server-" + (i + 1) + ".log")));
        names.add(name);
      }
    } catch (IOException | InterruptedException | RuntimeException e) {
      started.forEach(ServerProcess::stopCleanly);
      throw e;
    }
    return new ServerNodes(List.copyOf(started), List.copyOf(names));
  }

  /** Node i's data directory: {@code data} for a single node (as before), else {@code data-N}. */
  static Path dataDir(Path base, int node, int nodes) {
    return base.resolve(nodes == 1 ? "data" : "data-" + (node + 1));
  }

  /**
   * The URL with the node's name as its application_name; the driver lets a URL parameter override
   * the name the server sets on its pool ("asa-server").
   */
  static String withApplicationName(String dbUrl, String name) {
    return dbUrl + (dbUrl.contains("?") ? "&" : "?") + "ApplicationName=" + name;
  }

  List<ServerProcess> all() {
    return nodes;
  }

  ServerProcess get(int node) {
    return nodes.get(node);
  }

  int size() {
    return nodes.size();
  }

  /** The application_name of each node's PostgreSQL sessions, in node order. */
  List<String> applicationNames() {
    return applicationNames;
  }

  /** Each node's CPU time so far. */
  List<Duration> cpu() {
    return nodes.stream().map(ServerProcess::cpu).toList();
  }

  /** Each node's CPU time so far by kind of thread, summed over the nodes. */
  Map<String, Duration> cpuByKind() {
    Map<String, Duration> sum = new java.util.TreeMap<>();
    nodes.forEach(n -> n.cpuByKind().forEach((k, v) -> sum.merge(k, v, Duration::plus)));
    return sum;
  }

  /**
   * Write transactions committed by all nodes so far; each node's reading commits one of its own
   * (its nonce), counted in.
   */
  long commits() throws IOException, InterruptedException {
    long sum = 0;
    for (ServerProcess n : nodes) {
      sum += n.commits();
    }
    return sum;
  }

  /**
   * Stops every node with SIGTERM.
   *
   * @return true if all stopped by themselves in time
   */
  boolean stopCleanly() {
    boolean clean = true;
    for (ServerProcess n : nodes) {
      clean &= n.stopCleanly();
    }
    return clean;
  }

  @Override
  public void close() {
    stopCleanly();
  }
}
